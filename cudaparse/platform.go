package cudaparse

import (
	"bytes"
	"regexp"
)

// Which GPUs a file is written for. HIP code built for AMD GPUs does not
// load through the CUDA driver, so CUDA's lazy loading does not apply to it.

// HIPOnly reports whether src is written against HIP alone: it names HIP's
// API (hipMalloc, hipStream_t, hipLaunchKernelGGL, a hip/ header, AMD
// builtins) and nothing of CUDA's (a cuda* or cu* API name, a CUDA header).
// Code written for both through a macro layer (`#define gpuMalloc
// cudaMalloc` beside `hipMalloc`) names CUDA too, and is CUDA code. Names
// in comments and strings do not count; names in directives do.
func HIPOnly(src []byte) bool {
	if !mentionsHIP(src) {
		return false
	}
	hip := false
	for _, t := range lex(src) {
		switch t.kind {
		case tokIdent:
			switch platformOf(src[t.start:t.end]) {
			case platformCUDA:
				return false
			case platformHIP:
				hip = true
			}
		case tokDirective:
			d := src[t.start:t.end]
			if directiveName(d) == "include" {
				switch {
				case hipHeader.Match(d):
					hip = true
				case cudaHeader.Match(d):
					return false
				}
				continue
			}
			for _, word := range directiveWords.FindAll(d, -1) {
				switch platformOf(word) {
				case platformCUDA:
					return false
				case platformHIP:
					hip = true
				}
			}
		}
	}
	return hip
}

// mentionsHIP is HIPOnly's quick test: a word starting with "hip", a
// __HIP macro, or an AMD builtin ("chip" and "ownership" do not count).
func mentionsHIP(src []byte) bool {
	if bytes.Contains(src, []byte("__HIP")) || bytes.Contains(src, []byte("amdgcn")) {
		return true
	}
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("hip"))
		if k < 0 {
			return false
		}
		if at := i + k; at == 0 || !isIdentByte(src[at-1]) {
			return true
		}
		i += k + 3
	}
}

type platform uint8

const (
	platformNone platform = iota
	platformCUDA
	platformHIP
)

var (
	hipName        = regexp.MustCompile(`^(hip[A-Z]\w*|__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP_DEVICE_COMPILE__|__builtin_amdgcn_\w+|__AMDGCN__)$`)
	cudaName       = regexp.MustCompile(`^(cuda[A-Z]\w*|cu[A-Z][a-z]\w*|CU[a-z]\w*|CUDA_\w+|CUresult|__nv_\w+|nvcuda|__NVCC__|__CUDACC__|__HIP_PLATFORM_NVIDIA__|__HIP_PLATFORM_NVCC__)$`)
	hipHeader      = regexp.MustCompile(`[<"]hip/`)
	cudaHeader     = regexp.MustCompile(`[<"/](cuda|cuda_runtime|cuda_runtime_api|cuda_fp16|cuda_bf16|cooperative_groups|cub/|thrust/|cuda/)`)
	directiveWords = regexp.MustCompile(`[A-Za-z_]\w*`)
)

func platformOf(name []byte) platform {
	if len(name) < 4 {
		return platformNone
	}
	switch {
	case (name[0] == 'h' || name[0] == '_') && hipName.Match(name):
		return platformHIP
	case (name[0] == 'c' || name[0] == 'C' || name[0] == '_' || name[0] == 'n') && cudaName.Match(name):
		return platformCUDA
	}
	return platformNone
}

// amdOnlyCondition matches a conditional whose branch is compiled for AMD
// GPUs only: `#ifdef __HIP_PLATFORM_AMD__`, `#if defined(USE_ROCM)`.
var amdOnlyCondition = regexp.MustCompile(`^#\s*(ifdef\s+|(el)?if\s+(defined\s*\(?\s*)?)(__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP__|__HIP_DEVICE_COMPILE__|__AMDGCN__|__gfx\w+__|USE_ROCM|USE_HIP|\w+_USE_HIP|\w+_USE_ROCM)\s*\)?\s*$`)

// notAMDCondition matches the opposite test, whose #else branch is AMD's:
// `#ifndef USE_ROCM`, `#if !defined(__HIP_PLATFORM_AMD__)`.
var notAMDCondition = regexp.MustCompile(`^#\s*(ifndef\s+|if\s+!\s*(defined\s*\(?\s*)?)(__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP__|__HIP_DEVICE_COMPILE__|__AMDGCN__|USE_ROCM|USE_HIP|\w+_USE_HIP|\w+_USE_ROCM)\s*\)?\s*$`)

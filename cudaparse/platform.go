package cudaparse

import (
	"bytes"
	"regexp"

	"github.com/lazylint/lazylint/cudaparse/syntax"
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
	for _, t := range syntax.Lex(src) {
		switch t.Kind {
		case syntax.TokIdent:
			switch platformOf(src[t.Start:t.End]) {
			case platformCUDA:
				return false
			case platformHIP:
				hip = true
			}
		case syntax.TokDirective:
			d := src[t.Start:t.End]
			if syntax.DirectiveName(d) == "include" {
				switch {
				case hipHeader.Match(d):
					hip = true
				case cudaHeader.Match(d):
					return false
				}
				continue
			}
			for _, word := range syntax.DirectiveWords(d) {
				switch platformOf(word) {
				case platformCUDA:
					return false
				case platformHIP:
					hip = true
				}
				// A build switch for CUDA (`#ifdef USE_CUDA`,
				// AMREX_USE_CUDA, HAVE_CUDA): the file has a CUDA build.
				if cudaSwitch.Match(word) {
					return false
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
		if at := i + k; at == 0 || !syntax.IsIdentByte(src[at-1]) {
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
	hipName    = regexp.MustCompile(`^(hip[A-Z]\w*|__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP_DEVICE_COMPILE__|__builtin_amdgcn_\w+|__AMDGCN__)$`)
	cudaName   = regexp.MustCompile(`^(cuda[A-Z]\w*|cu[A-Z][a-z]\w*|CU[a-z]\w*|CUDA_\w+|CUresult|__nv_\w+|nvcuda|__NVCC__|__CUDACC__|__HIP_PLATFORM_NVIDIA__|__HIP_PLATFORM_NVCC__)$`)
	hipHeader  = regexp.MustCompile(`[<"]hip/`)
	cudaSwitch = regexp.MustCompile(`(^|_)CUDA(_|$)`)
	cudaHeader = regexp.MustCompile(`[<"/](cuda|cuda_runtime|cuda_runtime_api|cuda_fp16|cuda_bf16|cooperative_groups|cub/|thrust/|cuda/)`)
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

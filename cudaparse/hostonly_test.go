package cudaparse

import (
	"strings"
	"testing"
)

// hostOnlyRangesOf marks the branches only a build without a GPU takes;
// each case marks them with "HOST" and the others with "GPU" or "ANY".
func TestHostOnlyRanges(t *testing.T) {
	cases := []string{
		"#ifndef AMREX_USE_GPU\nHOST\n#else\nGPU\n#endif\n",
		"#ifdef KOKKOS_ENABLE_CUDA\nGPU\n#else\nHOST\n#endif\n",
		"#if !defined(__CUDACC__)\nHOST\n#endif\nANY\n",
		"#if defined(USE_CUDA)\nGPU\n#elif defined(USE_SYCL)\nANY\n#else\nANY\n#endif\n",
		"#ifndef USE_GPU\nHOST\n#elif X\nANY\n#endif\n",
		"#ifdef USE_MPI\nANY\n#else\nANY\n#endif\n",
		"#ifdef __CUDACC__\n#ifdef USE_MPI\nGPU\n#else\nGPU\n#endif\n#else\nHOST\n#ifndef X\nHOST\n#endif\n#endif\nANY\n",
		"#ifndef AMREX_USE_GPU\nANY\n", // never closed: not known
		"ANY\n#else\nANY\n#endif\n",
	}
	for _, src := range cases {
		rs := hostOnlyRangesOf([]byte(src))
		for _, word := range []string{"HOST", "GPU", "ANY"} {
			for i := 0; ; {
				k := strings.Index(src[i:], word)
				if k < 0 {
					break
				}
				at := i + k
				i = at + len(word)
				if got, want := inRanges(rs, at), word == "HOST"; got != want {
					t.Errorf("%q: %s at %d in a host-only range = %v, want %v", src, word, at, got, want)
				}
			}
		}
	}
}

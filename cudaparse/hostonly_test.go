package cudaparse

import (
	"slices"
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

// The cheap test before lexing a file for host-only spans never skips a
// file that has some: on every fixture and example, and on directives
// spelled across continuation lines.
func TestTestsGPUMacroKeepsEveryHostOnlyFile(t *testing.T) {
	with := 0
	eachSourceFixture(t, func(path string, src []byte) {
		if len(hostOnlyRangesLexed(src)) > 0 {
			with++
			if !testsGPUMacro(src) {
				t.Errorf("%s: has host-only spans, but the cheap test skips it", path)
			}
		}
	})
	if with == 0 {
		t.Error("no fixture has a host-only span: the test tests nothing")
	}
	for src, want := range map[string]bool{
		"#ifndef AMREX_USE_GPU\nf();\n#endif\n":                            true,
		"#if defined(FOO) && \\\n    !defined(__CUDACC__)\nf();\n#endif\n": true,
		"#  ifdef USE_HIP\n#endif\n":                                       true,
		"#ifndef FOO_H\n#define FOO_H\n#endif\n":                           false,
		"#include <cuda.h>\n#define X 1\n":                                 false,
	} {
		if got := testsGPUMacro([]byte(src)); got != want {
			t.Errorf("testsGPUMacro(%q) = %v, want %v", src, got, want)
		}
	}
}

// A call built only without a GPU is no step of a summary, from a parse
// (InHostOnlyBuild) and from the text alike.
func TestSummariesLeaveOutHostOnlyCalls(t *testing.T) {
	src := `void advance(float *q, int n) {
#ifndef SOLVER_USE_GPU
  cpu_reconstruct(q, n);
#else
  gpu_reconstruct(q, n);
#endif
}
`
	calls := func(sum *FileSummary) []string {
		var out []string
		for _, fn := range sum.Functions {
			for _, st := range fn.Steps {
				if st.Kind == StepCall {
					out = append(out, st.Callee)
				}
			}
		}
		return out
	}
	want := []string{"gpu_reconstruct"}
	if got := calls(parse(t, src).Summary()); !slices.Equal(got, want) {
		t.Errorf("parsed: calls %v, want %v", got, want)
	}
	if got := calls(LexicalSummary("advance.cpp", []byte(src), nil, nil)); !slices.Equal(got, want) {
		t.Errorf("from the text: calls %v, want %v", got, want)
	}
}

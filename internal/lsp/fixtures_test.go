package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hazardCU gives LL001 on line 7 (0-based 6), after a comment with a
// two-byte character (µ) and one outside the BMP (🚀): the call starts at
// code point 13, UTF-16 unit 14 and byte 17 of the line, so a server that
// counts code points or bytes gets the range wrong.
const hazardCU = `#include <cuda_runtime.h>
__global__ void fill(int *p) { p[threadIdx.x] = 1; }
int main() {
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  void *arena = nullptr;
  /* µs 🚀 */ cudaMalloc(&arena, free_bytes - (4 << 20));
  fill<<<1, 32>>>((int *)arena);
  return 0;
}
`

// hazardRange is where LL001's diagnostic must be in hazardCU: the callee
// cudaMalloc, in UTF-16 code units.
var hazardRange = lspRange{Start: position{Line: 6, Character: 14}, End: position{Line: 6, Character: 24}}

// fixedCU is hazardCU leaving headroom: no finding.
var fixedCU = strings.Replace(hazardCU, "free_bytes - (4 << 20)", "free_bytes / 2", 1)

// modeC gives LL006 on line 4, with a suggested fix (cuInit before).
const modeC = `#include <cuda.h>
int lazy(void) {
  CUmoduleLoadingMode mode;
  if (cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS) return -1;
  return mode == CU_MODULE_LAZY_LOADING;
}
`

// timedCU gives LL002 on line 8, with a suggested fix (preload before
// the timer).
const timedCU = `#include <cuda_runtime.h>
__global__ void scale(float *p) { p[threadIdx.x] *= 2.0f; }
float run(float *p) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  scale<<<1, 256>>>(p);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}
`

// modeGo is a cgo file: LL001 in its preamble (line 13, a // comment
// line, checked by the C rules) and LL006 in Go code (line 20, by the
// analyzers, with a suggested fix).
const modeGo = `package gopkg

// #include <stddef.h>
// typedef int CUresult;
// typedef int CUmoduleLoadingMode;
// static CUresult cuInit(unsigned int flags) { return 0; }
// static CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) { *mode = 1; return 0; }
// static int cudaMemGetInfo(size_t *f, size_t *t) { return 0; }
// static int cudaMalloc(void **p, size_t n) { return 0; }
// static void *grab(void) {
//   size_t free_b, total_b;
//   cudaMemGetInfo(&free_b, &total_b);
//   void *p; cudaMalloc(&p, free_b);
//   return p;
// }
import "C"

func Mode() C.CUmoduleLoadingMode {
	var mode C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&mode)
	return mode
}
`

// workspace writes the fixtures into a new folder and returns it. The
// editor's text of an open file is what is checked; for a Go file the
// others of its folder are read from disk.
func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"src/hazard.cu":  hazardCU,
		"src/mode.c":     modeC,
		"src/timed.cu":   timedCU,
		"gopkg/mode.go":  modeGo,
		"gopkg/other.go": "package gopkg\n\nfunc Other() {}\n",
		"notes.txt":      hazardCU,
		"script.py":      "# cudaMalloc(&arena, free_bytes)\nprint('hi')\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

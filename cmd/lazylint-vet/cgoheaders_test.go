package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/cgoheaders"
)

// TestGoVetWithCgoHeaders is the README's route for machines without the
// CUDA toolkit (this one has none): a cgo package that includes the real
// header names (<cuda.h>, <cuda_runtime.h>, <nvml.h>) and calls the
// unversioned functions the real headers map to _v2 names, type-checked by
// go vet against the headers `lazylint cgo-headers` writes. Without them go
// vet stops at the missing cuda.h; with them every analyzer's finding shows.
func TestGoVetWithCgoHeaders(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go vet")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("cgo needs a C compiler")
	}
	dir, tool := buildVetTool(t)
	include := filepath.Join(dir, "cuda-stubs")
	if _, err := cgoheaders.Write(include); err != nil {
		t.Fatal(err)
	}
	mod := writeModule(t, dir, map[string]string{
		"m.go": `package m

/*
#cgo LDFLAGS: -lcuda -lcudart -lnvidia-ml
#include <stdlib.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvml.h>
*/
import "C"

import (
	"fmt"
	"os"
	"time"
	"unsafe"
)

func Arena() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free)
	return p
}

func Mode() C.CUmoduleLoadingMode {
	var m C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&m)
	return m
}

func Late() {
	C.cuInit(0)
	os.Setenv("CUDA_MODULE_LOADING", "EAGER")
}

func Footprint(path *C.char) {
	var before, after, total C.size_t
	var mod C.CUmodule
	C.cuMemGetInfo(&before, &total)
	C.cuModuleLoad(&mod, path)
	C.cuMemGetInfo(&after, &total)
	fmt.Println("module takes", before-after)
}

func TimedLaunch(kernel unsafe.Pointer, s C.cudaStream_t) time.Duration {
	grid := C.dim3{x: 1, y: 1, z: 1}
	block := C.dim3{x: 32, y: 1, z: 1}
	start := time.Now()
	C.cudaLaunchKernel(kernel, grid, block, nil, 0, s)
	C.cudaDeviceSynchronize()
	return time.Since(start)
}

func Names() {
	var n C.uint
	var d C.nvmlDevice_t
	var mem C.nvmlMemory_t
	C.nvmlInit()
	C.nvmlDeviceGetCount(&n)
	C.nvmlDeviceGetHandleByIndex(0, &d)
	C.nvmlDeviceGetMemoryInfo(d, &mem)
	var ev C.cudaEvent_t
	C.cudaEventCreate(&ev)
	var e C.cudaError_t = C.cudaGetLastError()
	if e != C.cudaSuccess {
		fmt.Println(C.GoString(C.cudaGetErrorString(e)))
	}
	var r C.CUresult = C.CUDA_ERROR_NOT_INITIALIZED
	_ = r
	var ptr C.CUdeviceptr
	C.cuMemAlloc(&ptr, 1<<20)
	C.cuMemFree(ptr)
}
`,
	})
	vet := func(cflags string) string {
		cmd := exec.Command("go", "vet", "-vettool="+tool, "./...")
		cmd.Dir = mod
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1", "CGO_CFLAGS="+cflags)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	// This machine has no CUDA: without the headers, the type check fails
	// before any analyzer (the failure the headers are for). Skip that half
	// where a real cuda.h is installed.
	if _, err := os.Stat("/usr/local/cuda/include/cuda.h"); err != nil {
		if out := vet(""); !strings.Contains(out, "cuda.h") || strings.Contains(out, "LL0") {
			t.Errorf("go vet without headers: want the missing cuda.h and no finding, got:\n%s", out)
		}
	}
	out := vet("-I" + include)
	for _, want := range []string{
		"m.go:23:2: LL001 cudaMalloc takes 100% of the free memory",
		"m.go:29:2: LL006 cuModuleGetLoadingMode before cuInit",
		"m.go:35:2: LL007 CUDA_MODULE_LOADING is set after CUDA was initialized",
		"m.go:42:2: LL004 device memory is measured around cuModuleLoad",
		"m.go:51:2: LL002 the first launch of kernel in this function is timed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("go vet with CGO_CFLAGS=-I<cgo-headers>: no %q in:\n%s", want, out)
		}
	}
}

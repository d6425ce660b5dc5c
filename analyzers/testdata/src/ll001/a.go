package ll001

/*
#include <stddef.h>
typedef int cudaError_t;
typedef unsigned long long CUdeviceptr;
static cudaError_t cudaMemGetInfo(size_t *f, size_t *t) { return 0; }
static cudaError_t cudaMalloc(void **p, size_t n) { return 0; }
static int cuMemGetInfo(size_t *f, size_t *t) { return 0; }
static int cuMemAlloc(CUdeviceptr *p, size_t n) { return 0; }
*/
import "C"

import "unsafe"

const headroom = 1 << 30

func AllFree() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free) // want `^LL001 cudaMalloc takes 100% of the free memory`
	return p
}

func Fraction() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	size := C.size_t(float64(free) * 0.95)
	var p unsafe.Pointer
	C.cudaMalloc(&p, size) // want `LL001 cudaMalloc takes 95% of the free memory`
	return p
}

func TotalNineTenths() C.CUdeviceptr {
	var free, total C.size_t
	C.cuMemGetInfo(&free, &total)
	var d C.CUdeviceptr
	C.cuMemAlloc(&d, total/10*9) // want `LL001 cuMemAlloc takes 90% of the total memory`
	return d
}

func SmallHeadroom() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	free -= 64 << 20
	var p unsafe.Pointer
	C.cudaMalloc(&p, free) // want `LL001`
	return p
}

func Half() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free/2) // ok: half of free memory
	return p
}

func BigHeadroom() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free-headroom) // ok: 1 GiB left
	return p
}

func Fixed() unsafe.Pointer {
	var p unsafe.Pointer
	C.cudaMalloc(&p, 64<<20) // ok: a fixed size
	return p
}

func freeBytes() C.size_t {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	return free
}

func deviceAlloc(n C.size_t) unsafe.Pointer {
	var p unsafe.Pointer
	C.cudaMalloc(&p, n) // ok: a wrapper; its callers are judged
	return p
}

type arena struct{ base unsafe.Pointer }

func (a *arena) reserveMost() {
	a.base = deviceAlloc(freeBytes() * 97 / 100) // want `LL001 deviceAlloc takes 97% of the free memory`
}

func (a *arena) reserveSome() {
	a.base = deviceAlloc(freeBytes() / 4) // ok: a quarter of free memory
}

func throughHelper() unsafe.Pointer {
	var p unsafe.Pointer
	C.cudaMalloc(&p, C.size_t(float64(freeBytes())*0.99)) // want `LL001 cudaMalloc takes 99%`
	return p
}

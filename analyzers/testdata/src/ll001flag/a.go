package ll001flag

/*
#include <stddef.h>
typedef int cudaError_t;
static cudaError_t cudaMemGetInfo(size_t *f, size_t *t) { return 0; }
static cudaError_t cudaMalloc(void **p, size_t n) { return 0; }
static cudaError_t cudaMallocAsync(void **p, size_t n, void *stream) { return 0; }
*/
import "C"

import "unsafe"

// Run with -threshold=0.7: three quarters of free memory is reported.
func ThreeQuarters() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free/4*3) // want `LL001 cudaMalloc takes 75% of the free memory`
	return p
}

// A stream-ordered allocation takes memory like any other.
func AsyncAll(stream unsafe.Pointer) unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMallocAsync(&p, free, stream) // want `LL001 cudaMallocAsync takes 100% of the free memory`
	return p
}

// Half is below 0.7.
func Half() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free/2) // ok: half of free memory
	return p
}

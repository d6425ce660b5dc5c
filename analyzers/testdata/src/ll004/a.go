package ll004

/*
#include <stddef.h>
typedef int CUresult;
typedef void *CUmodule;
typedef void *CUfunction;
static CUresult cuMemGetInfo(size_t *f, size_t *t) { return 0; }
static CUresult cuModuleLoad(CUmodule *m, const char *p) { return 0; }
static CUresult cuModuleLoadData(CUmodule *m, const void *img) { return 0; }
static CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *n) { return 0; }
*/
import "C"

import (
	"time"
	"unsafe"
)

func Footprint(path *C.char) uint64 {
	var before, after, total C.size_t
	C.cuMemGetInfo(&before, &total)
	var m C.CUmodule
	C.cuModuleLoad(&m, path) // want `^LL004 device memory is measured around cuModuleLoad`
	C.cuMemGetInfo(&after, &total)
	return uint64(before - after)
}

func FootprintResolved(path, name *C.char) uint64 {
	var before, after, total C.size_t
	C.cuMemGetInfo(&before, &total)
	var m C.CUmodule
	C.cuModuleLoad(&m, path) // ok: the kernel is resolved before measuring again
	var f C.CUfunction
	C.cuModuleGetFunction(&f, m, name)
	C.cuMemGetInfo(&after, &total)
	return uint64(before - after)
}

func LoadTime(image unsafe.Pointer) time.Duration {
	start := time.Now()
	var m C.CUmodule
	C.cuModuleLoadData(&m, image) // want `LL004 cuModuleLoadData is timed`
	return time.Since(start)
}

func JustLoad(path *C.char) C.CUmodule {
	var m C.CUmodule
	C.cuModuleLoad(&m, path) // ok: nothing measured
	return m
}

type registry struct{ mods []C.CUmodule }

func (r *registry) Add(image unsafe.Pointer) uint64 {
	var before, after, total C.size_t
	C.cuMemGetInfo(&before, &total)
	var m C.CUmodule
	C.cuModuleLoadData(&m, image) // want `LL004 device memory is measured around cuModuleLoadData`
	C.cuMemGetInfo(&after, &total)
	r.mods = append(r.mods, m)
	return uint64(before - after)
}

package ll005

/*
typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUlib_st *CUlibrary;
static CUresult cuCtxSetCurrent(CUcontext c) { return 0; }
static CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { return 0; }
static CUresult cuModuleLoadData(CUmodule *m, const void *image) { return 0; }
static CUresult cuModuleUnload(CUmodule m) { return 0; }
static CUresult cuLibraryLoadData(CUlibrary *l, const void *image, void *a, void *b, unsigned n, void *c, void *d, unsigned k) { return 0; }
static int cudaSetDevice(int d) { return 0; }
*/
import "C"

import "unsafe"

func everyContext(ctxs []C.CUcontext, image unsafe.Pointer) []C.CUmodule {
	mods := make([]C.CUmodule, len(ctxs))
	for i := range ctxs {
		C.cuCtxSetCurrent(ctxs[i])
		C.cuModuleLoadData(&mods[i], image) // want `^LL005 the same module is loaded into each context by hand \(cuModuleLoadData in a loop that switches with cuCtxSetCurrent\)`
	}
	return mods
}

func everyDevice(n int, image unsafe.Pointer) {
	for dev := 0; dev < n; dev++ {
		var ctx C.CUcontext
		C.cuDevicePrimaryCtxRetain(&ctx, C.CUdevice(dev))
		C.cuCtxSetCurrent(ctx)
		var m C.CUmodule
		C.cuModuleLoadData(&m, image) // want `LL005 the same module`
	}
}

func imagePerDevice(images []unsafe.Pointer) {
	for dev, img := range images {
		C.cudaSetDevice(C.int(dev))
		var m C.CUmodule
		C.cuModuleLoadData(&m, img) // ok: a different image per device
	}
}

func sameContext(ctx C.CUcontext, image unsafe.Pointer, tries int) {
	for i := 0; i < tries; i++ {
		C.cuCtxSetCurrent(ctx)
		var m C.CUmodule
		if C.cuModuleLoadData(&m, image) == 0 { // ok: the context does not change (a retry)
			break
		}
	}
}

func onlyFirst(ctxs []C.CUcontext, image unsafe.Pointer) {
	for i, c := range ctxs {
		C.cuCtxSetCurrent(c)
		if i == 0 {
			var m C.CUmodule
			C.cuModuleLoadData(&m, image) // ok: one chosen context
		}
	}
}

func selfTest(ctxs []C.CUcontext, image unsafe.Pointer) {
	for _, c := range ctxs {
		C.cuCtxSetCurrent(c)
		var m C.CUmodule
		C.cuModuleLoadData(&m, image) // ok: unloaded again in the same iteration
		C.cuModuleUnload(m)
	}
}

func withLibrary(ctxs []C.CUcontext, image unsafe.Pointer, modern bool) {
	if modern {
		var l C.CUlibrary
		C.cuLibraryLoadData(&l, image, nil, nil, 0, nil, nil, 0)
		return
	}
	for _, c := range ctxs {
		C.cuCtxSetCurrent(c)
		var m C.CUmodule
		C.cuModuleLoadData(&m, image) // ok: the fallback of a library load
	}
}

type device struct{ ctx C.CUcontext }

func (d *device) use() { C.cuCtxSetCurrent(d.ctx) }

func (d *device) load(image unsafe.Pointer) C.CUmodule {
	var m C.CUmodule
	C.cuModuleLoadData(&m, image)
	return m
}

func throughMethods(devs []device, image unsafe.Pointer) {
	for i := range devs {
		d := &devs[i]
		d.use()
		d.load(image) // want `LL005 the same module is loaded into each context by hand \(d.load \(cuModuleLoadData\) in a loop that switches with d.use\)`
	}
}

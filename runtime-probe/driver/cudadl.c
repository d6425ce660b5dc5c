// dlopen-based access to the CUDA driver; see cuda.go.
#include "cudadl.h"


// The entry points, resolved by ll_open. Optional ones stay NULL when the
// driver is too old to export them.
struct ll_cuda {
	void *handle;
	CUresult (*cuInit)(unsigned int);
	CUresult (*cuDriverGetVersion)(int *);
	CUresult (*cuDeviceGetCount)(int *);
	CUresult (*cuDeviceGet)(CUdevice *, int);
	CUresult (*cuDeviceGetName)(char *, int, CUdevice);
	CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
	CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
	CUresult (*cuGetErrorName)(CUresult, const char **);
	CUresult (*cuGetErrorString)(CUresult, const char **);
	CUresult (*cuModuleGetLoadingMode)(int *);
	CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
	CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
	CUresult (*cuCtxSetCurrent)(CUcontext);
	CUresult (*cuCtxSynchronize)(void);
	CUresult (*cuMemGetInfo)(size_t *, size_t *);
	CUresult (*cuLibraryLoadData)(CUlibrary *, const void *, void *, void **, unsigned int, void *, void **, unsigned int);
	CUresult (*cuLibraryUnload)(CUlibrary);
	CUresult (*cuLibraryGetKernelCount)(unsigned int *, CUlibrary);
	CUresult (*cuLibraryEnumerateKernels)(CUkernel *, unsigned int, CUlibrary);
	CUresult (*cuKernelGetName)(const char **, CUkernel);
	CUresult (*cuKernelGetFunction)(CUfunction *, CUkernel);
	CUresult (*cuModuleLoadData)(CUmodule *, const void *);
	CUresult (*cuModuleUnload)(CUmodule);
	CUresult (*cuModuleGetFunctionCount)(unsigned int *, CUmodule);
	CUresult (*cuModuleEnumerateFunctions)(CUfunction *, unsigned int, CUmodule);
	CUresult (*cuFuncGetName)(const char **, CUfunction);
	CUresult (*cuFuncIsLoaded)(int *, CUfunction);
	CUresult (*cuFuncLoad)(CUfunction);
};

// ll_open loads the library at path and resolves its entry points. It
// returns NULL and sets *err (or from dlerror) when the library or a
// required entry point is missing.
ll_cuda *ll_open(const char *path, const char **err, const char **missing) {
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) { *err = dlerror(); return NULL; }
	ll_cuda *c = calloc(1, sizeof *c);
	if (!c) { dlclose(h); *err = "out of memory"; return NULL; }
	c->handle = h;
#define REQUIRED(field, sym) \
	if (!(*(void **)&c->field = dlsym(h, sym))) { *missing = sym; dlclose(h); free(c); return NULL; }
#define OPTIONAL(field, sym) *(void **)&c->field = dlsym(h, sym);
	REQUIRED(cuInit, "cuInit")
	REQUIRED(cuDriverGetVersion, "cuDriverGetVersion")
	REQUIRED(cuDeviceGetCount, "cuDeviceGetCount")
	REQUIRED(cuDeviceGet, "cuDeviceGet")
	REQUIRED(cuDeviceGetName, "cuDeviceGetName")
	REQUIRED(cuDeviceTotalMem, "cuDeviceTotalMem_v2")
	REQUIRED(cuDeviceGetAttribute, "cuDeviceGetAttribute")
	REQUIRED(cuGetErrorName, "cuGetErrorName")
	REQUIRED(cuGetErrorString, "cuGetErrorString")
	REQUIRED(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
	REQUIRED(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
	REQUIRED(cuCtxSetCurrent, "cuCtxSetCurrent")
	REQUIRED(cuCtxSynchronize, "cuCtxSynchronize")
	REQUIRED(cuMemGetInfo, "cuMemGetInfo_v2")
	OPTIONAL(cuModuleGetLoadingMode, "cuModuleGetLoadingMode")
	OPTIONAL(cuLibraryLoadData, "cuLibraryLoadData")
	OPTIONAL(cuLibraryUnload, "cuLibraryUnload")
	OPTIONAL(cuLibraryGetKernelCount, "cuLibraryGetKernelCount")
	OPTIONAL(cuLibraryEnumerateKernels, "cuLibraryEnumerateKernels")
	OPTIONAL(cuKernelGetName, "cuKernelGetName")
	OPTIONAL(cuKernelGetFunction, "cuKernelGetFunction")
	OPTIONAL(cuModuleLoadData, "cuModuleLoadData")
	OPTIONAL(cuModuleUnload, "cuModuleUnload")
	OPTIONAL(cuModuleGetFunctionCount, "cuModuleGetFunctionCount")
	OPTIONAL(cuModuleEnumerateFunctions, "cuModuleEnumerateFunctions")
	OPTIONAL(cuFuncGetName, "cuFuncGetName")
	OPTIONAL(cuFuncIsLoaded, "cuFuncIsLoaded")
	OPTIONAL(cuFuncLoad, "cuFuncLoad")
#undef REQUIRED
#undef OPTIONAL
	return c;
}

void ll_close(ll_cuda *c) { dlclose(c->handle); free(c); }

// Thin call-throughs: cgo cannot call C function pointers directly.
CUresult ll_init(ll_cuda *c) { return c->cuInit(0); }
CUresult ll_driver_version(ll_cuda *c, int *v) { return c->cuDriverGetVersion(v); }
CUresult ll_device_count(ll_cuda *c, int *n) { return c->cuDeviceGetCount(n); }
CUresult ll_device_get(ll_cuda *c, CUdevice *d, int i) { return c->cuDeviceGet(d, i); }
CUresult ll_device_name(ll_cuda *c, char *buf, int n, CUdevice d) { return c->cuDeviceGetName(buf, n, d); }
CUresult ll_device_total_mem(ll_cuda *c, size_t *b, CUdevice d) { return c->cuDeviceTotalMem(b, d); }
CUresult ll_device_attribute(ll_cuda *c, int *v, int a, CUdevice d) { return c->cuDeviceGetAttribute(v, a, d); }
const char *ll_error_name(ll_cuda *c, CUresult r) {
	const char *s = NULL;
	if (c->cuGetErrorName(r, &s) != 0 || !s) return "";
	return s;
}
const char *ll_error_string(ll_cuda *c, CUresult r) {
	const char *s = NULL;
	if (c->cuGetErrorString(r, &s) != 0 || !s) return "";
	return s;
}
int ll_has_loading_mode(ll_cuda *c) { return c->cuModuleGetLoadingMode != NULL; }
CUresult ll_loading_mode(ll_cuda *c, int *m) { return c->cuModuleGetLoadingMode(m); }
CUresult ll_ctx_retain(ll_cuda *c, CUcontext *ctx, CUdevice d) { return c->cuDevicePrimaryCtxRetain(ctx, d); }
CUresult ll_ctx_release(ll_cuda *c, CUdevice d) { return c->cuDevicePrimaryCtxRelease(d); }
CUresult ll_ctx_set(ll_cuda *c, CUcontext ctx) { return c->cuCtxSetCurrent(ctx); }
CUresult ll_ctx_sync(ll_cuda *c) { return c->cuCtxSynchronize(); }
CUresult ll_mem_info(ll_cuda *c, size_t *f, size_t *t) { return c->cuMemGetInfo(f, t); }

int ll_has_library(ll_cuda *c) {
	return c->cuLibraryLoadData && c->cuLibraryUnload && c->cuLibraryGetKernelCount &&
		c->cuLibraryEnumerateKernels && c->cuKernelGetName && c->cuKernelGetFunction;
}
CUresult ll_library_load(ll_cuda *c, CUlibrary *lib, const void *image) {
	return c->cuLibraryLoadData(lib, image, NULL, NULL, 0, NULL, NULL, 0);
}
CUresult ll_library_unload(ll_cuda *c, CUlibrary lib) { return c->cuLibraryUnload(lib); }
CUresult ll_library_kernel_count(ll_cuda *c, unsigned int *n, CUlibrary lib) { return c->cuLibraryGetKernelCount(n, lib); }
CUresult ll_library_kernels(ll_cuda *c, CUkernel *ks, unsigned int n, CUlibrary lib) { return c->cuLibraryEnumerateKernels(ks, n, lib); }
CUresult ll_kernel_name(ll_cuda *c, const char **name, CUkernel k) { return c->cuKernelGetName(name, k); }
CUresult ll_kernel_function(ll_cuda *c, CUfunction *f, CUkernel k) { return c->cuKernelGetFunction(f, k); }

int ll_has_module_enum(ll_cuda *c) {
	return c->cuModuleLoadData && c->cuModuleUnload && c->cuModuleGetFunctionCount &&
		c->cuModuleEnumerateFunctions && c->cuFuncGetName;
}
CUresult ll_module_load(ll_cuda *c, CUmodule *m, const void *image) { return c->cuModuleLoadData(m, image); }
CUresult ll_module_unload(ll_cuda *c, CUmodule m) { return c->cuModuleUnload(m); }
CUresult ll_module_function_count(ll_cuda *c, unsigned int *n, CUmodule m) { return c->cuModuleGetFunctionCount(n, m); }
CUresult ll_module_functions(ll_cuda *c, CUfunction *fs, unsigned int n, CUmodule m) { return c->cuModuleEnumerateFunctions(fs, n, m); }
CUresult ll_func_name(ll_cuda *c, const char **name, CUfunction f) { return c->cuFuncGetName(name, f); }

int ll_has_func_load(ll_cuda *c) { return c->cuFuncIsLoaded && c->cuFuncLoad; }
CUresult ll_func_is_loaded(ll_cuda *c, int *state, CUfunction f) { return c->cuFuncIsLoaded(state, f); }
CUresult ll_func_load(ll_cuda *c, CUfunction f) { return c->cuFuncLoad(f); }

// A stand-in for libcuda.so.1, for tests on machines without a GPU. It
// exports the entry points lazylint's probe resolves and models what the
// probe measures: one 80 GiB device, a loading mode read from
// CUDA_MODULE_LOADING at cuInit, and module images that are text files:
//
//   .version 8.0
//   .target sm_90
//   .fake_kernel NAME BYTES   a kernel whose code takes BYTES when loaded
//   .fake_data BYTES          module data, loaded with the first kernel
//
// Under lazy loading the image load takes nothing and each kernel is loaded
// by cuFuncLoad; under eager loading the image load takes everything.
// FAKE_CUDA_NO_DEVICE makes cuInit fail as on a machine without a GPU.
// Built with -DFAKE_NO_LIBRARY it lacks the cuLibrary* entry points, like a
// driver older than CUDA 12.0, so the probe falls back to cuModule*.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum {
	OK = 0,
	ERR_INVALID_VALUE = 1,
	ERR_OUT_OF_MEMORY = 2,
	ERR_NOT_INITIALIZED = 3,
	ERR_NO_DEVICE = 100,
	ERR_INVALID_IMAGE = 200,
};

static const size_t total_bytes = (size_t)80 << 30;
static size_t used_bytes;
static int initialized;
static int eager;

typedef struct fake_kernel {
	char name[64];
	size_t bytes;
	int loaded;
	struct fake_module *module;
} fake_kernel;

typedef struct fake_module {
	fake_kernel kernels[64];
	unsigned count;
	size_t data_bytes;
	int data_loaded;
} fake_module;

static CUresult take(size_t bytes) {
	if (used_bytes + bytes > total_bytes) return ERR_OUT_OF_MEMORY;
	used_bytes += bytes;
	return OK;
}

static CUresult load_kernel(fake_kernel *k) {
	if (k->loaded) return OK;
	size_t need = k->bytes + (k->module->data_loaded ? 0 : k->module->data_bytes);
	CUresult r = take(need);
	if (r != OK) return r;
	k->module->data_loaded = 1;
	k->loaded = 1;
	return OK;
}

static CUresult parse(fake_module **out, const void *image) {
	const char *text = image;
	if (!strstr(text, ".version") || !strstr(text, ".target")) return ERR_INVALID_IMAGE;
	fake_module *m = calloc(1, sizeof *m);
	for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		char name[64];
		unsigned long long bytes;
		if (sscanf(line, ".fake_kernel %63s %llu", name, &bytes) == 2 && m->count < 64) {
			fake_kernel *k = &m->kernels[m->count++];
			snprintf(k->name, sizeof k->name, "%s", name);
			k->bytes = bytes;
			k->module = m;
		} else if (sscanf(line, ".fake_data %llu", &bytes) == 1) {
			m->data_bytes = bytes;
		}
	}
	if (eager) {
		for (unsigned i = 0; i < m->count; i++) {
			CUresult r = load_kernel(&m->kernels[i]);
			if (r != OK) { free(m); return r; }
		}
	}
	*out = m;
	return OK;
}

CUresult cuInit(unsigned flags) {
	(void)flags;
	if (getenv("FAKE_CUDA_NO_DEVICE")) return ERR_NO_DEVICE;
	const char *mode = getenv("CUDA_MODULE_LOADING");
	eager = mode && strcmp(mode, "EAGER") == 0;
	initialized = 1;
	return OK;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return OK; }
CUresult cuDeviceGetCount(int *n) { if (!initialized) return ERR_NOT_INITIALIZED; *n = 1; return OK; }
CUresult cuDeviceGet(int *dev, int i) { if (!initialized) return ERR_NOT_INITIALIZED; if (i != 0) return ERR_INVALID_VALUE; *dev = 0; return OK; }
CUresult cuDeviceGetName(char *buf, int len, int dev) { (void)dev; snprintf(buf, len, "Fake GPU"); return OK; }
CUresult cuDeviceTotalMem_v2(size_t *b, int dev) { (void)dev; *b = total_bytes; return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, int dev) { (void)dev; *v = attr == 75 ? 9 : 0; return OK; }
CUresult cuGetErrorName(CUresult r, const char **s) {
	switch (r) {
	case ERR_OUT_OF_MEMORY: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return OK;
	case ERR_NOT_INITIALIZED: *s = "CUDA_ERROR_NOT_INITIALIZED"; return OK;
	case ERR_NO_DEVICE: *s = "CUDA_ERROR_NO_DEVICE"; return OK;
	case ERR_INVALID_IMAGE: *s = "CUDA_ERROR_INVALID_IMAGE"; return OK;
	case ERR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return OK;
	}
	return ERR_INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
	switch (r) {
	case ERR_OUT_OF_MEMORY: *s = "out of memory"; return OK;
	case ERR_NOT_INITIALIZED: *s = "initialization error"; return OK;
	case ERR_NO_DEVICE: *s = "no CUDA-capable device is detected"; return OK;
	case ERR_INVALID_IMAGE: *s = "device kernel image is invalid"; return OK;
	case ERR_INVALID_VALUE: *s = "invalid argument"; return OK;
	}
	return ERR_INVALID_VALUE;
}
CUresult cuModuleGetLoadingMode(int *mode) {
	if (!initialized) return ERR_NOT_INITIALIZED;
	*mode = eager ? 1 : 2;
	return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; if (!initialized) return ERR_NOT_INITIALIZED; *ctx = &used_bytes; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return OK; }
CUresult cuCtxSetCurrent(void *ctx) { (void)ctx; return OK; }
CUresult cuCtxSynchronize(void) { return OK; }
CUresult cuMemGetInfo_v2(size_t *free_b, size_t *total_b) {
	*free_b = total_bytes - used_bytes;
	*total_b = total_bytes;
	return OK;
}

#ifndef FAKE_NO_LIBRARY
CUresult cuLibraryLoadData(void **lib, const void *image, void *o, void **ov, unsigned n, void *lo, void **lov, unsigned ln) {
	(void)o; (void)ov; (void)n; (void)lo; (void)lov; (void)ln;
	return parse((fake_module **)lib, image);
}
CUresult cuLibraryUnload(void *lib) { free(lib); return OK; }
CUresult cuLibraryGetKernelCount(unsigned *n, void *lib) { *n = ((fake_module *)lib)->count; return OK; }
CUresult cuLibraryEnumerateKernels(void **ks, unsigned n, void *lib) {
	fake_module *m = lib;
	for (unsigned i = 0; i < n && i < m->count; i++) ks[i] = &m->kernels[i];
	return OK;
}
CUresult cuKernelGetName(const char **name, void *k) { *name = ((fake_kernel *)k)->name; return OK; }
CUresult cuKernelGetFunction(void **f, void *k) { *f = k; return OK; }
#endif

CUresult cuModuleLoadData(void **mod, const void *image) { return parse((fake_module **)mod, image); }
CUresult cuModuleUnload(void *mod) { free(mod); return OK; }
CUresult cuModuleGetFunctionCount(unsigned *n, void *mod) { *n = ((fake_module *)mod)->count; return OK; }
CUresult cuModuleEnumerateFunctions(void **fs, unsigned n, void *mod) {
	fake_module *m = mod;
	for (unsigned i = 0; i < n && i < m->count; i++) fs[i] = &m->kernels[i];
	return OK;
}
CUresult cuFuncGetName(const char **name, void *f) { *name = ((fake_kernel *)f)->name; return OK; }
CUresult cuFuncIsLoaded(int *state, void *f) { *state = ((fake_kernel *)f)->loaded; return OK; }
CUresult cuFuncLoad(void *f) { return load_kernel(f); }

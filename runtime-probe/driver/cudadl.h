// dlopen-based access to the CUDA driver: the few types and entry points a
// probe needs, declared here so that no CUDA header is needed to build.
#ifndef LAZYLINT_CUDADL_H
#define LAZYLINT_CUDADL_H
#include <dlfcn.h>
#include <stdlib.h>
#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUlibrary;
typedef void *CUkernel;
typedef void *CUfunction;
typedef void *CUmodule;

typedef struct ll_cuda ll_cuda;

ll_cuda *ll_open(const char *path, const char **err, const char **missing);
void ll_close(ll_cuda *c);
CUresult ll_init(ll_cuda *c);
CUresult ll_driver_version(ll_cuda *c, int *v);
CUresult ll_device_count(ll_cuda *c, int *n);
CUresult ll_device_get(ll_cuda *c, CUdevice *d, int i);
CUresult ll_device_name(ll_cuda *c, char *buf, int n, CUdevice d);
CUresult ll_device_total_mem(ll_cuda *c, size_t *b, CUdevice d);
CUresult ll_device_attribute(ll_cuda *c, int *v, int a, CUdevice d);
const char *ll_error_name(ll_cuda *c, CUresult r);
const char *ll_error_string(ll_cuda *c, CUresult r);
int ll_has_loading_mode(ll_cuda *c);
CUresult ll_loading_mode(ll_cuda *c, int *m);
CUresult ll_ctx_retain(ll_cuda *c, CUcontext *ctx, CUdevice d);
CUresult ll_ctx_release(ll_cuda *c, CUdevice d);
CUresult ll_ctx_set(ll_cuda *c, CUcontext ctx);
CUresult ll_ctx_sync(ll_cuda *c);
CUresult ll_mem_info(ll_cuda *c, size_t *f, size_t *t);
int ll_has_library(ll_cuda *c);
CUresult ll_library_load(ll_cuda *c, CUlibrary *lib, const void *image);
CUresult ll_library_unload(ll_cuda *c, CUlibrary lib);
CUresult ll_library_kernel_count(ll_cuda *c, unsigned int *n, CUlibrary lib);
CUresult ll_library_kernels(ll_cuda *c, CUkernel *ks, unsigned int n, CUlibrary lib);
CUresult ll_kernel_name(ll_cuda *c, const char **name, CUkernel k);
CUresult ll_kernel_function(ll_cuda *c, CUfunction *f, CUkernel k);
int ll_has_module_enum(ll_cuda *c);
CUresult ll_module_load(ll_cuda *c, CUmodule *m, const void *image);
CUresult ll_module_unload(ll_cuda *c, CUmodule m);
CUresult ll_module_function_count(ll_cuda *c, unsigned int *n, CUmodule m);
CUresult ll_module_functions(ll_cuda *c, CUfunction *fs, unsigned int n, CUmodule m);
CUresult ll_func_name(ll_cuda *c, const char **name, CUfunction f);
int ll_has_func_load(ll_cuda *c);
CUresult ll_func_is_loaded(ll_cuda *c, int *state, CUfunction f);
CUresult ll_func_load(ll_cuda *c, CUfunction f);

#endif

/* A C multi-context driver-API program. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                  \
  do {                                                               \
    CUresult r_ = (call);                                            \
    if (r_ != CUDA_SUCCESS) {                                        \
      fprintf(stderr, "%s:%d: error %d\n", __FILE__, __LINE__, r_); \
      exit(1);                                                       \
    }                                                                \
  } while (0)

typedef struct {
  CUcontext ctx;
  CUmodule mod;
  CUfunction scale;
} device_t;

static const char *g_cubin = "scale.cubin";

int create_contexts(device_t *devs, int n) {
  int ordinal = 0;
  while (ordinal < n) {
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, ordinal));
    CHECK(cuCtxCreate(&devs[ordinal].ctx, 0, dev));
    CHECK(cuModuleLoad(&devs[ordinal].mod, g_cubin)); /* want LL005 "cuModuleLoad in a loop that switches with cuCtxCreate" */
    CHECK(cuModuleGetFunction(&devs[ordinal].scale, devs[ordinal].mod, "scale"));
    CHECK(cuCtxPopCurrent(NULL));
    ordinal++;
  }
  return 0;
}

static int setup_one(device_t *d, const void *image) {
  CHECK(cuCtxPushCurrent(d->ctx));
  CHECK(cuModuleLoadData(&d->mod, image)); /* want LL005 "cuModuleLoadData through setup_one in a loop that switches with cuCtxPushCurrent" */
  CHECK(cuCtxPopCurrent(NULL));
  return 0;
}

int setup_all(device_t *devs, int n, const void *image) {
  int i;
  for (i = 0; i < n; i++) {
    if (setup_one(&devs[i], image) != 0) return -1;
  }
  return 0;
}

int reload_all(device_t *devs, int n, const void *image) {
  device_t *d = devs;
  device_t *end = devs + n;
  do {
    cuCtxSetCurrent(d->ctx);
    cuModuleUnload(d->mod);
    cuModuleLoadData(&d->mod, image); /* want LL005 "loaded into each context" */
    ++d;
  } while (d != end);
  return 0;
}

int load_images(device_t *devs, int n, const void **images) {
  int i;
  for (i = 0; i < n; i++) {
    const void *mine;
    cuCtxSetCurrent(devs[i].ctx);
    mine = images[i];
    cuModuleLoadData(&devs[i].mod, mine); /* ok: a different image per context */
  }
  return 0;
}

int load_once(CUcontext ctx, CUmodule *mod) {
  CHECK(cuCtxSetCurrent(ctx));
  CHECK(cuModuleLoad(mod, g_cubin)); /* ok: one load into one context */
  return 0;
}

int find_capable(device_t *devs, int n, const void *image) {
  int i, found = -1;
  for (i = 0; i < n; i++) {
    cuCtxSetCurrent(devs[i].ctx);
    if (cuModuleLoadData(&devs[i].mod, image) == CUDA_SUCCESS) { /* ok: stops at the first context that loads it */
      found = i;
      break;
    }
  }
  return found;
}

int ctx_per_module(CUcontext ctx, const char **cubins, CUmodule *mods, int n) {
  int i;
  for (i = 0; i < n; i++) {
    cuCtxSetCurrent(ctx);
    cuModuleLoad(&mods[i], cubins[i]); /* ok: one context, a different file each time */
  }
  return 0;
}

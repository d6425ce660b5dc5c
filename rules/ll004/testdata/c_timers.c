/* A C tool that loads kernel images and prints statistics. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define CU_SAFE(x)                                                   \
  do {                                                               \
    CUresult rc = (x);                                               \
    if (rc != CUDA_SUCCESS) {                                        \
      const char *msg;                                               \
      cuGetErrorString(rc, &msg);                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, msg);       \
      exit(1);                                                       \
    }                                                                \
  } while (0)

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double time_load_monotonic(CUmodule *mod, const char *path) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  CU_SAFE(cuModuleLoad(mod, path)); /* want LL004 "cuModuleLoad is timed as if it loaded the module" */
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
}

double time_load_tod(CUmodule *mod, const void *image) {
  struct timeval before, after;
  gettimeofday(&before, NULL);
  if (cuModuleLoadData(mod, image) != CUDA_SUCCESS) { /* want LL004 "cuModuleLoadData is timed" */
    return -1.0;
  }
  gettimeofday(&after, NULL);
  return (after.tv_sec - before.tv_sec) + (after.tv_usec - before.tv_usec) * 1e-6;
}

double time_load_clock(CUmodule *mod, const char *path) {
  clock_t c0 = clock();
  CU_SAFE(cuModuleLoad(mod, path)); /* want LL004 "reading the image" */
  clock_t c1 = clock();
  return (double)(c1 - c0) / CLOCKS_PER_SEC;
}

/* The file's own clock helper. */
double time_load_helper(CUmodule *mod, const char *path) {
  double t0 = wall_seconds();
  CU_SAFE(cuModuleLoad(mod, path)); /* want LL004 "cuModuleLoad is timed" */
  double t1 = wall_seconds();
  printf("load: %.3f ms\n", (t1 - t0) * 1e3);
  return t1 - t0;
}

/* Loads every image of a list inside one timed region. */
double time_all(CUmodule *mods, const char **paths, int n) {
  int i;
  double t0 = wall_seconds();
  for (i = 0; i < n; ++i) {
    CU_SAFE(cuModuleLoad(&mods[i], paths[i])); /* want LL004 "timed as if it loaded the module" */
  }
  return wall_seconds() - t0;
}

double time_load_and_get(CUmodule *mod, CUfunction *fn, const char *path) {
  double t0 = wall_seconds();
  CU_SAFE(cuModuleLoad(mod, path)); /* ok: resolving the entry point is timed too */
  CU_SAFE(cuModuleGetFunction(fn, *mod, "entry"));
  return wall_seconds() - t0;
}

double time_load_and_func_load(CUmodule *mod, CUfunction fn, const char *path) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  CU_SAFE(cuModuleLoad(mod, path)); /* ok: cuFuncLoad loads the kernel inside the region */
  CU_SAFE(cuFuncLoad(fn));
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) * 1e-9;
}

/* Timed: a host-to-device copy. The load comes after the timer stops. */
double time_copy(CUdeviceptr dst, const void *src, size_t n, CUmodule *mod, const char *path) {
  double t0 = wall_seconds();
  CU_SAFE(cuMemcpyHtoD(dst, src, n));
  double t1 = wall_seconds();
  CU_SAFE(cuModuleLoad(mod, path)); /* ok: after the measurement */
  return t1 - t0;
}

/* Memory use printed before and after a context is created, with the
   module loaded in the same window: the context dominates. */
size_t context_and_module(CUdevice dev, CUcontext *ctx, CUmodule *mod, const char *path) {
  size_t f0, f1, total;
  CU_SAFE(cuCtxCreate(ctx, 0, dev));
  CU_SAFE(cuMemGetInfo(&f0, &total));
  CU_SAFE(cuDevicePrimaryCtxRetain(ctx, dev));
  CU_SAFE(cuModuleLoad(mod, path)); /* ok: a context is created in the window */
  CU_SAFE(cuMemGetInfo(&f1, &total));
  return f0 - f1;
}

size_t module_bytes(CUmodule *mod, const char *path) {
  size_t f0, f1, total;
  CU_SAFE(cuMemGetInfo(&f0, &total));
  CU_SAFE(cuModuleLoad(mod, path)); /* want LL004 "device memory is measured around cuModuleLoad" */
  CU_SAFE(cuMemGetInfo(&f1, &total));
  return f0 - f1;
}

/* Functions meant to make modules resident. */
#include <cuda.h>

static CUmodule g_mods[4];

void preload_modules(const char **paths, int n) {
  for (int i = 0; i < n; ++i) {
    cuModuleLoad(&g_mods[i], paths[i]); /* want LL004 "preload_modules only loads the module" */
  }
}

void warmup_plugins(const void *image) {
  CUmodule m;
  cuModuleLoadData(&m, image); /* want LL004 "warmup_plugins only loads" */
}

void preload_and_resolve(const char *path) {
  CUmodule m;
  CUfunction f;
  cuModuleLoad(&m, path); /* ok: resolving the kernel loads it */
  cuModuleGetFunction(&f, m, "kernel");
}

void load_plugin(const char *path) {
  CUmodule m;
  cuModuleLoad(&m, path); /* ok: the name claims nothing about residency */
}

void make_resident(const void *image, CUfunction f) {
  CUmodule m;
  cuModuleLoadData(&m, image); /* ok: cuFuncLoad makes it resident */
  cuFuncLoad(f);
}

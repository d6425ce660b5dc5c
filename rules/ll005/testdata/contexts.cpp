// Loading one module into every context.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

#define CU_CHECK(x) do { if ((x) != CUDA_SUCCESS) return; } while (0)

void set_current_loop(std::vector<CUcontext> &ctxs, std::vector<CUmodule> &mods, const char *path) {
  for (size_t i = 0; i < ctxs.size(); ++i) {
    cuCtxSetCurrent(ctxs[i]);
    cuModuleLoad(&mods[i], path);  // want LL005 "loaded into each context by hand"
  }
}

void primary_contexts(int ndev, const void *image, CUmodule *mods) {
  for (int d = 0; d < ndev; ++d) {
    CUdevice dev;
    cuDeviceGet(&dev, d);
    CUcontext ctx;
    CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU_CHECK(cuCtxPushCurrent(ctx));
    CU_CHECK(cuModuleLoadData(&mods[d], image));  // want LL005 "cuLibraryLoadData"
    CU_CHECK(cuCtxPopCurrent(nullptr));
  }
}

void created_contexts(int ndev, const void *fatbin, CUmodule *mods, CUcontext *ctxs) {
  int d = 0;
  while (d < ndev) {
    cuCtxCreate(&ctxs[d], 0, d);
    cuModuleLoadFatBinary(&mods[d], fatbin);  // want LL005 "cuModuleLoadFatBinary in a loop that switches with cuCtxCreate"
    ++d;
  }
}

void runtime_devices(int ndev, const void *image, std::vector<CUmodule> &mods) {
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    CUmodule m;
    cuModuleLoadDataEx(&m, image, 0, nullptr, nullptr);  // want LL005 "cudaSetDevice"
    mods.push_back(m);
  }
}

void range_over_contexts(const std::vector<CUcontext> &ctxs, const char *path, std::vector<CUmodule> &out) {
  for (CUcontext c : ctxs) {
    cuCtxSetCurrent(c);
    CUmodule m;
    cuModuleLoad(&m, path);  // want LL005 "loaded into each context"
    out.push_back(m);
  }
}

static void load_here(const void *image, CUmodule *m) { cuModuleLoadData(m, image); }  // want LL005 "loaded into each context"

void through_helper(CUcontext *ctxs, int n, const void *image, CUmodule *mods) {
  for (int i = 0; i < n; ++i) {
    cuCtxSetCurrent(ctxs[i]);
    load_here(image, &mods[i]);
  }
}

void different_images(CUcontext *ctxs, const void **images, int n, CUmodule *mods) {
  for (int i = 0; i < n; ++i) {
    cuCtxSetCurrent(ctxs[i]);
    cuModuleLoadData(&mods[i], images[i]);  // ok: a different image per context
  }
}

void one_context(const char *path) {
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: a single load, no loop
}

void loop_without_switch(const char **paths, int n, CUmodule *mods) {
  for (int i = 0; i < n; ++i) {
    cuModuleLoad(&mods[i], paths[i]);  // ok: no context switch, different files
  }
}

void loop_same_file_no_switch(const char *path, int n, CUmodule *mods) {
  for (int i = 0; i < n; ++i) {
    cuModuleLoad(&mods[i], path);  // ok: no context switch in the loop
  }
}

void launches_per_device(int ndev, CUfunction *fns, void **params) {
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cuLaunchKernel(fns[d], 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr);  // ok: launches only, no load
  }
}

void library_once(const void *image, CUlibrary *lib, CUkernel *k) {
  cuLibraryLoadData(lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);  // ok: context-independent loading
  cuLibraryGetKernel(k, *lib, "entry");
}

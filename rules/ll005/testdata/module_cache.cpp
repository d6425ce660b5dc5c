// Per-device module caches filled the first time a device asks.
#include <cuda.h>
#include <vector>

extern const unsigned char kImage[];

struct Launcher {
  std::vector<CUcontext> contexts;
  std::vector<CUmodule> modules;
  std::vector<CUfunction> kernels;

  CUfunction kernel_for(int dev) {
    if (modules[dev] == nullptr) {
      cuCtxPushCurrent(contexts[dev]);
      cuModuleLoadData(&modules[dev], kImage);  // want LL005 "per-device module cache"
      cuModuleGetFunction(&kernels[dev], modules[dev], "scale");
      CUcontext popped;
      cuCtxPopCurrent(&popped);
    }
    return kernels[dev];
  }
};

CUmodule g_by_device[8];

CUmodule module_for(int device, CUcontext ctx) {
  if (!g_by_device[device]) {
    cuCtxSetCurrent(ctx);
    cuModuleLoadData(&g_by_device[device], kImage);  // want LL005 "cuModuleLoadData fills a per-device module cache"
  }
  return g_by_device[device];
}

extern const unsigned char *kImageFor[8];

CUmodule variant_for(int device, CUcontext ctx) {
  if (!g_by_device[device]) {
    cuCtxSetCurrent(ctx);
    cuModuleLoadData(&g_by_device[device], kImageFor[device]);  // ok: a different image per device
  }
  return g_by_device[device];
}

CUmodule g_single;

CUmodule load_once(CUcontext ctx) {
  if (!g_single) {
    cuCtxSetCurrent(ctx);
    cuModuleLoadData(&g_single, kImage);  // ok: one module, not one per device
  }
  return g_single;
}

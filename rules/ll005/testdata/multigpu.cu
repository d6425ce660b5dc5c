// Multi-GPU setup code.
#include <cuda.h>
#include <cuda_runtime.h>

struct DeviceState {
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
};

class MultiGpu {
 public:
  void init(const void *image, int n) {
    for (int d = 0; d < n; ++d) {
      cudaSetDevice(d);
      cuCtxGetCurrent(&state_[d].ctx);
      cuModuleLoadData(&state_[d].mod, image);  // want LL005 "loaded into each context"
      cuModuleGetFunction(&state_[d].fn, state_[d].mod, "entry");
    }
  }
  void init_per_arch(const void **images_by_device, int n) {
    for (int d = 0; d < n; ++d) {
      cudaSetDevice(d);
      cuModuleLoadData(&state_[d].mod, images_by_device[d]);  // ok: each device gets its own image
    }
  }

 private:
  DeviceState state_[8];
};

__global__ void fill(float *p) { p[threadIdx.x] = 0; }

void runtime_only(int n, float **bufs) {
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    fill<<<1, 32>>>(bufs[d]);  // ok: runtime launches, no module loads
  }
}

void nested(CUcontext *ctxs, int n, const char *path, CUmodule mods[][2]) {
  for (int i = 0; i < n; ++i) {
    cuCtxPushCurrent(ctxs[i]);
    for (int j = 0; j < 2; ++j) {
      cuModuleLoad(&mods[i][j], path);  // want LL005 "loaded into each context"
    }
    cuCtxPopCurrent(nullptr);
  }
}

void comment_only(CUcontext *ctxs, int n) {
  for (int i = 0; i < n; ++i) {
    cuCtxSetCurrent(ctxs[i]);
    // cuModuleLoad(&m, "k.cubin");  ok: in a comment
  }
}

void lambda_loader(CUcontext *ctxs, int n, const char *path, CUmodule *mods) {
  auto load = [&](int i) {
    cuCtxSetCurrent(ctxs[i]);
    cuModuleLoad(&mods[i], path);  // ok: a lambda body, not a loop (each call loads once)
  };
  load(0);
}

// Loaders that already use context-independent loading where the driver
// has it, and keep a per-context loop only as the fallback.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

struct Loaded {
  CUlibrary library;
  CUkernel kernel;
  std::vector<CUmodule> modules;
};

void load_for_driver(Loaded &out, const void *image, const std::vector<CUcontext> &ctxs) {
  int version = 0;
  cuDriverGetVersion(&version);
  if (version >= 12000) {
    cuLibraryLoadData(&out.library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
    cuLibraryGetKernel(&out.kernel, out.library, "step");
    return;
  }
  out.modules.resize(ctxs.size());
  for (size_t i = 0; i < ctxs.size(); ++i) {
    cuCtxSetCurrent(ctxs[i]);
    cuModuleLoadData(&out.modules[i], image);  // ok: the fallback for drivers without cuLibraryLoad*
  }
}

void load_compiled_for(Loaded &out, const char *path, int ndev) {
#if CUDA_VERSION >= 12000
  cuLibraryLoadFromFile(&out.library, path, nullptr, nullptr, 0, nullptr, nullptr, 0);
  cuLibraryGetKernel(&out.kernel, out.library, "step");
#else
  out.modules.resize(ndev);
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cuModuleLoad(&out.modules[d], path);  // ok: the #else branch of a cuLibraryLoad* build
  }
#endif
}

// The per-context loop without a library path beside it.
void load_legacy(Loaded &out, const char *path, int ndev) {
  out.modules.resize(ndev);
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    cuModuleLoad(&out.modules[d], path);  // want LL005 "cuLibraryLoadFromFile"
  }
}

__global__ void step(float *x) { x[threadIdx.x] *= 2.0f; }

// Runtime kernels: the runtime loads them per device on its own.
void run_everywhere(int ndev, float **bufs) {
  for (int d = 0; d < ndev; ++d) {
    cudaSetDevice(d);
    step<<<1, 128>>>(bufs[d]);  // ok: a launch, no module load
  }
}

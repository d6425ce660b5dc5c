// CUDA C++: the runtime initializes the driver; helpers, std::call_once,
// RAII objects, lambdas and templates initialize it on the way (or not).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <mutex>

#define CUDA_CHECK(expr)                                                   \
  do {                                                                     \
    cudaError_t e_ = (expr);                                               \
    if (e_ != cudaSuccess) std::fprintf(stderr, "%s\n", cudaGetErrorString(e_)); \
  } while (0)
#define CU_CHECK(expr) do { if ((expr) != CUDA_SUCCESS) std::abort(); } while (0)

__global__ void touch(int *p) { *p = 1; }

static std::once_flag driver_once;

static void init_driver() { CU_CHECK(cuInit(0)); }

// A guarded one-time initialization: the cuInit runs on the first call.
static bool ensure_cuda() {
  static bool ready = false;
  if (!ready) {
    CUDA_CHECK(cudaFree(nullptr));
    ready = true;
  }
  return ready;
}

class DriverContext {
 public:
  DriverContext() {
    CU_CHECK(cuInit(0));
    CU_CHECK(cuDeviceGet(&dev_, 0));
    CU_CHECK(cuDevicePrimaryCtxRetain(&ctx_, dev_));
  }
  bool lazy() const {
    CUmoduleLoadingMode m;
    CU_CHECK(cuModuleGetLoadingMode(&m));  // ok: every call of lazy() comes after a DriverContext was built
    return m == CU_MODULE_LAZY_LOADING;
  }

 private:
  CUdevice dev_;
  CUcontext ctx_;
};

template <typename T>
T mode_as() {
  CUmoduleLoadingMode m;
  CU_CHECK(cuModuleGetLoadingMode(&m));  // want LL006 "main calls mode_as before CUDA is initialized"
  return static_cast<T>(m);
}

template <typename T>
T mode_after_runtime() {
  CUDA_CHECK(cudaSetDevice(0));
  CUmoduleLoadingMode m;
  CU_CHECK(cuModuleGetLoadingMode(&m));  // ok: cudaSetDevice initialized CUDA just before
  return static_cast<T>(m);
}

bool lazy_after_helper() {
  ensure_cuda();
  CUmoduleLoadingMode m;
  return cuModuleGetLoadingMode(&m) == CUDA_SUCCESS && m == CU_MODULE_LAZY_LOADING;  // ok: ensure_cuda() initializes CUDA
}

bool lazy_after_once() {
  std::call_once(driver_once, init_driver);
  CUmoduleLoadingMode m;
  return cuModuleGetLoadingMode(&m) == CUDA_SUCCESS && m == CU_MODULE_LAZY_LOADING;  // ok: call_once runs init_driver
}

bool lazy_after_once_lambda() {
  static std::once_flag once;
  std::call_once(once, [] { cudaFree(0); });
  CUmoduleLoadingMode m;
  return cuModuleGetLoadingMode(&m) == CUDA_SUCCESS;  // ok: call_once runs the lambda here
}

bool lazy_with_stored_lambda() {
  auto init = [] { cuInit(0); };
  CUmoduleLoadingMode m;
  cuModuleGetLoadingMode(&m);  // want LL006 "before cuInit"
  init();
  return m == CU_MODULE_LAZY_LOADING;
}

int raii_mode() {
  DriverContext ctx;
  return ctx.lazy() ? 1 : 0;
}

int invoked_lambda() {
  [] { cudaFree(0); }();
  CUmoduleLoadingMode m;
  cuModuleGetLoadingMode(&m);  // ok: the lambda invoked on the spot called cudaFree(0)
  return (int)m;
}

int main(int argc, char **) {
  // Each case calls one function with nothing before it, so that only the
  // function's own code decides.
  switch (argc) {
    case 1: return raii_mode();
    case 2: return invoked_lambda();
    case 3: return mode_after_runtime<int>();
    case 4: return lazy_after_helper();
    case 5: return lazy_after_once();
    case 6: return lazy_after_once_lambda();
    case 7: return lazy_with_stored_lambda();
    default: return mode_as<int>();
  }
}

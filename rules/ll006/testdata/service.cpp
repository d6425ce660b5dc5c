// A service without main: handlers are called from elsewhere, after start()
// may have initialized CUDA; what start() itself calls is checked in order.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>

class GpuService {
 public:
  void start(int device);
  int handle_loading_mode_request();
  void log_mode(const char *when);
};

void GpuService::log_mode(const char *when) {
  CUmoduleLoadingMode m;
  if (cuModuleGetLoadingMode(&m) == CUDA_SUCCESS) {  // want LL006 "start calls log_mode before CUDA is initialized"
    std::printf("%s: %d\n", when, (int)m);
  }
}

void GpuService::start(int device) {
  log_mode("before start");
  cudaSetDevice(device);
  cudaFree(nullptr);
}

int GpuService::handle_loading_mode_request() {
  CUmoduleLoadingMode m;
  auto res = cuModuleGetLoadingMode(&m);  // ok: not called in this file, and start() initializes CUDA
  return res == CUDA_SUCCESS ? (int)m : -1;
}

static int query_at_load_time() {
  CUmoduleLoadingMode m;
  cuModuleGetLoadingMode(&m);  // want LL006 "a static initializer calls query_at_load_time"
  return (int)m;
}

static const int g_mode_at_load = query_at_load_time();

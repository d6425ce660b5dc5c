// C++: a member initializer runs before the constructor's body, so a query
// made there comes before the cuInit in the body.
#include <cuda.h>

class LoadingInfo {
 public:
  LoadingInfo();
  LoadingInfo(int device, bool init_first);
  static bool LazyEnabled() {
    CUmoduleLoadingMode m;
    return cuModuleGetLoadingMode(&m) == CUDA_SUCCESS && m == CU_MODULE_LAZY_LOADING;  // want LL006 "LoadingInfo calls LazyEnabled before CUDA is initialized"
  }
  bool lazy() const { return lazy_; }

 private:
  bool lazy_;
  CUdevice device_;
};

LoadingInfo::LoadingInfo() : lazy_(LazyEnabled()) { cuInit(0); }

LoadingInfo::LoadingInfo(int device, bool init_first) : lazy_(false) {
  cuInit(0);
  cuDeviceGet(&device_, device);
  CUmoduleLoadingMode m;
  lazy_ = cuModuleGetLoadingMode(&m) == CUDA_SUCCESS && m == CU_MODULE_LAZY_LOADING;  // ok: cuInit ran first in this body
  (void)init_first;
}

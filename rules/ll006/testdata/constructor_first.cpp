// C++: a constructor runs before any other method of its object, so an
// initialization in another method does not help a query in the
// constructor.
#include <cuda.h>

class LoaderConfig {
 public:
  LoaderConfig() {
    if (cuModuleGetLoadingMode(&mode_) != CUDA_SUCCESS) {  // want LL006 "before cuInit returns CUDA_ERROR_NOT_INITIALIZED"
      mode_ = CU_MODULE_EAGER_LOADING;
    }
  }
  void refresh() {
    cuInit(0);
    cuModuleGetLoadingMode(&mode_);  // ok: initialized just before
  }
  bool lazy() const {
    CUmoduleLoadingMode m;
    cuModuleGetLoadingMode(&m);  // ok: not called in this file, and refresh() may have initialized CUDA before
    return m == CU_MODULE_LAZY_LOADING;
  }

 private:
  CUmoduleLoadingMode mode_;
};

// C++ library code that nothing in this file initializes: the query's
// callers are elsewhere, and no code here runs cuInit first.
#include <cuda.h>
#include <dlfcn.h>
#include <string>

namespace loader {

struct DriverTable {
  CUresult (*cuInit)(unsigned int);
  CUresult (*cuModuleGetLoadingMode)(CUmoduleLoadingMode *);
};

class ModeReporter {
 public:
  std::string describe() const {
    CUmoduleLoadingMode mode;
    if (::cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS) {  // want LL006 "before cuInit returns CUDA_ERROR_NOT_INITIALIZED"
      return "unknown";
    }
    return mode == CU_MODULE_LAZY_LOADING ? "lazy" : "eager";
  }
};

bool through_table(const DriverTable &t) {
  CUmoduleLoadingMode mode;
  return t.cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS;  // want LL006 "before cuInit"
}

void *resolve(void *lib) {
  return dlsym(lib, "cuModuleGetLoadingMode");  // ok: a name in a string, not a call
}

// The query is only mentioned here: cuModuleGetLoadingMode(&mode) needs cuInit. // ok: a comment

}  // namespace loader

// An interposer that forwards to the real driver: the application calls it
// after its own cuInit.
extern "C" CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) {
  static loader::DriverTable *real = nullptr;
  return real->cuModuleGetLoadingMode(mode);  // ok: inside an interposer of the query itself
}

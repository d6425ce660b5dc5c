// C++: the variable's name and value held in namespace constants, static
// class members and strings built with +=.
#include <cuda_runtime.h>
#include <cstdlib>
#include <string>

namespace env {
static const std::string kLoading = "CUDA_MODULE_LOADING";
constexpr char kDataLoading[] = R"(CUDA_MODULE_DATA_LOADING)";
}  // namespace env

struct LoadingPolicy {
  static constexpr const char *kVariable = "CUDA_MODULE_LOADING";
  static constexpr const char *kMode = "Eager";
  void apply_late();
  void apply_early();
};

void LoadingPolicy::apply_late() {
  cudaSetDevice(0);
  setenv(kVariable, "EAGER", 1);  // want LL007 "setenv of CUDA_MODULE_LOADING after cudaSetDevice"
}

void LoadingPolicy::apply_early() {
  setenv(LoadingPolicy::kVariable, kMode, 1);  // want LL007 "to \"Eager\".*write \"EAGER\""
}

void namespace_constants() {
  cudaFree(nullptr);
  setenv(env::kLoading.c_str(), "EAGER", 1);  // want LL007 "setenv of CUDA_MODULE_LOADING after cudaFree"
  setenv(env::kDataLoading, "LAZY", 1);  // want LL007 "setenv of CUDA_MODULE_DATA_LOADING after cudaFree"
}

void built_with_append(bool eager) {
  std::string setting = "CUDA_MODULE_LOADING=";
  setting += eager ? "EAGER" : "LAZY";
  putenv(setting.data());  // ok: both values are loading modes, and no CUDA call runs before
  std::string typo = "CUDA_MODULE_LOADING=";
  typo += "eagre";
  putenv(typo.data());  // want LL007 "to \"eagre\", which is not a loading mode"
}

void shadowed_name() {
  const char *kVariable = "TMPDIR";
  cudaFree(nullptr);
  setenv(kVariable, "/tmp", 1);  // ok: the local kVariable names another variable
}

void unknown_name(const char *name) {
  cudaFree(nullptr);
  setenv(name, "EAGER", 1);  // ok: the name is not known here
}

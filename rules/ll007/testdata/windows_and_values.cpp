// Windows setters, wide strings, TEXT() and bad values, with classes and
// templates around them.
#include <windows.h>
#include <tchar.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cstdlib>
#include <string>

#define ENV_NAME_W L"CUDA_MODULE_LOADING"
#define ENV_NAME_T TEXT("CUDA_MODULE_LOADING")

class Engine {
 public:
  void init_blas() { cublasCreate(&handle_); }
  void configure_after_blas() {
    init_blas();
    SetEnvironmentVariableW(ENV_NAME_W, L"EAGER");  // want LL007 "SetEnvironmentVariableW of CUDA_MODULE_LOADING after init_blas"
  }
  void configure_wide_late() {
    cudaStream_t s;
    cudaStreamCreate(&s);
    _wputenv(L"CUDA_MODULE_DATA_LOADING=EAGER");  // want LL007 "_wputenv of CUDA_MODULE_DATA_LOADING after cudaStreamCreate"
  }

 private:
  cublasHandle_t handle_;
};

void putenv_s_late() {
  cudaDeviceSynchronize();
  _putenv_s("CUDA_MODULE_LOADING", "EAGER");  // want LL007 "_putenv_s of CUDA_MODULE_LOADING after cudaDeviceSynchronize"
}

void bad_values(bool fast, const char *user_choice) {
  SetEnvironmentVariableA("CUDA_MODULE_LOADING", "1");  // want LL007 "to \"1\", which is not a loading mode"
  _putenv_s("CUDA_MODULE_LOADING", "ON");  // want LL007 "\"ON\", which is not a loading mode"
  setenv("CUDA_MODULE_LOADING", "EAGR", 1);  // want LL007 "\"EAGR\", which is not a loading mode"
  setenv("CUDA_MODULE_DATA_LOADING", "", 1);  // want LL007 "CUDA_MODULE_DATA_LOADING to \"\".*unset the variable"
  setenv("CUDA_MODULE_LOADING", fast ? "EAGER" : "Lazy", 1);  // want LL007 "\"Lazy\".*write \"LAZY\""
  SetEnvironmentVariable(ENV_NAME_T, TEXT("eager"));  // want LL007 "\"eager\".*write \"EAGER\""
  _putenv("CUDA_MODULE_LOADING=LAZY");  // ok: a valid value, before any CUDA call
  setenv("CUDA_MODULE_LOADING", user_choice, 1);  // ok: the value is not known
  setenv("CUDA_MODULE_LOADING", fast ? "EAGER" : "DEFAULT", 1);  // ok: both values are loading modes
  _tputenv_s(_T("CUDA_MODULE_LOADING"), _T("Eager"));  // want LL007 "_tputenv_s sets CUDA_MODULE_LOADING to \"Eager\""
}

template <typename Backend>
void select_mode(Backend &b) {
  b.init();
  SetEnvironmentVariableW(L"CUDA_MODULE_LOADING", L"EAGER");  // ok: what b.init() does is not known here
}

int wmain() {
  SetEnvironmentVariableW(ENV_NAME_W, L"EAGER");  // ok: first thing, before any CUDA call
  _putenv_s("CUDA_MODULE_DATA_LOADING", "LAZY");  // ok: still before any CUDA call
  Engine e;
  e.configure_after_blas();
  putenv_s_late();
  return 0;
}

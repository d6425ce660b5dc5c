// CUDA C++: a kernel launch, a library handle or a device container
// initializes the runtime, while error and version queries do not.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <thrust/device_vector.h>
#include <cstdio>

#define cudaCheck(x) do { if ((x) != 0) std::printf("error %d\n", (int)(x)); } while (0)

__global__ void warm(float *x) { x[threadIdx.x] = 0.f; }

int after_version_queries() {
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaGetLastError();
  CUmoduleLoadingMode m;
  cudaCheck(cuModuleGetLoadingMode(&m));  // want LL006 "before cuInit returns CUDA_ERROR_NOT_INITIALIZED"
  return driver + runtime + (int)m;
}

int through_unknown_wrapper() {
  cudaCheckError();  // a checking macro from a header, not a CUDA call
  CUmoduleLoadingMode m;
  cudaSafeCall(cuModuleGetLoadingMode(&m));  // want LL006 "before cuInit"
  return (int)m;
}

int after_launch(float *d) {
  warm<<<1, 32>>>(d);
  CUmoduleLoadingMode m;
  cudaCheck(cuModuleGetLoadingMode(&m));  // ok: the launch initialized the runtime
  return (int)m;
}

int after_cublas() {
  cublasHandle_t h;
  cublasCreate(&h);
  CUmoduleLoadingMode m;
  cuModuleGetLoadingMode(&m);  // ok: cublasCreate initialized the runtime
  cublasDestroy(h);
  return (int)m;
}

int after_device_vector() {
  thrust::device_vector<float> v(16);
  CUmoduleLoadingMode m;
  cuModuleGetLoadingMode(&m);  // ok: the device_vector allocated device memory
  return (int)m;
}

int main(int argc, char **) {
  // Each case calls one function with nothing before it, so that only the
  // function's own code decides.
  switch (argc) {
    case 1: return after_version_queries();
    case 2: return through_unknown_wrapper();
    case 3: return after_launch(nullptr);
    case 4: return after_cublas();
    case 5: return after_device_vector();
  }
  return 0;
}

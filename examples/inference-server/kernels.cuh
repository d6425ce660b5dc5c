// Kernels of the inference server.
#pragma once
#include <cuda_runtime.h>

namespace infer {

template <typename T>
__global__ void __launch_bounds__(256) axpy(int n, T a, const T *__restrict__ x, T *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

// Spins until another kernel sets *flag: under lazy loading the releasing
// kernel may not be loaded when this one is already running.
__global__ void wait_for_flag(volatile int *flag) {
  while (*flag == 0) {
  }
}

__global__ void set_flag(int *flag) { *flag = 1; }

}  // namespace infer

// Micro-benchmarks of the server's kernels.
#include <cstdio>
#include <cuda_runtime.h>

#include "kernels.cuh"

// Times the first launch of axpy: under lazy loading the measurement includes
// loading the kernel (about 20x a warm launch on an H100).
float time_cold(int n, const float *x, float *y) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  infer::axpy<float><<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

// The same measurement after a warm-up launch.
float time_warm(int n, const double *x, double *y) {
  infer::axpy<double><<<(n + 255) / 256, 256>>>(n, 2.0, x, y);  // warm-up: loads the kernel
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < 10; ++i) {
    infer::axpy<double><<<(n + 255) / 256, 256>>>(n, 2.0, x, y);
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms / 10;
}

// Launches written in a function-like macro of the file, one use per type.
#include <cuda_runtime.h>
#include <chrono>

template <typename T>
__global__ void relu(T *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] > T(0) ? x[i] : T(0);
}

#define LAUNCH_RELU(T, p, n) relu<T><<<((n) + 255) / 256, 256>>>((T *)(p), (n))

double time_relu(void *p, int n, bool half_precision) {
  auto t0 = std::chrono::steady_clock::now();
  LAUNCH_RELU(float, p, n);  // want LL002 "first launch of relu<float>"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_relu_warm(void *p, int n) {
  LAUNCH_RELU(double, p, n);
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  LAUNCH_RELU(double, p, n);  // ok: relu<double> was launched on the way
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

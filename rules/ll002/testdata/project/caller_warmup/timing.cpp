// Timing functions: whether their first launch is loaded depends on who
// calls them (main.cpp).
#include <chrono>
#include <cuda_runtime.h>

void run_axpy(const float *x, float *y, int n);
void run_dot(const float *x, const float *y, float *out, int n);

double timed_axpy(const float *x, float *y, int n) {
  auto t0 = std::chrono::steady_clock::now();
  run_axpy(x, y, n);  // ok: main, its only caller, warms axpy up first
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

double timed_dot(const float *x, const float *y, float *out, int n) {
  auto t0 = std::chrono::steady_clock::now();
  run_dot(x, y, out, n);  // want LL002 "dot.*run_dot"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

double timed_axpy_per_device(const float *x, float *y, int n) {
  auto t0 = std::chrono::steady_clock::now();
  run_axpy(x, y, n);  // want LL002 "axpy.*run_axpy"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

#include <chrono>
#include <cstdio>
#include "gpu_timer.h"

__global__ void spmv_csr(const int *rows, const float *vals, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = vals[rows[i]];
}

__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

void bench_spmv(const int *rows, const float *vals, float *y, int n) {
  EventStopwatch watch;
  spmv_csr<<<(n + 255) / 256, 256>>>(rows, vals, y, n);  // want LL002 "spmv_csr in this function is timed .CUDA events."
  printf("spmv: %f s\n", watch.seconds());
}

void overlap(const float *x, float *y, int n, cudaStream_t a, cudaStream_t b) {
  StreamFence fence;
  axpy<<<(n + 255) / 256, 256, 0, a>>>(2.0f, x, y, n);  // ok: an event that orders streams times nothing
  fence.signal(a);
  fence.wait(b);
}

// Written to run untimed as its own warm-up: the timer starts only in the
// instantiation that times.
template <bool Timed>
double run_axpy(const float *x, float *y, int n) {
  std::chrono::steady_clock::time_point t0;
  if constexpr (Timed) t0 = std::chrono::steady_clock::now();
  axpy<<<(n + 255) / 256, 256>>>(3.0f, x, y, n);  // ok: run_axpy<false> may run first
  cudaDeviceSynchronize();
  double s = 0;
  if constexpr (Timed) s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s;
}

// Warming up one operation loads its kernel only: the others, run through
// the same helper with other functor types, are timed cold.
#include <chrono>
#include <cstdio>
#include "framework.cuh"

struct Scale {
  float *x;
  __device__ void operator()(int i) const { x[i] *= 2.0f; }
};
struct Shift {
  float *x;
  __device__ void operator()(int i) const { x[i] += 1.0f; }
};
struct fill_zero {
  float *x;
  __device__ void operator()(int i) const { x[i] = 0.0f; }
};

void bench(float *x, int n) {
  for_each_index(Scale{x}, n);  // warm-up: loads apply_kernel<Scale>
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  for_each_index(Scale{x}, n);  // ok: this instantiation was launched before the timer
  for_each_site<256>(Shift{x}, n);  // want LL002 "apply_kernel<Shift>"
  for_each_index(fill_zero{x}, n);  // want LL002 "apply_kernel<fill_zero>"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%.3f ms\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
}

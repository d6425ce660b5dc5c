// The kernel times of every iteration, the first one included, are kept
// and printed: the first holds the kernel's load.
#include "clock.h"
#include <cstdio>
#include <utility>
#include <vector>

__global__ void fasten(float *energies, int poses) {}
__global__ void reset(float *energies, int poses) {}

std::vector<std::pair<TimePoint, TimePoint>> kernel_times;

void run(float *energies, int poses, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    auto start = now();
    fasten<<<(poses + 63) / 64, 64>>>(energies, poses);  // want LL002 "fasten.*host clock"
    cudaDeviceSynchronize();
    auto end = now();
    kernel_times.emplace_back(start, end);
  }
}

double run_warmed(float *energies, int poses) {
  reset<<<1, 1>>>(energies, 1);  // the warm-up
  cudaDeviceSynchronize();
  auto start = now();
  reset<<<(poses + 63) / 64, 64>>>(energies, poses);  // ok: warmed up
  cudaDeviceSynchronize();
  auto end = now();
  return std::chrono::duration<double>(end - start).count();
}

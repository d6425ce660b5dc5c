// Inference server entry point.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

#include "allocator.h"
#include "kernels.cuh"

float time_cold(int n, const float *x, float *y);

// Two streams, one kernel spinning until the other releases it: under lazy
// loading set_flag may have to load while wait_for_flag occupies the device.
void handshake(int *flag) {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  infer::wait_for_flag<<<1, 1, 0, a>>>(flag);
  infer::set_flag<<<1, 1, 0, b>>>(flag);
  cudaDeviceSynchronize();
}

// Driver-API plug-in loading that measures "module memory": under lazy
// loading cuModuleLoad loads nothing yet, so the difference is about zero.
size_t plugin_footprint(const char *path) {
  size_t before_free, after_free, total;
  cuMemGetInfo(&before_free, &total);
  CUmodule mod;
  cuModuleLoad(&mod, path);
  cuMemGetInfo(&after_free, &total);
  return before_free - after_free;
}

int main() {
  infer::Arena arena;
  arena.reserve_most();
  auto *x = static_cast<float *>(arena.take(1 << 20));
  auto *y = static_cast<float *>(arena.take(1 << 20));
  std::printf("cold axpy: %.3f ms\n", time_cold(1 << 18, x, y));
  handshake(static_cast<int *>(arena.take(sizeof(int))));
  std::printf("plugin: %zu bytes\n", plugin_footprint("plugin.cubin"));
  return 0;
}

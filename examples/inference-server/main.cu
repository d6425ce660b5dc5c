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

// The same handshake made safe: both kernels are loaded before the waiter
// starts, so launching set_flag needs no load while wait_for_flag spins.
// Preloading only the waiter would not be enough.
void handshake_preloaded(int *flag) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, infer::wait_for_flag);
  cudaFuncGetAttributes(&attr, infer::set_flag);
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

// Plug-in loading that does not rely on cuModuleLoad alone: resolving the
// entry point loads that kernel now, so a broken or oversized plug-in fails
// here, at start-up, instead of at its first launch.
CUfunction load_plugin_entry(const char *path, const char *entry) {
  CUmodule mod;
  CUfunction fn = nullptr;
  if (cuModuleLoad(&mod, path) != CUDA_SUCCESS) return nullptr;
  if (cuModuleGetFunction(&fn, mod, entry) != CUDA_SUCCESS) return nullptr;
  return fn;
}

int main(int argc, char **argv) {
  const bool safe = argc > 1;
  infer::Arena arena;
  arena.reserve_most();
  auto *x = static_cast<float *>(arena.take(1 << 20));
  auto *y = static_cast<float *>(arena.take(1 << 20));
  std::printf("cold axpy: %.3f ms\n", time_cold(1 << 18, x, y));
  auto *flag = static_cast<int *>(arena.take(sizeof(int)));
  if (safe) {
    handshake_preloaded(flag);
    std::printf("plugin entry: %s\n", load_plugin_entry("plugin.cubin", "run") ? "ok" : "failed");
  } else {
    handshake(flag);
    std::printf("plugin: %zu bytes\n", plugin_footprint("plugin.cubin"));
  }
  return 0;
}

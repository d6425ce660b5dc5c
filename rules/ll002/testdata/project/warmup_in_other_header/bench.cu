// Times the launchers of kernels.cuh; the warm-up before the timer is a
// call into warmup.cuh. This file launches nothing itself.
#include <chrono>
#include <cstdio>
#include "kernels.cuh"
#include "warmup.cuh"

void bench_bias(float *x, int n) {
  load_add_bias();
  auto start = std::chrono::steady_clock::now();
  launch_add_bias(x, n);  // ok: loaded by the helper before the timer
  cudaDeviceSynchronize();
  auto stop = std::chrono::steady_clock::now();
  std::printf("bias %f s\n", std::chrono::duration<double>(stop - start).count());
}

void bench_scale(float *x, int n) {
  load_add_bias();  // loads another kernel
  auto start = std::chrono::steady_clock::now();
  launch_add_scale(x, n);  // want LL002 "add_scale"
  cudaDeviceSynchronize();
  auto stop = std::chrono::steady_clock::now();
  std::printf("scale %f s\n", std::chrono::duration<double>(stop - start).count());
}

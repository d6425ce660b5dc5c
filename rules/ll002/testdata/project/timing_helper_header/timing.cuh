// Timing utilities of a benchmark suite: each runs the code it is handed
// between two clock reads and returns the time.
#pragma once
#include <chrono>

#ifdef __CUDACC__
template <class F>
float timeGpu(F &&f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  f();
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms;
}
#endif

template <class F>
double timeCpu(F &&f) {
  auto t0 = std::chrono::high_resolution_clock::now();
  f();
  auto t1 = std::chrono::high_resolution_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Runs the code once untimed, then times a second run.
template <class F>
double timeWarm(F &&f) {
  f();
  auto t0 = std::chrono::steady_clock::now();
  f();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

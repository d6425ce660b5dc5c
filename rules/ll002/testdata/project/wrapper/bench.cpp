// A benchmark in a plain C++ file: it times launchers defined in scale.cu.
#include <cstdio>
#include "scale.cuh"

float time_cold(float *data, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  launch_scale(data, n, 0);  // want LL002 "scale.*launch_scale"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

float time_after_warmup(float *data, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch_scale(data, n, 0);  // ok: warm-up through the same launcher
  cudaEventRecord(start);
  launch_scale(data, n, 0);  // ok: the kernel was loaded by the warm-up
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

float time_both_after_one_warmup(float *data, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  launch_scale(data, n, 0);  // ok: warms up scale only
  cudaEventRecord(start);
  launch_scale_and_shift(data, n, 0);  // want LL002 "shift.*launch_scale_and_shift"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

float time_preloaded(float *data, int n) {
  load_scale_kernels();  // ok: cudaFuncGetAttributes in scale.cu loads both kernels
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  launch_scale_and_shift(data, n, 0);  // ok: both kernels were preloaded
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

float time_unknown(float *data, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  launch_something_else(data, n);  // ok: no file of the project defines it
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

// The chemistry step, launched through the header's macro and timed with
// events.
#include <cstdio>
#include "../utils/gpu.hpp"

__global__ void update_chemistry(double *state, int n, double dt) {}
__global__ void update_cooling(double *state, int n, double dt) {}

void chemistry_step(double *state, int n, double dt, float *ms) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  hipLaunchKernelGGL(update_chemistry, (n + 255) / 256, 256, 0, 0, state, n, dt);  // want LL002 "update_chemistry"
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  cudaEventElapsedTime(ms, start, stop);
  printf("chemistry: %f ms\n", *ms);
}

void cooling_step(double *state, int n, double dt, float *ms) {
  hipLaunchKernelGGL(update_cooling, (n + 255) / 256, 256, 0, 0, state, n, 0.0);  // a warm-up step
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  hipLaunchKernelGGL(update_cooling, (n + 255) / 256, 256, 0, 0, state, n, dt);  // ok: launched above
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  cudaEventElapsedTime(ms, start, stop);
  printf("cooling: %f ms\n", *ms);
}

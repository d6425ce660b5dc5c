// The solver times its sweeps with the header's stopwatch.
#include <stdio.h>
#include "timer.h"

__global__ void red_sweep(float *t, int n) {}
__global__ void black_sweep(float *t, int n) {}

void solve(float *t, int n, int iterations) {
  StartTimer();
  for (int it = 0; it < iterations; ++it) {
    red_sweep<<<n / 128, 128>>>(t, n);  // want LL002 "red_sweep"
    black_sweep<<<n / 128, 128>>>(t, n);  // want LL002 "black_sweep"
  }
  cudaDeviceSynchronize();
  double runtime = GetTimer();
  printf("GPU: %f s\n", runtime / 1000.0);
}

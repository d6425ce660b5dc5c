// Per-device watches: each worker times its own session; the totals are
// read later, one after the other, with more work in between.
#include <cstdio>
#include "watch.h"

__global__ void seed_states(unsigned *s, int n) {}
__global__ void simulate(float *out, const unsigned *s, int n) {}
__global__ void reduce_paths(float *out, int n) {}

Watch **watches;

void run_all(float *out, unsigned *s, int n) {
  seed_states<<<(n + 127) / 128, 128>>>(s, n);
  sdkStartTimer(&watches[0]);
  simulate<<<(n + 127) / 128, 128>>>(out, s, n);  // want LL002 "simulate"
  cudaDeviceSynchronize();
  sdkStopTimer(&watches[0]);
}

void report(float *out, unsigned *s, int n, int devices, bool threaded) {
  float ms = 0;
  if (threaded) {
    for (int d = 0; d < devices; d++) {
      ms = sdkGetTimerValue(&watches[d]);
      printf("device %d: %.3f ms\n", d, ms);
    }
  }
  reduce_paths<<<1, 128>>>(out, n);  // ok: between two reads of summed totals, which bound nothing
  run_all(out, s, n);
  ms = sdkGetTimerValue(&watches[0]);
  printf("all devices: %.3f ms\n", ms);
}

void lap(float *out, int n) {
  sdkStartTimer(&watches[1]);
  reduce_paths<<<1, 128>>>(out, n);  // want LL002 "reduce_paths"
  cudaDeviceSynchronize();
  float total = sdkGetTimerValue(&watches[1]);
  printf("%.3f ms\n", total);
}

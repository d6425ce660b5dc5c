// Phases timed with a static timer class of another folder.
#include <cstdio>
#include "../common/phase_clock.h"

__global__ void gather_rows(const float *in, float *out, int n) {}
__global__ void scatter_rows(const float *in, float *out, int n) {}

void gather_phase(const float *in, float *out, int n) {
  int h = PhaseClock::Begin();
  gather_rows<<<n / 128, 128>>>(in, out, n);  // want LL002 "gather_rows"
  cudaDeviceSynchronize();
  printf("gather: %.3f s\n", PhaseClock::End(h, "gather"));
}

void scatter_phase(const float *in, float *out, int n) {
  scatter_rows<<<n / 128, 128>>>(in, out, n);
  cudaDeviceSynchronize();
  int h = PhaseClock::Begin();
  scatter_rows<<<n / 128, 128>>>(in, out, n);  // ok: launched once before the timer started
  cudaDeviceSynchronize();
  printf("scatter: %.3f s\n", PhaseClock::End(h, "scatter"));
}

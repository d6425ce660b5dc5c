// Operators timed through the macros of stopwatch.h.
#include <cstdio>
#include "stopwatch.h"

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void shift(float *x, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += b;
}
__global__ void square(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= x[i];
}
__global__ void negate(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = -x[i];
}

void run_scale(float *x, int n) {
  float ms = 0;
  MEASURE((scale<<<(n + 255) / 256, 256>>>(x, 2.0f, n)), ms);  // want LL002 "scale"
  printf("scale: %f ms\n", ms);
}

void run_shift(float *x, int n) {
  float ms = 0;
  GPU_MARK_BEGIN();
  shift<<<(n + 255) / 256, 256>>>(x, 1.0f, n);  // want LL002 "shift"
  GPU_MARK_FINISH(ms);
  printf("shift: %f ms\n", ms);
}

void run_square(float *x, int n) {
  HOST_MARK(t0);
  square<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "square"
  cudaDeviceSynchronize();
  HOST_MARK(t1);
  printf("square: %f s\n", HOST_SPAN(t0, t1));
}

__global__ void clampk(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] > 1.0f ? 1.0f : x[i];
}
__global__ void halve(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}

void run_clamp(float *x, int n, cudaStream_t s) {
  float ms = 0;
  REC_A(s);
  clampk<<<(n + 255) / 256, 256, 0, s>>>(x, n);  // want LL002 "clampk"
  REC_B(s);
  SPAN_MS(&ms);
  printf("clamp: %f ms\n", ms);
}

void run_halve(float *x, int n) {
  float ms = 0;
  cudaEventRecord(sw_begin, 0);
  halve<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "halve"
  STOP_GPU_TIMER(ms);
  printf("halve: %f ms\n", ms);
}

void run_negate_warm(float *x, int n) {
  negate<<<1, 1>>>(x, 1);  // warm-up, not timed
  cudaDeviceSynchronize();
  float ms = 0;
  MEASURE((negate<<<(n + 255) / 256, 256>>>(x, n)), ms);  // ok: negate was launched before the measurement
  printf("negate: %f ms\n", ms);
}

void run_untimed(float *x, int n) {
  NOTE("untimed");
  scale<<<(n + 255) / 256, 256>>>(x, 0.5f, n);  // ok: NOTE reads no clock
  NOTE("done");
}

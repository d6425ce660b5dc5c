// A benchmark records its events again in every iteration and reads them
// once, after the loop: the time is the last iteration's, which the ones
// before it warmed up. Read in the loop, or in a loop that runs once, the
// first iteration's launch is measured.
#include <cstdio>

__global__ void transpose(float *out, const float *in, int n) {}
__global__ void increment(float *a, int n) {}
__global__ void scale(float *a, int n) {}

void last_iteration(float *out, float *in, int n, int iterations) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int iter = 0; iter <= iterations; iter++) {
    cudaEventRecord(start);
    transpose<<<n / 32, 32>>>(out, in, n);  // ok: the read is of the last iteration
    cudaEventRecord(stop);
    increment<<<n / 32, 32>>>(in, n);
  }
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("transpose: %.3f ms\n", ms);
}

void every_iteration(float *a, int n, int iterations) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float total = 0;
  for (int iter = 0; iter < iterations; iter++) {
    cudaEventRecord(start);
    scale<<<n / 32, 32>>>(a, n);  // want LL002 "scale"
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    total += ms;
  }
  printf("scale: %.3f ms\n", total / iterations);
}

void one_iteration(float *a, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int iter = 0; iter < 1; iter++) {
    cudaEventRecord(start);
    increment<<<n / 32, 32>>>(a, n);  // want LL002 "increment"
    cudaEventRecord(stop);
  }
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("increment: %.3f ms\n", ms);
}

// The driver launches a kernel of its own (so it is parsed alone) and
// times a call of ops/, which calls kernel/'s host function, which calls
// a launch template of a header: three files away.
#include <cstdio>
#include "ops/attention.h"

__global__ void fill(float *x) {}

int main() {
  float *x;
  cudaMalloc((void **)&x, 1 << 20);
  fill<<<1, 128>>>(x);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  attention_forward(x);  // want LL002 "attention_kernel"
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  printf("%f ms\n", ms);
  return 0;
}

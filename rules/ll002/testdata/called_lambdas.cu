// Lambdas bound to variables run where they are called, not where they
// are written: a set-up lambda called before the timer preloads its
// kernel; a step lambda written before the timer but called inside it
// launches inside the measurement.
#include <cstdio>

__global__ void histogram(int *bins, int n) {
  extern __shared__ int local[];
  if (threadIdx.x < n) local[threadIdx.x] = bins[threadIdx.x];
}
__global__ void prefix_sum(int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n) bins[i] += bins[i - 1];
}

void build(int *bins, int n) {
  auto configure = [&]() {
    cudaFuncSetAttribute(histogram, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  };
  auto scan = [&]() {
    prefix_sum<<<(n + 255) / 256, 256>>>(bins, n);  // want LL002 "prefix_sum"
  };
  configure();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  histogram<<<1, 256, 64 * 1024>>>(bins, n);  // ok: configure() loaded it before the timer
  scan();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  std::printf("build: %.3f ms\n", ms);
}

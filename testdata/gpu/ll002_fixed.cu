// LL002 fixed: one untimed warm-up launch loads saxpy before the timer
// starts, so the timed launch measures the kernel alone in both modes.
#include "common.h"

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  float *x = nullptr, *y = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));

  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);  // warm-up: loads the kernel
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaEventRecord(start));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("saxpy, timed launch: %.3f ms\n", ms);

  for (int i = 0; i < 3; ++i) {
    CHECK(cudaEventRecord(start));
    saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    std::printf("saxpy, launch %d after it: %.3f ms\n", i + 1, ms);
  }
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}

// launches_1000: 1,000 kernel launches (ten kernels, a hundred launches
// each, on one stream), timed on the host from the first launch to the
// end of the last kernel. gpu-check.sh runs it plain and under
// `lazylint probe trace` to measure what tracing costs a program.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

template <int K>
__global__ void step(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.999f + float(K);
}

template <int K>
static void launchHundred(float *x, int n) {
  for (int r = 0; r < 100; ++r) step<K><<<(n + 255) / 256, 256>>>(x, n);
}

int main() {
  const int n = 1 << 16;
  float *x = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) return 1;
  cudaDeviceSynchronize();
  auto start = std::chrono::steady_clock::now();
  launchHundred<0>(x, n); launchHundred<1>(x, n); launchHundred<2>(x, n); launchHundred<3>(x, n);
  launchHundred<4>(x, n); launchHundred<5>(x, n); launchHundred<6>(x, n); launchHundred<7>(x, n);
  launchHundred<8>(x, n); launchHundred<9>(x, n);
  cudaError_t err = cudaDeviceSynchronize();
  auto end = std::chrono::steady_clock::now();
  std::printf("launches=1000 loop_ms=%.3f %s\n",
              std::chrono::duration<double, std::milli>(end - start).count(), cudaGetErrorString(err));
  cudaFree(x);
  return err == cudaSuccess ? 0 : 1;
}

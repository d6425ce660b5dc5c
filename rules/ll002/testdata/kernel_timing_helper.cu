// A timing helper that launches the kernel it is handed between two event
// records: the helper's own launch is its callers' kernel, and each call
// that hands it a kernel not launched before is a timed first launch.
#include <cstdio>

template <typename F, typename... Args>
float time_kernel(F func, dim3 grid, dim3 block, Args... args) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  func<<<grid, block>>>(args...);  // ok: whichever kernel a caller hands in; the calls are checked
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

__global__ void quantize(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = float(int(x[i]));
}
__global__ void predict(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n) x[i] -= x[i - 1];
}

void compress(float *x, int n) {
  float quantize_ms = time_kernel(quantize, dim3((n + 255) / 256), dim3(256), x, n);  // want LL002 "quantize"
  predict<<<(n + 255) / 256, 256>>>(x, n);  // warm-up
  cudaDeviceSynchronize();
  float predict_ms = time_kernel(predict, dim3((n + 255) / 256), dim3(256), x, n);  // ok: launched before
  std::printf("quantize %.3f ms, predict %.3f ms\n", quantize_ms, predict_ms);
}

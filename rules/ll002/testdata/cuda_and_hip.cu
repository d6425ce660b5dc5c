// A source built for NVIDIA and AMD GPUs by a build switch: the CUDA build
// launches with <<<>>>, the HIP build with hipLaunchKernelGGL. It names no
// cuda* API, but its CUDA build loads lazily all the same.
#include <chrono>
#include <cstdio>

__global__ void reference(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2.0f * x[i];
}

void reference_launch(float *x, int n) {
#ifdef USE_CUDA
  reference<<<(n + 255) / 256, 256>>>(x, n);
#elif defined USE_HIP
  hipLaunchKernelGGL(reference, dim3((n + 255) / 256), dim3(256), 0, 0, x, n);
#endif
}

void timed(float *x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  reference_launch(x, n);  // want LL002 "reference"
  gpuDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  std::printf("reference kernel: %.3f ms\n", std::chrono::duration<double, std::milli>(t1 - t0).count());
}

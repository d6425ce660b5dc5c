// The driver: warms axpy up on device 0, then times it; times dot cold;
// and times axpy on every device, where device 0's warm-up loads nothing
// (a kernel's module is loaded per context).
#include <cstdio>
#include <cuda_runtime.h>

void run_axpy(const float *x, float *y, int n);
double timed_axpy(const float *x, float *y, int n);
double timed_dot(const float *x, const float *y, float *out, int n);
double timed_axpy_per_device(const float *x, float *y, int n);

int main() {
  const int n = 1 << 20;
  float *x, *y, *out;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&out, sizeof(float));
  run_axpy(x, y, n);
  cudaDeviceSynchronize();
  printf("axpy %.3f ms\n", timed_axpy(x, y, n));
  printf("dot %.3f ms\n", timed_dot(x, y, out, n));
  int devices = 0;
  cudaGetDeviceCount(&devices);
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    printf("axpy on %d: %.3f ms\n", d, timed_axpy_per_device(x, y, n));
  }
  return 0;
}

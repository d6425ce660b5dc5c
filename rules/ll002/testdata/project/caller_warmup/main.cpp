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
  // Many calls between the warm-up and the timing: it still counts.
  for (int k = 0; k < 2; ++k) printf("setup %d\n", k);
  printf("a\n"); printf("b\n"); printf("c\n"); printf("d\n"); printf("e\n");
  printf("f\n"); printf("g\n"); printf("h\n"); printf("i\n"); printf("j\n");
  printf("k\n"); printf("l\n"); printf("m\n"); printf("n\n"); printf("o\n");
  printf("p\n"); printf("q\n"); printf("r\n"); printf("s\n"); printf("t\n");
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

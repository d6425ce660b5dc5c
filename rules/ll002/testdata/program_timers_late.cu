// A program that makes the CUDA context before its total timer starts: the
// eager loads would come before the timer, the lazy ones fall inside it.
#include <cstdio>
#include <sys/time.h>

__global__ void init_grid(float *x, int n) {}

static double wall() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + 1e-6 * tv.tv_usec;
}

int main() {
  int device = 0;
  cudaSetDevice(device);
  double start_total = wall();
  float *x;
  cudaMalloc(&x, 1024 * sizeof(float));
  init_grid<<<4, 256>>>(x, 1024);  // want LL002 "init_grid"
  cudaDeviceSynchronize();
  printf("Init %9.4f\n", wall() - start_total);
  return 0;
}

// Clocks read through a pointer (gettimeofday(&tv, 0)): the variables the
// code subtracts say which reads bound a measurement, and the code
// between the end of one and the start of the next is measured by none.
#include <cstdio>
#include <sys/time.h>

__global__ void assemble(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1.0f;
}
__global__ void residual(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] -= 0.5f;
}
__global__ void solve(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 0.25f;
}

void run(float *a, int n) {
  struct timeval begin, end;
  gettimeofday(&begin, NULL);
  assemble<<<(n + 255) / 256, 256>>>(a, n);  // want LL002 "assemble"
  cudaDeviceSynchronize();
  gettimeofday(&end, NULL);
  std::printf("assembly: %f s\n", 1.0 * (end.tv_sec - begin.tv_sec) + 1.0e-6 * (end.tv_usec - begin.tv_usec));

  residual<<<(n + 255) / 256, 256>>>(a, n);  // ok: after one measurement's end, before the next one's start

  gettimeofday(&begin, NULL);
  solve<<<(n + 255) / 256, 256>>>(a, n);  // want LL002 "solve"
  cudaDeviceSynchronize();
  gettimeofday(&end, NULL);
  std::printf("solve: %f s\n", ((end.tv_sec * 1000000 + end.tv_usec) - (begin.tv_sec * 1000000 + begin.tv_usec)) / 1e6);
}

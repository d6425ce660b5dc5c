// Before main's timer, an object of a class another file defines is built
// with arguments: its constructor may allocate device memory, so CUDA may
// be up when the timer starts.
#include <chrono>
#include <cstdio>
#include "matrix.h"

__global__ void transpose(float *m, int n) {}

int main() {
  Matrix<float> m(1024, 1024);
  auto start = std::chrono::steady_clock::now();
  transpose<<<1024, 256>>>(m.data(), 1024);  // want LL002 "transpose"
  cudaDeviceSynchronize();
  auto end = std::chrono::steady_clock::now();
  printf("%f s\n", std::chrono::duration<double>(end - start).count());
  return 0;
}

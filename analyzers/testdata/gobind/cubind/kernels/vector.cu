// Built by nvcc into the library the binding links; the binding's cgo
// preamble only declares these functions.
#include <cuda_runtime.h>

__global__ void scale_kernel(float *v, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= a;
}

extern "C" int vector_scale(float *v, float a, int n) {
  scale_kernel<<<(n + 255) / 256, 256>>>(v, a, n);
  return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

extern "C" int device_count(void) {
  int n = 0;
  cudaGetDeviceCount(&n);
  return n;
}

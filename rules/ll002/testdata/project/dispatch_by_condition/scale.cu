// A field library's entry point picks one of two kernels by where its
// scalar lives: on the device it is read by reference, on the host it is
// passed by value. Which one a caller's first call loads depends on the
// pointer it hands over.
#include <cuda_runtime.h>

__global__ void scale_by_ref_kernel(const float *a, const float *x, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = *a * x[i];
}

__global__ void scale_by_val_kernel(float a, const float *x, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i];
}

__global__ void shift_kernel(float b, const float *x, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + b;
}

static cudaError_t scale_by_ref(const float *a, const float *x, float *out, unsigned n, cudaStream_t s) {
  scale_by_ref_kernel<<<(n + 255) / 256, 256, 0, s>>>(a, x, out, n);
  return cudaGetLastError();
}

static cudaError_t scale_by_val(const float *a, const float *x, float *out, unsigned n, cudaStream_t s) {
  scale_by_val_kernel<<<(n + 255) / 256, 256, 0, s>>>(*a, x, out, n);
  return cudaGetLastError();
}

cudaError_t scale(const float *a, const float *x, float *out, unsigned n, cudaStream_t s) {
  cudaPointerAttributes attrs{};
  cudaPointerGetAttributes(&attrs, a);
  return attrs.type == cudaMemoryTypeDevice ? scale_by_ref(a, x, out, n, s) : scale_by_val(a, x, out, n, s);
}

cudaError_t shift(float b, const float *x, float *out, unsigned n, cudaStream_t s) {
  shift_kernel<<<(n + 255) / 256, 256, 0, s>>>(b, x, out, n);
  return cudaGetLastError();
}

#include "field.h"

__global__ void normalize_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] /= 2.0f;
}
__global__ void smooth_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n) x[i] = 0.5f * (x[i] + x[i - 1]);
}

void Field::normalize() { normalize_kernel<<<(n + 255) / 256, 256>>>(data, n); }
void Field::smooth() { smooth_kernel<<<(n + 255) / 256, 256>>>(data, n); }

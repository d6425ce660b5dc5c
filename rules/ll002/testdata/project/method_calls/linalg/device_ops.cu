#include "device_ops.h"

__global__ void clamp_below_kernel(float *data, float floor_value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] < floor_value) data[i] = floor_value;
}

__global__ void rescale_kernel(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void fill_kernel(float *data, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

void gpu_clamp_below(float *data, float floor_value, int n) {
  clamp_below_kernel<<<(n + 255) / 256, 256>>>(data, floor_value, n);
}

void gpu_rescale(float *data, float factor, int n) {
  rescale_kernel<<<(n + 255) / 256, 256>>>(data, factor, n);
}

void gpu_fill(float *data, float value, int n) {
  fill_kernel<<<(n + 255) / 256, 256>>>(data, value, n);
}

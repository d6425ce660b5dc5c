#include "layer.h"

__global__ void scale_rows(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

__global__ void l1_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fabsf(x[i]);
}

__global__ void l2_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * x[i];
}

void ScaleLayer::forward(float *x, int n) { scale_rows<<<(n + 255) / 256, 256>>>(x, s_, n); }

void L1Norm::apply(float *x, int n) { l1_kernel<<<(n + 255) / 256, 256>>>(x, n); }

void L2Norm::apply(float *x, int n) { l2_kernel<<<(n + 255) / 256, 256>>>(x, n); }

__global__ void clear_kernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0;
}

void DeviceSink::write(float *x, int n) { clear_kernel<<<(n + 255) / 256, 256>>>(x, n); }

void HostSink::write(float *x, int n) { cudaMemset(x, 0, n * sizeof(float)); }

Layer *make_scale_layer(float s) { return new ScaleLayer(s); }

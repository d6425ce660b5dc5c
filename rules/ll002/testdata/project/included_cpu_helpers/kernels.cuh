// The CUDA version's layers, in a header of the CUDA program: the same
// names as the CPU reference's helpers, and they launch.
#pragma once

__global__ void scale_kernel(float *out, const float *in, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = 0.5f * in[i];
}

__global__ void bias_kernel(float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] += 1.0f;
}

void scale_forward(float *out, const float *in, int n) {
  scale_kernel<<<1, 32>>>(out, in, n);
}

void bias_forward(float *out, int n) {
  bias_kernel<<<1, 32>>>(out, n);
}

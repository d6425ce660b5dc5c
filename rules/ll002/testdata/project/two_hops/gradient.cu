// The kernel and the C-linkage function that launches it.
__global__ void gradient_kernel(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n) out[i] = in[i + 1] - in[i];
}

extern "C" float *gradient_on_gpu(const float *image, int n) {
  float *out = nullptr;
  cudaMalloc(&out, n * sizeof(float));
  gradient_kernel<<<(n + 255) / 256, 256>>>(image, out, n);
  cudaDeviceSynchronize();
  return out;
}

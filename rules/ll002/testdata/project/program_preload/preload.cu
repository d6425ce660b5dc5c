// A program-wide preload: every kernel of the table is loaded at start-up.
#include <cuda_runtime.h>

__global__ void gather(const int *idx, const float *in, float *out, int n) {}
__global__ void scatter(const int *idx, const float *in, float *out, int n) {}

static const void *all_kernels[] = {(const void *)gather, (const void *)scatter};

void preload_all_kernels() {
  for (const void *k : all_kernels) {
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, k);
  }
}

void launch_gather(const int *idx, const float *in, float *out, int n) {
  gather<<<(n + 255) / 256, 256>>>(idx, in, out, n);  // ok: not timed here
}

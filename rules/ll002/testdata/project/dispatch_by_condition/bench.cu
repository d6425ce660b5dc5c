// Times the library's entry points at growing sizes. The first size's
// scale() loads whichever of its two kernels the pointer selects: the
// finding names both, since which one runs is decided at run time.
#include <cstdio>
#include <cuda_runtime.h>

cudaError_t scale(const float *a, const float *x, float *out, unsigned n, cudaStream_t s);
cudaError_t shift(float b, const float *x, float *out, unsigned n, cudaStream_t s);

int main() {
  const unsigned max_n = 1u << 24;
  float *x, *out;
  cudaMalloc(&x, max_n * sizeof(float));
  cudaMalloc(&out, max_n * sizeof(float));
  float a = 3.0f;
  cudaStream_t s;
  cudaStreamCreate(&s);
  shift(1.0f, x, out, 1, s);  // warms up shift_kernel only
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (unsigned n = 1u << 10; n <= max_n; n <<= 2) {
    float ms = 0;
    cudaEventRecord(start, s);
    scale(&a, x, out, n, s);  // want LL002 "scale_by_ref_kernel, scale_by_val_kernel"
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("scale %u: %.3f ms\n", n, ms);
    cudaEventRecord(start, s);
    shift(2.0f, x, out, n, s);
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    printf("shift %u: %.3f ms\n", n, ms);
  }
  return 0;
}

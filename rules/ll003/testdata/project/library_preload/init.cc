// A communication library's start-up: every kernel of its table is loaded
// before any communicator exists.
#include <cuda_runtime.h>

extern void *g_device_kernels[];
extern int g_device_kernel_count;

int comm_library_init() {
  for (int k = 0; k < g_device_kernel_count; ++k) {
    void *fn = g_device_kernels[k];
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, fn) != cudaSuccess) return 1;
  }
  return 0;
}

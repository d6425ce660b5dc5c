// A persistent kernel released by the host through mapped memory.
#include <cuda_runtime.h>

__device__ volatile int g_shutdown;

__global__ void persistent_worker(int *work) {
  while (!g_shutdown) {  // want LL003 "persistent_worker spins on g_shutdown"
    work[0]++;
  }
}

__global__ void postprocess(int *work) { work[1] = work[0]; }
__global__ void warmup_kernel(int *work) {}

void serve(int *work, cudaStream_t s, cudaStream_t t) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, warmup_kernel);
  persistent_worker<<<1, 1, 0, s>>>(work);
  warmup_kernel<<<1, 1, 0, t>>>(work);  // ok: preloaded before the worker started
  postprocess<<<1, 1, 0, t>>>(work);  // want LL003 "postprocess is launched for the first time while persistent_worker"
  int one = 1;
  cudaMemcpyToSymbolAsync(g_shutdown, &one, sizeof(one), 0, cudaMemcpyHostToDevice, t);
  cudaDeviceSynchronize();
}

void host_code_only(int *h) {
  volatile int *p = h;
  while (*p == 0) {  // ok: host code, not a kernel
  }
}

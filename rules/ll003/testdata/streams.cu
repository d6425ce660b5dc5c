// A kernel spinning on a flag that another kernel on another stream sets.
#include <cuda_runtime.h>

__global__ void consumer(volatile int *ready, float *out) {
  while (*ready == 0) {  // want LL003 "kernel consumer spins on ready"
  }
  out[threadIdx.x] = 1.0f;
}

__global__ void producer(int *ready, float *data) {
  data[threadIdx.x] = 2.0f;
  __threadfence_system();
  *ready = 1;
}

__global__ void unrelated(float *data) { data[0] = 0.0f; }

void run_pair(int *ready, float *data, cudaStream_t s1, cudaStream_t s2) {
  consumer<<<1, 32, 0, s1>>>(ready, data);
  producer<<<1, 32, 0, s2>>>(ready, data);  // want LL003 "producer is launched for the first time while consumer may be spinning"
  cudaDeviceSynchronize();
}

void run_pair_preloaded(int *ready, float *data, cudaStream_t s1, cudaStream_t s2) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, consumer);
  cudaFuncGetAttributes(&attr, producer);
  consumer<<<1, 32, 0, s1>>>(ready, data);
  producer<<<1, 32, 0, s2>>>(ready, data);  // ok: both kernels preloaded before the waiter runs
  cudaDeviceSynchronize();
}

void run_pair_only_waiter_preloaded(int *ready, float *data, cudaStream_t s1, cudaStream_t s2) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, consumer);
  consumer<<<1, 32, 0, s1>>>(ready, data);
  producer<<<1, 32, 0, s2>>>(ready, data);  // want LL003 "preloading only the waiter is not enough"
  cudaDeviceSynchronize();
}

void run_pair_warm(int *ready, float *data, cudaStream_t s1, cudaStream_t s2) {
  producer<<<1, 32, 0, s2>>>(ready, data);  // ok: not after a waiter
  cudaDeviceSynchronize();
  consumer<<<1, 32, 0, s1>>>(ready, data);
  producer<<<1, 32, 0, s2>>>(ready, data);  // ok: producer was launched (and loaded) before
  cudaDeviceSynchronize();
}

void run_after_sync(int *ready, float *data, cudaStream_t s1) {
  consumer<<<1, 32, 0, s1>>>(ready, data);
  cudaStreamSynchronize(s1);
  unrelated<<<1, 1>>>(data);  // ok: the waiter has finished (synchronized)
}

// A timer class known by a C-style alias (`typedef struct GpuTimer {...}
// gpu_timer_t;`): its objects time with CUDA events, as the class says.
#include <cstdio>

typedef struct GpuTimer {
  cudaEvent_t start, stop;
  float ms;
  void timer_start() {
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
  }
  void timer_end() {
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
  }
  float elapsed() {
    cudaEventElapsedTime(&ms, start, stop);
    return ms;
  }
} gpu_timer_t;

__global__ void encode(unsigned *codes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) codes[i] ^= 0x5bd1e995u;
}

float encode_all(unsigned *codes, int n) {
  gpu_timer_t t;
  t.timer_start();
  encode<<<(n + 255) / 256, 256>>>(codes, n);  // want LL002 "encode in this function is timed \\(CUDA events\\)"
  t.timer_end();
  return t.elapsed();
}

using event_clock = GpuTimer;

__global__ void decode(unsigned *codes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) codes[i] ^= 0x5bd1e995u;
}

float decode_all(unsigned *codes, int n) {
  event_clock t;
  t.timer_start();
  decode<<<(n + 255) / 256, 256>>>(codes, n);  // want LL002 "decode in this function is timed \\(CUDA events\\)"
  t.timer_end();
  return t.elapsed();
}

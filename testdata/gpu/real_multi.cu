// real_multi: several hazards in one program, written the way real code
// is: the first launch timed with events and printed as key=value, a spin
// wait released
// from another stream with a watchdog that turns a deadlock into a slow
// success, and a timed launch of a kernel that never runs (debug path).
//
// gpu-check: scale LL002 confirmed
// gpu-check: waitFor LL003 confirmed
// gpu-check: debugDump LL002 not-exercised
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); } } while (0)

template <typename T>
__global__ void scale(T *v, T f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= f;
}

__global__ void waitFor(volatile int *flag, long long limit, int *gaveUp) {
  long long start = clock64();
  while (*flag == 0) {
    if (clock64() - start > limit) { *gaveUp = 1; return; }
  }
}

__global__ void release(volatile int *flag) { *flag = 1; }

__global__ void debugDump(const float *v, float *out) { out[0] = v[0]; }

int main(int argc, char **argv) {
  const int n = 1 << 20;
  float *v;
  int *flag, *gaveUp;
  CHECK(cudaMalloc(&v, n * sizeof(float)));
  CHECK(cudaMallocManaged(&flag, sizeof(int)));
  CHECK(cudaMallocManaged(&gaveUp, sizeof(int)));
  *flag = 0;
  *gaveUp = 0;
  cudaStream_t a, b;
  CHECK(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));

  CHECK(cudaEventRecord(e0, a));
  scale<float><<<(n + 255) / 256, 256, 0, a>>>(v, 2.0f, n);
  CHECK(cudaEventRecord(e1, a));
  CHECK(cudaEventSynchronize(e1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::printf("first launch event_ms=%.4f\n", ms);

  long long limit = 2000000000LL;  // the watchdog: about 1 s
  waitFor<<<1, 1, 0, a>>>(flag, limit, gaveUp);
  release<<<1, 1, 0, b>>>(flag);
  CHECK(cudaDeviceSynchronize());
  std::printf("waiter %s\n", *gaveUp ? "gave up (watchdog)" : "released");

  if (argc > 1 && std::strcmp(argv[1], "--debug") == 0) {
    CHECK(cudaEventRecord(e0, a));
    debugDump<<<1, 1, 0, a>>>(v, v + 1);
    CHECK(cudaEventRecord(e1, a));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    std::printf("debug_dump_ms=%.4f\n", ms);
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}

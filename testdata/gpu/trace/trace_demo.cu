// trace_demo: a small program for `lazylint probe trace`, written the way
// real code is: a timed first launch printed as key=value, a template
// kernel, a spin wait released from another stream with a watchdog, and a
// kernel that never runs. "many N" launches one small kernel N times (the
// tracing overhead measurement).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); } } while (0)

template <typename T>
__global__ void scale(T *v, T f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= f;
}

__global__ void tiny(int *x) { if (threadIdx.x == 0) atomicAdd(x, 1); }

// waitFor spins until *flag is set or the watchdog runs out (clock cycles).
__global__ void waitFor(volatile int *flag, long long limit, int *gaveUp) {
  long long start = clock64();
  while (*flag == 0) {
    if (clock64() - start > limit) { *gaveUp = 1; return; }
  }
}

__global__ void release(volatile int *flag) { *flag = 1; }

__global__ void neverRuns(float *v) { v[0] = 42.0f; }

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "many") == 0) {
    int n = atoi(argv[2]);
    int *x;
    CHECK(cudaMalloc(&x, sizeof(int)));
    CHECK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) tiny<<<1, 32>>>(x);
    CHECK(cudaDeviceSynchronize());
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    printf("launches=%d loop_ms=%.3f\n", n, ms);
    return 0;
  }
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
  for (int rep = 0; rep < 2; rep++) {
    CHECK(cudaEventRecord(e0, a));
    scale<float><<<(n + 255) / 256, 256, 0, a>>>(v, 2.0f, n);
    CHECK(cudaEventRecord(e1, a));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    printf("%s launch event_ms=%.4f\n", rep == 0 ? "first" : "second", ms);
  }
  // The waiter spins on stream a; the releaser goes on stream b. Under
  // lazy loading the releaser's load can wait for the waiter to finish.
  long long limit = 2000000000LL;  // about 1 s at 2 GHz
  waitFor<<<1, 1, 0, a>>>(flag, limit, gaveUp);
  release<<<1, 1, 0, b>>>(flag);
  CHECK(cudaDeviceSynchronize());
  printf("waiter: %s\n", *gaveUp ? "watchdog gave up waiting" : "released");
  if (argc > 1 && strcmp(argv[1], "never") == 0) neverRuns<<<1, 1>>>(v);
  CHECK(cudaDeviceSynchronize());
  return 0;
}

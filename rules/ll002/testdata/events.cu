// Benchmarks timed with CUDA events.
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)

template <typename T>
__global__ void axpy(int n, T a, const T *x, T *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

__global__ void fill(float *p, float v, int n) {}
__global__ void scale(float *p, float v, int n) {}
__global__ void reduce(const float *p, float *out, int n) {}

float cold(int n, const float *x, float *y) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  axpy<float><<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);  // want LL002 "first launch of axpy<float>"
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  float ms;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  return ms;
}

float warmed(int n, const float *x, float *y) {
  axpy<float><<<1, 256>>>(n, 2.0f, x, y);  // ok: warm-up launch, not timed
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  axpy<float><<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);  // ok: the kernel was launched before the timer
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

float other_instantiation(int n, const float *xf, float *yf, const double *xd, double *yd) {
  axpy<float><<<1, 256>>>(n, 2.0f, xf, yf);  // ok: warms axpy<float> only
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0);
  axpy<double><<<(n + 255) / 256, 256>>>(n, 2.0, xd, yd);  // want LL002 "axpy<double>"
  cudaEventRecord(stop, 0);
  float ms;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

float timed_loop(float *p, int n, int iters) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int i = 0; i < iters; ++i) {
    fill<<<n / 256, 256>>>(p, 1.0f, n);  // want LL002 "first launch of fill"
  }
  cudaEventRecord(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms / iters;
}

float warmup_loop(float *p, int n, int iters) {
  for (int w = 0; w < 3; ++w) {
    fill<<<n / 256, 256>>>(p, 1.0f, n);  // ok: warm-up loop before the timer
  }
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int i = 0; i < iters; ++i) {
    fill<<<n / 256, 256>>>(p, 1.0f, n);  // ok: warmed up by the loop above
  }
  cudaEventRecord(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms / iters;
}

float preloaded(float *p, int n) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, scale);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  scale<<<n / 256, 256>>>(p, 2.0f, n);  // ok: preloaded with cudaFuncGetAttributes
  reduce<<<1, 256>>>(p, p, n);  // want LL002 "first launch of reduce"
  cudaEventRecord(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

float conditional_warmup(float *p, int n, bool warm) {
  if (warm) {
    scale<<<1, 1>>>(p, 1.0f, n);  // ok: a warm-up that may not run
  }
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  scale<<<n / 256, 256>>>(p, 2.0f, n);  // want LL002 "first launch of scale"
  cudaEventRecord(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

void only_copies(float *d, const float *h, size_t bytes) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);  // ok: no kernel in the timed region
  cudaEventRecord(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  printf("%f\n", ms);
  fill<<<1, 1>>>(d, 0.0f, 1);  // ok: launched after the timer stopped
}

enum Variant { kFill, kScale };

float selected_variant(float *p, int n, Variant v) {
  switch (v) {  // warm-up of the variant about to be timed
  case kFill:
    fill<<<1, 1>>>(p, 0.0f, n);  // ok: warm-up in the same case
    break;
  case kScale:
    scale<<<1, 1>>>(p, 1.0f, n);  // ok: warm-up in the same case
    break;
  }
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  switch (v) {
  case kFill:
    fill<<<n / 256, 256>>>(p, 0.0f, n);  // ok: warmed by the same case above
    break;
  case kScale:
    scale<<<n / 256, 256>>>(p, 1.0f, n);  // ok: warmed by the same case above
    break;
  default:
    reduce<<<1, 256>>>(p, p, n);  // want LL002 "first launch of reduce"
  }
  cudaEventRecord(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

float elapsed_between(cudaEvent_t a, cudaEvent_t b);

float elapsed_in_helper(float *p, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  scale<<<n / 256, 256>>>(p, 3.0f, n);  // want LL002 "first launch of scale"
  cudaEventRecord(stop);
  return elapsed_between(start, stop);
}

void stream_dependency(float *p, int n, cudaStream_t s1, cudaStream_t s2) {
  cudaEvent_t ready, done;
  cudaEventCreate(&ready);
  cudaEventCreate(&done);
  cudaEventRecord(ready, s1);
  cudaStreamWaitEvent(s2, ready, 0);
  fill<<<n / 256, 256, 0, s2>>>(p, 1.0f, n);  // ok: events that order streams are not a timer
  cudaEventRecord(done, s2);
}

// A unit test with a coarse time bound.
void TestAxpyIsFast(int n, const float *x, float *y) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  scale<<<n / 256, 256>>>(y, 2.0f, n);  // want LL002 "first launch of scale .*only feeds a test's assertion, so this is reported as info"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  EXPECT_LT(ms, 1000.0f);
}

// The same bound, but the time is printed too: a measurement someone reads.
void TestAxpyIsFastAndSay(int n, const float *x, float *y) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  reduce<<<n / 256, 256>>>(y, y, n);  // want LL002 "first launch of reduce in this function is timed [(]CUDA events[)]: under lazy loading the measurement includes loading the kernel [(]20x a warm launch on an H100[)]; launch it once or preload it [(]cudaFuncGetAttributes[)] before the timer starts$"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  EXPECT_LT(ms, 1000.0f);
  printf("reduce: %.3f ms\n", ms);
}

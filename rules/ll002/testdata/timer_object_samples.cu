// A timer object's measurement is read by calling one of its methods. A
// loop that reads it only after its first iteration (`if (i > 0)`) keeps
// no sample of the loads; a second kernel under a condition the loop never
// changes runs in that first iteration too. Read in every iteration, or
// after the loop, or handed on, the first sample may be shown.
#include <cstdio>

struct GpuTimer {
  cudaEvent_t start_, stop_;
  GpuTimer() { cudaEventCreate(&start_); cudaEventCreate(&stop_); }
  void Start() { cudaEventRecord(start_); }
  void Stop() { cudaEventRecord(stop_); }
  float ElapsedMillis() {
    float ms = 0;
    cudaEventSynchronize(stop_);
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }
};

void report(GpuTimer &t);

__global__ void spmv(float *y, const float *x, int n) {}
__global__ void finalize(float *y, int n) {}
__global__ void scale(float *y, int n) {}
__global__ void reduce(float *y, int n) {}
__global__ void shift(float *y, int n) {}

void skips_first_sample(float *y, const float *x, int n, int grid, int iterations) {
  GpuTimer timer;
  float total = 0;
  for (int i = 0; i <= iterations; i++) {
    timer.Start();
    spmv<<<grid, 128>>>(y, x, n);  // ok: the first sample is dropped
    if (grid > 1) {
      finalize<<<1, 128>>>(y, n);  // ok: the first iteration takes this branch when any does
    }
    timer.Stop();
    if (i > 0)
      total += timer.ElapsedMillis();
  }
  printf("spmv: %.3f ms\n", total / iterations);
}

void condition_changes(float *y, int n, int iterations) {
  GpuTimer timer;
  float total = 0;
  int grid = 1;
  for (int i = 0; i <= iterations; i++) {
    timer.Start();
    if (grid > 1) {
      scale<<<grid, 128>>>(y, n);  // want LL002 "scale"
    }
    timer.Stop();
    grid = 2;
    if (i > 0)
      total += timer.ElapsedMillis();
  }
  printf("scale: %.3f ms\n", total / iterations);
}

void every_sample(float *y, int n, int iterations) {
  GpuTimer timer;
  float total = 0;
  for (int i = 0; i < iterations; i++) {
    timer.Start();
    reduce<<<n / 128, 128>>>(y, n);  // want LL002 "reduce"
    timer.Stop();
    total += timer.ElapsedMillis();
  }
  printf("reduce: %.3f ms\n", total / iterations);
}

void handed_on(float *y, int n, int iterations) {
  GpuTimer timer;
  for (int i = 0; i <= iterations; i++) {
    timer.Start();
    shift<<<n / 128, 128>>>(y, n);  // want LL002 "shift"
    timer.Stop();
    report(timer);
  }
}

struct Options {
  int grid;
};

__global__ void gather(float *y, int n) {}

void field_changes(float *y, int n, Options opts, int iterations) {
  GpuTimer timer;
  float total = 0;
  for (int i = 0; i <= iterations; i++) {
    timer.Start();
    if (opts.grid > 1) {
      gather<<<opts.grid, 128>>>(y, n);  // want LL002 "gather"
    }
    timer.Stop();
    opts.grid = 2;
    if (i > 0)
      total += timer.ElapsedMillis();
  }
  printf("gather: %.3f ms\n", total / iterations);
}

// Times layers through their interface. The first forward() through a
// Layer pointer loads ScaleLayer's kernel: the only override there is.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
#include "layer.h"

double time_cold(float *x, int n) {
  Layer *layer = new ScaleLayer(2.0f);
  auto t0 = std::chrono::steady_clock::now();
  layer->forward(x, n);  // want LL002 "scale_rows"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  delete layer;
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_warm(float *x, int n) {
  Layer *layer = new ScaleLayer(2.0f);
  layer->forward(x, n);  // warm-up: loads the override's kernel
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  layer->forward(x, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  delete layer;
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_norm(Norm *norm, float *x, int n) {
  // Either override may run, and each launches a kernel loaded nowhere
  // before: the finding names both.
  auto t0 = std::chrono::steady_clock::now();
  norm->apply(x, n);  // want LL002 "l1_kernel, l2_kernel"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_sink(Sink *sink, float *x, int n) {
  // HostSink's override launches nothing: the call may load no kernel.
  auto t0 = std::chrono::steady_clock::now();
  sink->write(x, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

int main() {
  const int n = 1 << 20;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  L2Norm l2;
  HostSink host;
  printf("cold %.6f s, warm %.6f s, norm %.6f s, sink %.6f s\n", time_cold(x, n), time_warm(x, n), time_norm(&l2, x, n), time_sink(&host, x, n));
  return 0;
}

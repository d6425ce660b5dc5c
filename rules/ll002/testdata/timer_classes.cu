// Timers known by their class rather than their name: a library timer
// that starts when it is constructed, a class of the file whose methods
// read the clock under names no timer vocabulary has, and one whose
// constructor starts it.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>

class Benchmark {
 public:
  void record() { mark_ = std::chrono::high_resolution_clock::now(); }
  double since() const {
    return std::chrono::duration<double>(std::chrono::high_resolution_clock::now() - mark_).count();
  }

 private:
  std::chrono::high_resolution_clock::time_point mark_;
};

struct Span {
  Span() : t0(std::chrono::steady_clock::now()) {}
  double ms() const { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count(); }
  std::chrono::steady_clock::time_point t0;
};

struct Shape {
  void grow() { size_ *= 2; }  // no clock
  int size_ = 1;
};

__global__ void add_one(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}
__global__ void twice(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}
__global__ void zero(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = 0;
}

void with_benchmark(int *v, int n) {
  Benchmark bench;
  bench.record();
  add_one<<<(n + 255) / 256, 256>>>(v, n);  // want LL002 "add_one"
  cudaDeviceSynchronize();
  printf("%f s\n", bench.since());
}

void with_span(int *v, int n) {
  Span span;
  twice<<<(n + 255) / 256, 256>>>(v, n);  // want LL002 "twice"
  cudaDeviceSynchronize();
  printf("%f ms\n", span.ms());
}

void with_kokkos_timer(int *v, int n) {
  Kokkos::Timer timer;
  zero<<<(n + 255) / 256, 256>>>(v, n);  // want LL002 "zero"
  cudaDeviceSynchronize();
  printf("%f s\n", timer.seconds());
}

void with_shape(int *v, int n, Shape s) {
  s.grow();
  zero<<<(n + 255) / 256, 256>>>(v, n);  // ok: Shape's methods read no clock
  s.grow();
}

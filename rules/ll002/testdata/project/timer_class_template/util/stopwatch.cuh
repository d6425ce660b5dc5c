// A timer class template with one partial specialization per kind of
// clock; the GPU's records CUDA events. Its methods are defined out of
// line, each qualified with the specialization's template arguments.
#pragma once
#include <chrono>
#include <cstdio>

namespace perf {

enum clock_kind { CPU, GPU };

template <clock_kind K, typename Unit = std::milli>
class Stopwatch;

template <typename Unit>
class Stopwatch<GPU, Unit> {
 public:
  Stopwatch();
  void start();
  void stop();
  void report(const char *what) const;

 private:
  cudaEvent_t begin_, end_;
  float ms_ = 0;
};

template <typename Unit>
Stopwatch<GPU, Unit>::Stopwatch() {
  cudaEventCreate(&begin_);
  cudaEventCreate(&end_);
}

template <typename Unit>
void Stopwatch<GPU, Unit>::start() {
  cudaEventRecord(begin_, 0);
}

template <typename Unit>
void Stopwatch<GPU, Unit>::stop() {
  cudaEventRecord(end_, 0);
  cudaEventSynchronize(end_);
  cudaEventElapsedTime(&ms_, begin_, end_);
}

template <typename Unit>
void Stopwatch<GPU, Unit>::report(const char *what) const {
  printf("%s: %.3f ms\n", what, ms_);
}

}  // namespace perf

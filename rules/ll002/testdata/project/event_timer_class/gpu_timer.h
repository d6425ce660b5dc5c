// A benchmark suite's timer of CUDA events: construction records the
// start, milliseconds() records the end and reads the time between.
#pragma once
#include <cuda_runtime.h>

class EventStopwatch {
 public:
  EventStopwatch() {
    cudaEventCreate(&begin_);
    cudaEventCreate(&end_);
    cudaEventRecord(begin_, 0);
  }
  ~EventStopwatch() {
    cudaEventDestroy(begin_);
    cudaEventDestroy(end_);
  }
  float milliseconds() {
    float ms = 0;
    cudaEventRecord(end_, 0);
    cudaEventSynchronize(end_);
    cudaEventElapsedTime(&ms, begin_, end_);
    return ms;
  }
  float seconds() { return milliseconds() / 1000.0f; }

 private:
  cudaEvent_t begin_, end_;
};

// Records events to order two streams: no timer.
class StreamFence {
 public:
  StreamFence() { cudaEventCreate(&e_); }
  void signal(cudaStream_t s) { cudaEventRecord(e_, s); }
  void wait(cudaStream_t s) { cudaStreamWaitEvent(s, e_, 0); }

 private:
  cudaEvent_t e_;
};

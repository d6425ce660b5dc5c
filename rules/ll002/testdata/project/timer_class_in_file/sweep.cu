// A timer class defined in the file that times with it: its constructor
// starts it through another method, and Elapsed() reads the time since.
#include <cstdio>
#include <chrono>

class SpanTimer {
 public:
  SpanTimer() { Mark(); }
  void Mark() { t0_ = std::chrono::steady_clock::now(); }
  double Elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  std::chrono::steady_clock::time_point t0_;
};

__global__ void relu(float *x, int n) {}
__global__ void gelu(float *x, int n) {}

void relu_rate(float *x, int n) {
  SpanTimer span;
  long runs = 0;
  while (span.Elapsed() < 0.02) {
    relu<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "relu"
    cudaDeviceSynchronize();
    runs++;
  }
  printf("relu: %.1f runs/s\n", runs / span.Elapsed());
}

void gelu_rate(float *x, int n) {
  gelu<<<(n + 255) / 256, 256>>>(x, n);
  cudaDeviceSynchronize();
  SpanTimer span;
  long runs = 0;
  while (span.Elapsed() < 0.02) {
    gelu<<<(n + 255) / 256, 256>>>(x, n);  // ok: checked once before the timer was declared
    cudaDeviceSynchronize();
    runs++;
  }
  printf("gelu: %.1f runs/s\n", runs / span.Elapsed());
}

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

__global__ void axpy(float *x, int n) {}
__global__ void scale(float *x, int n) {}

// Two timers of one name in two scopes (a one-shot probe in a block, then
// a solve timed on its own): the first is gone before the second is
// declared, so what runs between them is measured by neither.
void probe_then_solve(float *x, int n) {
  {
    SpanTimer span;
    axpy<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "axpy"
    cudaDeviceSynchronize();
    printf("probe: %.3f s\n", span.Elapsed());
  }
  scale<<<(n + 255) / 256, 256>>>(x, n);  // ok: after the first timer's scope, before the second timer
  cudaDeviceSynchronize();
  SpanTimer span;
  axpy<<<(n + 255) / 256, 256>>>(x, n);  // ok: warmed by the probe
  cudaDeviceSynchronize();
  printf("solve: %.3f s\n", span.Elapsed());
}

__global__ void bias(float *x, int n) {}
__global__ void clip(float *x, int n) {}

// A timer shadowed in a nested block: the reads inside the block are the
// inner timer's, and the outer one, never read, measures nothing.
void shadowed_timer(float *x, int n) {
  SpanTimer span;
  clip<<<(n + 255) / 256, 256>>>(x, n);  // ok: only the outer timer runs, and it is never read
  cudaDeviceSynchronize();
  {
    SpanTimer span;
    bias<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "bias"
    cudaDeviceSynchronize();
    printf("inner: %.3f s\n", span.Elapsed());
  }
}

// Throughput of matrix operations, each timed for a fixed window; the
// operations are methods whose kernels live two files away.
#include <chrono>
#include <cstdio>
#include "../dense.h"

static double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The object is of the derived class; ClampBelow is the base's.
void speed_clamp(int dim) {
  Dense<float> m(dim, dim);
  double t0 = now_seconds();
  int iters = 0;
  for (; now_seconds() - t0 < 0.02; iters++) {
    m.ClampBelow(0.5f);  // want LL002 "clamp_below_kernel"
  }
  printf("clamp: %.1f ops/s\n", iters / (now_seconds() - t0));
}

// Called once before the window opens: warm.
void speed_rescale(int dim) {
  Dense<float> m(dim, dim);
  m.Rescale(1.0f);
  double t0 = now_seconds();
  int iters = 0;
  for (; now_seconds() - t0 < 0.02; iters++) {
    m.Rescale(2.0f);  // ok: the first call ran before the timer started
  }
  printf("rescale: %.1f ops/s\n", iters / (now_seconds() - t0));
}

// Through a reference to the base class.
void speed_fill(DenseBase<float> &m) {
  auto start = std::chrono::steady_clock::now();
  m.Fill(0.0f);  // want LL002 "fill_kernel"
  auto stop = std::chrono::steady_clock::now();
  printf("fill: %.3f ms\n", std::chrono::duration<double, std::milli>(stop - start).count());
}

// Histogram::Fill counts on the host: same method name, another class.
void speed_histogram() {
  Histogram h;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; i++) h.Fill(i * 0.5f);  // ok: Histogram::Fill launches nothing
  auto stop = std::chrono::steady_clock::now();
  printf("histogram: %.3f ms\n", std::chrono::duration<double, std::milli>(stop - start).count());
}

int main() {
  speed_clamp(1024);
  speed_rescale(1024);
  Dense<float> m(64, 64);
  speed_fill(m);
  speed_histogram();
  return 0;
}

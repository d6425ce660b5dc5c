// Throughput loops timed with the project's own timer classes, which other
// files of the project define.
#include <cstdio>
#include "../common/wall_timer.h"
#include "../common/chronometer.hpp"
#include "../common/tally.hpp"

__global__ void axpy(float a, const float *x, float *y, int n) {}
__global__ void dot_partial(const float *x, const float *y, float *out, int n) {}
__global__ void scale_rows(float *m, int rows, int cols) {}
__global__ void clear_rows(float *m, int rows, int cols) {}

// Runs as many launches as fit in a fixed window; the first one loads the
// kernel inside it.
void axpy_rate(const float *x, float *y, int n) {
  WallTimer wt;
  int iters = 0;
  for (; wt.Elapsed() < 0.02; iters++) {
    axpy<<<(n + 255) / 256, 256>>>(2.f, x, y, n);  // want LL002 "axpy"
    cudaDeviceSynchronize();
  }
  printf("axpy: %.1f launches/s\n", iters / wt.Elapsed());
}

// The same, after one call checked the result: warm.
void dot_rate(const float *x, const float *y, float *out, int n) {
  dot_partial<<<(n + 255) / 256, 256>>>(x, y, out, n);
  cudaDeviceSynchronize();
  WallTimer wt;
  int iters = 0;
  for (; wt.Elapsed() < 0.02; iters++) {
    dot_partial<<<(n + 255) / 256, 256>>>(x, y, out, n);  // ok: launched once before the timer started
    cudaDeviceSynchronize();
  }
  printf("dot: %.1f launches/s\n", iters / wt.Elapsed());
}

void scale_time(float *m, int rows, int cols) {
  Chronometer ch;
  ch.Start();
  scale_rows<<<rows, 128>>>(m, rows, cols);  // want LL002 "scale_rows"
  cudaDeviceSynchronize();
  ch.Stop();
  printf("scale: %.3f s\n", ch.Total());
}

void clear_count(float *m, int rows, int cols) {
  Tally items;
  items.Start();
  clear_rows<<<rows, 128>>>(m, rows, cols);  // ok: Tally reads no clock
  items.Add(rows);
  items.Stop();
  printf("cleared %.0f rows\n", items.Total());
}

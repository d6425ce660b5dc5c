// A solve timed with the library's stopwatch, and per-phase stopwatches
// that start when constructed, are zeroed right away, and are only run by
// callbacks elsewhere: what runs after their reset() is not measured.
#include <cstdio>
#include "../lib/stopwatch.h"

__global__ void diagonal(float *d, int n) {}
__global__ void vcycle(float *x, const float *b, int n) {}
__global__ void residual(float *r, const float *x, int n) {}

void setup_diagonal(float *d, int n) { diagonal<<<n / 256, 256>>>(d, n); }

void solve(float *x, const float *b, float *d, int n) {
  solverlib::Stopwatch smoother_time;
  smoother_time.reset();
  setup_diagonal(d, n);  // ok: the phase stopwatch was zeroed and stopped
  solverlib::Stopwatch total(1);
  vcycle<<<n / 256, 256>>>(x, b, n);  // want LL002 "vcycle"
  total.stop();
  printf("solve %.3f s, smoother %.3f s\n", total.lap(), smoother_time.lap());
}

void check(float *r, const float *x, int n) {
  residual<<<n / 256, 256>>>(r, x, n);
  solverlib::Stopwatch sw;
  residual<<<n / 256, 256>>>(r, x, n);  // ok: launched once before the stopwatch started
  sw.stop();
  printf("residual %.3f s\n", sw.lap());
}

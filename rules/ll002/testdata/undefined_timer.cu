// A header defines the timing switch and the file takes it back before
// its code: `#undef TIMER` outside any conditional, no #define after it.
// The timer's code never compiles; a switch defined again does.
#include <cstdio>
#include <sys/time.h>

#define TIMER
#define TRACE_TIMES
#undef TIMER
#undef TRACE_TIMES
#define TRACE_TIMES 1

__global__ void diffuse(float *x, int n) {}
__global__ void reduce(float *x, int n) {}

static double now() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

void step(float *x, int n) {
#ifdef TIMER
  double t0 = now();
#endif
  diffuse<<<n / 256, 256>>>(x, n);  // ok: the timer is never compiled
#ifdef TIMER
  printf("diffuse: %f s\n", now() - t0);
#endif
}

void total(float *x, int n) {
#ifdef TRACE_TIMES
  double t0 = now();
#endif
  reduce<<<n / 256, 256>>>(x, n);  // want LL002 "reduce"
#ifdef TRACE_TIMES
  printf("reduce: %f s\n", now() - t0);
#endif
}

// A stopwatch kept in file-level statics: tic() reads the clock into it
// and toc_ms() reads the clock again and subtracts it (timersub), each
// with a Windows variant the other build never compiles: one read a build.
// (project/global_stopwatch_header has the samples' spelling in a header.)
#include <stdio.h>
#include <sys/time.h>

#if defined(_WIN32) || defined(_WIN64)
#include <windows.h>
static LARGE_INTEGER freq, t0;
#else
static struct timeval t0;
#endif

static void tic(void) {
#if defined(_WIN32) || defined(_WIN64)
  QueryPerformanceFrequency(&freq);
  QueryPerformanceCounter(&t0);
#else
  gettimeofday(&t0, 0);
#endif
}

static double toc_ms(void) {
#if defined(_WIN32) || defined(_WIN64)
  LARGE_INTEGER t1;
  QueryPerformanceCounter(&t1);
  return 1000.0 * (double)(t1.QuadPart - t0.QuadPart) / (double)freq.QuadPart;
#else
  struct timeval t1, dt;
  gettimeofday(&t1, 0);
  timersub(&t1, &t0, &dt);
  return 1e3 * dt.tv_sec + 1e-3 * dt.tv_usec;
#endif
}

__global__ void relax(double *u, int n) {}
__global__ void residual(double *u, double *r, int n) {}

// Reads the clock into a local of its own: a log line, no stopwatch.
static void log_stamp(const char *what) {
  struct timeval now;
  gettimeofday(&now, 0);
  printf("%s at %ld.%06ld\n", what, (long)now.tv_sec, (long)now.tv_usec);
}

void logged(double *u, int n) {
  log_stamp("relax");
  relax<<<n / 256, 256>>>(u, n);  // ok: two log lines are no measurement
  log_stamp("relaxed");
}

int main() {
  double *u = 0, *r = 0;
  int n = 1 << 20;
  cudaMalloc(&u, n * sizeof(double));
  cudaMalloc(&r, n * sizeof(double));
  residual<<<n / 256, 256>>>(u, r, n);  // untimed: the first residual
  tic();
  int sweeps = 0;
  while (sweeps < 100) {
    relax<<<n / 256, 256>>>(u, n);  // want LL002 "relax"
    residual<<<n / 256, 256>>>(u, r, n);  // ok: launched before tic()
    ++sweeps;
  }
  cudaDeviceSynchronize();
  double elapsed = toc_ms();
  printf("%d sweeps in %.3f ms\n", sweeps, elapsed);
  return 0;
}

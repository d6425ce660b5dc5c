// A stopwatch kept in a global: StartTimer() reads the clock into it and
// GetTimer() reads the clock again and subtracts it (timersub), each with
// a Windows variant the other build never compiles: one read a build.
#include <stdio.h>
#include <sys/time.h>

#ifdef WIN32
#include <windows.h>
double PCFreq = 0.0;
__int64 timerStart = 0;
#else
struct timeval timerStart;
#endif

void StartTimer() {
#ifdef WIN32
  LARGE_INTEGER li;
  QueryPerformanceFrequency(&li);
  PCFreq = (double)li.QuadPart / 1000.0;
  QueryPerformanceCounter(&li);
  timerStart = li.QuadPart;
#else
  gettimeofday(&timerStart, NULL);
#endif
}

// Time elapsed since StartTimer, in ms.
double GetTimer() {
#ifdef WIN32
  LARGE_INTEGER li;
  QueryPerformanceCounter(&li);
  return (double)(li.QuadPart - timerStart) / PCFreq;
#else
  struct timeval timerStop, timerElapsed;
  gettimeofday(&timerStop, NULL);
  timersub(&timerStop, &timerStart, &timerElapsed);
  return timerElapsed.tv_sec * 1000.0 + timerElapsed.tv_usec / 1000.0;
#endif
}

__global__ void red_sweep(float *t, int n) {}
__global__ void black_sweep(float *t, int n) {}

void solve(float *t, int n, int iterations) {
  StartTimer();
  for (int it = 0; it < iterations; ++it) {
    red_sweep<<<n / 128, 128>>>(t, n);  // want LL002 "red_sweep"
    black_sweep<<<n / 128, 128>>>(t, n);  // want LL002 "black_sweep"
  }
  cudaDeviceSynchronize();
  double runtime = GetTimer();
  printf("GPU: %f s\n", runtime / 1000.0);
}

void solve_warm(float *t, int n, int iterations) {
  red_sweep<<<n / 128, 128>>>(t, n);
  StartTimer();
  red_sweep<<<n / 128, 128>>>(t, n);  // ok: launched before the timer
  cudaDeviceSynchronize();
  printf("GPU: %f ms\n", GetTimer());
}

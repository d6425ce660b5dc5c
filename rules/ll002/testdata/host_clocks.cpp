// Host clocks: std::chrono, clock_gettime, gettimeofday, omp_get_wtime.
#include <chrono>
#include <ctime>
#include <sys/time.h>
#include <omp.h>
#include <cuda_runtime.h>

__global__ void stencil(const float *in, float *out, int n) {}
__global__ void transpose(const float *in, float *out, int n) {}
__global__ void histogram(const int *in, int *bins, int n) {}

using Clock = std::chrono::steady_clock;

double chrono_cold(const float *in, float *out, int n) {
  auto t0 = std::chrono::high_resolution_clock::now();
  stencil<<<n / 128, 128>>>(in, out, n);  // want LL002 "stencil.*host clock"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

double chrono_alias_warm(const float *in, float *out, int n) {
  stencil<<<n / 128, 128>>>(in, out, n);  // ok: warm-up before the clock starts
  cudaDeviceSynchronize();
  auto t0 = Clock::now();
  stencil<<<n / 128, 128>>>(in, out, n);  // ok: second launch
  cudaDeviceSynchronize();
  auto t1 = Clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

double posix_clock(const float *in, float *out, int n) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n);  // want LL002 "transpose"
  cudaDeviceSynchronize();
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
}

double tod(const int *in, int *bins, int n) {
  timeval a, b;
  gettimeofday(&a, nullptr);
  void *args[] = {&in, &bins, &n};
  cudaLaunchKernel((const void *)histogram, dim3(n / 256), dim3(256), args, 0, nullptr);  // want LL002 "histogram"
  cudaDeviceSynchronize();
  gettimeofday(&b, nullptr);
  return (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_usec - a.tv_usec) / 1e3;
}

double openmp(const int *in, int *bins, int n) {
  cudaFuncSetAttribute(histogram, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024);
  double t = omp_get_wtime();
  histogram<<<n / 256, 256, 48 * 1024>>>(in, bins, n);  // ok: cudaFuncSetAttribute loaded the kernel
  cudaDeviceSynchronize();
  return omp_get_wtime() - t;
}

double untimed(const float *in, float *out, int n) {
  transpose<<<1, 1>>>(in, out, n);  // ok: no clock in this function
  return 0;
}

// A warm-up iteration written into the timed loop: the timer starts at
// i == 0, after iteration -1 ran every launch.
double warmup_iteration(const float *in, float *out, int n, int iterations) {
  struct timespec a, b;
  for (int i = -1; i < iterations; i++) {
    if (i == 0) {
      clock_gettime(CLOCK_MONOTONIC, &a);
    }
    stencil<<<n / 128, 128>>>(in, out, n);  // ok: iteration -1 loaded the kernel before the timer started
  }
  cudaDeviceSynchronize();
  clock_gettime(CLOCK_MONOTONIC, &b);
  return (b.tv_sec - a.tv_sec) * 1e3;
}

// The timer starts unconditionally inside the loop: each iteration is
// timed, the first one with the load.
double every_iteration(const float *in, float *out, int n, int iterations) {
  double total = 0;
  for (int i = 0; i < iterations; i++) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    histogram<<<n / 256, 256>>>((const int *)in, (int *)out, n);  // want LL002 "histogram"
    cudaDeviceSynchronize();
    clock_gettime(CLOCK_MONOTONIC, &b);
    total += b.tv_nsec - a.tv_nsec;
  }
  return total;
}

// The timer starts under a condition on something else than the loop
// variable: it starts on the first iteration, with the first launch.
double rank_zero_times(const float *in, float *out, int n, int rank) {
  struct timespec a, b;
  for (int size = 1024; size < n; size *= 2) {
    if (rank == 0) {
      clock_gettime(CLOCK_MONOTONIC, &a);
    }
    transpose<<<size / 32, 32>>>(in, out, size);  // want LL002 "transpose"
    clock_gettime(CLOCK_MONOTONIC, &b);
  }
  return b.tv_nsec - a.tv_nsec;
}

// Two measurements one after the other, each with its own warm-up: the
// code between the first one's stop and the second one's start (the second
// kernel's warm-up loop) is measured by nothing: the program subtracts
// done_fwd - start_fwd and done_bwd - start_bwd, never start_bwd - done_fwd.
void forward_then_backward(const float *in, float *out, int n, double *ms) {
  for (int i = 0; i < 3; i++) stencil<<<n / 128, 128>>>(in, out, n);
  cudaDeviceSynchronize();
  const auto start_fwd = std::chrono::high_resolution_clock::now();
  stencil<<<n / 128, 128>>>(in, out, n);  // ok: warmed up above
  cudaDeviceSynchronize();
  const auto done_fwd = std::chrono::high_resolution_clock::now();
  for (int i = 0; i < 3; i++) transpose<<<n / 32, 32>>>(in, out, n);  // ok: between two measurements
  cudaDeviceSynchronize();
  const auto first_bwd = std::chrono::high_resolution_clock::now();
  transpose<<<n / 32, 32>>>(in, out, n);  // ok: warmed up in the loop above
  cudaDeviceSynchronize();
  const auto last_bwd = std::chrono::high_resolution_clock::now();
  ms[0] = std::chrono::duration<double, std::milli>(done_fwd - start_fwd).count();
  ms[1] = std::chrono::duration<double, std::milli>(last_bwd - first_bwd).count();
}

// The same shape with a subtraction that does pair the reads across the
// gap: the histogram launch there is measured.
void measured_gap(const int *in, int *bins, int n, double *ms) {
  const auto a = std::chrono::steady_clock::now();
  const auto b = std::chrono::steady_clock::now();
  histogram<<<n / 256, 256>>>(in, bins, n);  // want LL002 "histogram"
  cudaDeviceSynchronize();
  const auto c = std::chrono::steady_clock::now();
  ms[0] = std::chrono::duration<double, std::milli>(b - a).count();
  ms[1] = std::chrono::duration<double, std::milli>(c - b).count();
}

double elapsed_ms(long long from, long long to);
long long get_time();  // a gettimeofday helper of the project's header

// Pairs the code compares through a helper, whatever their names say: the
// time from end_copy to start_back is printed as the kernel's time.
void helper_compared(const float *in, float *out, int n) {
  long long start_copy = get_time();
  long long end_copy = get_time();
  stencil<<<n / 128, 128>>>(in, out, n);  // want LL002 "stencil"
  cudaDeviceSynchronize();
  long long start_back = get_time();
  long long end_back = get_time();
  elapsed_ms(start_copy, end_copy);
  elapsed_ms(end_copy, start_back);
  elapsed_ms(start_back, end_back);
}

// Phases timed from a variable that copies the previous read.
void phases(const float *in, float *out, int n, double *s) {
  auto t_phase = std::chrono::steady_clock::now();
  auto t_now = std::chrono::steady_clock::now();
  s[0] = std::chrono::duration<double>(t_now - t_phase).count();
  t_phase = t_now;
  transpose<<<n / 32, 32>>>(in, out, n);  // want LL002 "transpose"
  cudaDeviceSynchronize();
  auto t_next = std::chrono::steady_clock::now();
  s[1] = std::chrono::duration<double>(t_next - t_phase).count();
}

__global__ void pack(const float *in, float *out, int n) {}

// Two intervals measured one after the other: the end of the first and
// the start of the second are never combined, and the launch between them
// is in neither.
void two_intervals(const float *in, float *out, int n, double *s) {
  auto sync_begin = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  auto sync_end = std::chrono::steady_clock::now();
  s[0] = std::chrono::duration<double>(sync_end - sync_begin).count();
  pack<<<n / 128, 128>>>(in, out, n);  // ok: between two measured intervals
  auto copy_begin = std::chrono::steady_clock::now();
  cudaMemcpy(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice);
  auto copy_end = std::chrono::steady_clock::now();
  s[1] = std::chrono::duration<double>(copy_end - copy_begin).count();
}

__global__ void profile_me(const float *in, float *out, int n) {}
__global__ void rate_me(const float *in, float *out, int n) {}

struct StopWatchInterface;
void sdkCreateTimer(StopWatchInterface **t);
void sdkStartTimer(StopWatchInterface **t);
void sdkStopTimer(StopWatchInterface **t);
float sdkGetTimerValue(StopWatchInterface **t);

// A stopwatch started and stopped around a section for a profiler, and
// never read: it measures for nobody.
void profiled_section(const float *in, float *out, int n) {
  StopWatchInterface *section = nullptr;
  sdkCreateTimer(&section);
  sdkStartTimer(&section);
  profile_me<<<n / 128, 128>>>(in, out, n);  // ok: the stopwatch is never read
  cudaDeviceSynchronize();
  sdkStopTimer(&section);
}

// The same stopwatch read afterwards: a measurement.
float rated_section(const float *in, float *out, int n) {
  StopWatchInterface *section = nullptr;
  sdkCreateTimer(&section);
  sdkStartTimer(&section);
  rate_me<<<n / 128, 128>>>(in, out, n);  // want LL002 "rate_me"
  cudaDeviceSynchronize();
  sdkStopTimer(&section);
  return sdkGetTimerValue(&section);
}

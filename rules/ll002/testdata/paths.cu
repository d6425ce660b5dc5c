// Paths, not lines: a launch in each branch of an if/else is the first on
// its own path; code the preprocessor removes is no code; a clock read
// stored and never read again measures nothing.
#include <chrono>
#include <cstdio>
#include <ctime>

#define WITH_EXTRA_PASS 0

__global__ void pass_a(float *x) { x[0] += 1.0f; }
__global__ void pass_b(float *x) { x[0] += 2.0f; }
__global__ void pass_c(float *x) { x[0] += 3.0f; }
__global__ void pass_d(float *x) { x[0] += 4.0f; }
__global__ void pass_e(float *x) { x[0] += 5.0f; }

void either(float *x, bool fast) {
  auto t0 = std::chrono::steady_clock::now();
  if (fast) {
    pass_a<<<1, 1>>>(x);  // want LL002 "pass_a"
  } else {
    pass_a<<<1, 1>>>(x);  // want LL002 "pass_a"
  }
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f s\n", std::chrono::duration<double>(t1 - t0).count());
}

void warmed_before_branch(float *x, bool fast) {
  pass_b<<<1, 1>>>(x);  // warm-up on every path
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  if (fast) {
    pass_b<<<1, 1>>>(x);  // ok: warmed before the branch
  } else {
    pass_b<<<1, 1>>>(x);  // ok: warmed before the branch
  }
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f s\n", std::chrono::duration<double>(t1 - t0).count());
}

void sweep(float *x, int n) {
  for (int i = 0; i < n; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    if (i == 0) {
      pass_c<<<1, 1>>>(x);  // want LL002 "pass_c"
    } else {
      pass_c<<<1, 1>>>(x);  // ok: the first iteration took the other branch and loaded it
    }
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    printf("%d: %f s\n", i, std::chrono::duration<double>(t1 - t0).count());
  }
}

void compiled_out(float *x) {
  auto t0 = std::chrono::steady_clock::now();
#if WITH_EXTRA_PASS
  pass_d<<<1, 1>>>(x);  // ok: WITH_EXTRA_PASS is 0, this is not compiled
#endif
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f s\n", std::chrono::duration<double>(t1 - t0).count());
}

void stamped(float *x) {
  auto begun = std::chrono::system_clock::now();
  pass_d<<<1, 1>>>(x);  // ok: begun is never read: nothing is measured
  cudaDeviceSynchronize();
  auto logged = std::chrono::system_clock::now();
  std::time_t when = std::chrono::system_clock::to_time_t(logged);
  printf("done at %s", std::ctime(&when));
}

// The launch exists only under a condition the build sets: the fix may
// not put its preload outside the guard, so it offers none.
void guarded(float *x) {
  auto t0 = std::chrono::steady_clock::now();
#ifdef WITH_PROFILING_PASS
  pass_e<<<1, 1>>>(x);  // want LL002 "pass_e"
#endif
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f s\n", std::chrono::duration<double>(t1 - t0).count());
}

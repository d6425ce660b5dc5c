// Launches spelled through macros without parameters: a file-scope
// shorthand, and a dispatch macro written inside the function that uses
// it, its template arguments over several lines.
#include <cstdio>

template <int Window, bool Filter>
__global__ void sweep(float *depth, int n) { depth[0] = Window; }
__global__ void smooth(float *depth, int n) {}

#define THREADS 128
#define SMOOTH_PASS smooth<<<(n + THREADS - 1) / THREADS, THREADS>>>(depth, n)

static float elapsed(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  cudaEventElapsedTime(&ms, from, to);
  return ms;
}

void refine(float *depth, int n, int iterations) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int it = 0; it < iterations; ++it) {
#define SWEEP_STEP                    \
  sweep<5,                            \
        true>                         \
      <<<(n + THREADS - 1) / THREADS, \
         THREADS>>>(depth, n)
    SWEEP_STEP;  // want LL002 "sweep<5,true>"
#undef SWEEP_STEP
  }
  SMOOTH_PASS;  // want LL002 "smooth"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("refine: %.3f ms\n", elapsed(start, stop));
}

void smooth_warmed(float *depth, int n) {
  SMOOTH_PASS;  // the warm-up
  cudaDeviceSynchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  SMOOTH_PASS;  // ok: launched once before the timer
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("smooth: %.3f ms\n", elapsed(start, stop));
}

// A statement macro (its body ends with `;`) used without one, alone on
// its line before a `}`: still a launch.
void refine_branches(float *depth, int n, bool filter) {
#define SWEEP_FILTERED sweep<7, true><<<(n + THREADS - 1) / THREADS, THREADS>>>(depth, n);
#define SWEEP_PLAIN sweep<7, false><<<(n + THREADS - 1) / THREADS, THREADS>>>(depth, n);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (filter) {
    SWEEP_FILTERED  // want LL002 "sweep<7,true>"
  } else {
    SWEEP_PLAIN  // want LL002 "sweep<7,false>"
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("refine: %.3f ms\n", elapsed(start, stop));
}

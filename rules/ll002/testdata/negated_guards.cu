// A benchmark with two variants preloads the shared-memory kernels only
// when it runs them, and picks the variant again inside the timed region
// with the flag's negation: the else branch of `if (!big)` is the then
// branch of `if (big)`.
#include <cstdio>

__global__ void sweep_plain(float *x) { x[0] = 1; }
__global__ void sweep_big(float *x) {
  extern __shared__ float tile[];
  tile[0] = x[0];
  x[0] = tile[0];
}

static float elapsed(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  cudaEventElapsedTime(&ms, from, to);
  return ms;
}

void variants(float *d, bool big) {
  if (big) {
    cudaFuncSetAttribute(sweep_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304);
  }
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (!big) {
    sweep_plain<<<80, 256>>>(d);  // want LL002 "sweep_plain"
  } else {
    sweep_big<<<80, 256, 98304>>>(d);  // ok: preloaded whenever this branch runs
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("%.3f ms\n", elapsed(start, stop));
}

// The warm-up runs unless asked to skip it; the timed launch in the else
// branch of `if (skip)` runs only when it ran.
void skippable_warmup(float *d, bool skip) {
  if (!skip) {
    sweep_plain<<<80, 256>>>(d);
    cudaDeviceSynchronize();
  }
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (skip) {
    puts("no warm-up, no timing");
  } else {
    sweep_plain<<<80, 256>>>(d);  // ok: warmed up on this branch's runs
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("%.3f ms\n", elapsed(start, stop));
}

// The preload's branch and the launch's are not each other's: `!a && b`
// negates a alone.
void not_a_negation(float *d, bool a, bool b) {
  if (a && b) {
    cudaFuncSetAttribute(sweep_big, cudaFuncAttributeMaxDynamicSharedMemorySize, 98304);
  }
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (!a && b) {
    puts("plain");
  } else {
    sweep_big<<<80, 256, 98304>>>(d);  // want LL002 "sweep_big"
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("%.3f ms\n", elapsed(start, stop));
}

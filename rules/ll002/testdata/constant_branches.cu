// A sample picks its kernel with a macro it fixes at the top of the file:
// the branch the constant never takes launches nothing, and a warm-up
// there warms nothing up.
#include <cstdio>

#define USE_TILED_TRANSPOSE 0
#define WARM_UP 0
#ifndef USE_VECTOR_LOADS
#define USE_VECTOR_LOADS 0  // a default the build may change with -D
#endif

__global__ void transpose_tiled(float *out, const float *in) {}
__global__ void transpose_naive(float *out, const float *in) {}
__global__ void copy_vector(float *out, const float *in) {}
__global__ void copy_scalar(float *out, const float *in) {}

static float elapsed(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  cudaEventElapsedTime(&ms, from, to);
  return ms;
}

void transpose(float *out, const float *in) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (USE_TILED_TRANSPOSE)
    transpose_tiled<<<64, 256>>>(out, in);  // ok: never compiled in
  else
    transpose_naive<<<64, 256>>>(out, in);  // want LL002 "transpose_naive"
  if (!USE_TILED_TRANSPOSE) {
    transpose_naive<<<64, 256>>>(out, in);  // ok: the second launch
  } else {
    transpose_tiled<<<64, 256>>>(out, in);  // ok: never runs either
  }
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("transpose: %.3f ms\n", elapsed(start, stop));
}

// A warm-up the constant switches off runs on no path.
void copy(float *out, const float *in) {
  if (WARM_UP) {
    copy_scalar<<<64, 256>>>(out, in);
    cudaDeviceSynchronize();
  }
  if (0)
    copy_scalar<<<64, 256>>>(out, in);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  copy_scalar<<<64, 256>>>(out, in);  // want LL002 "copy_scalar"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("copy: %.3f ms\n", elapsed(start, stop));
}

// A default under #ifndef is the build's to change: both branches may run.
void copy_either(float *out, const float *in) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (USE_VECTOR_LOADS)
    copy_vector<<<64, 256>>>(out, in);  // want LL002 "copy_vector"
  else
    copy_scalar<<<64, 256>>>(out, in);  // want LL002 "copy_scalar"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("copy: %.3f ms\n", elapsed(start, stop));
}

// A switch made of another macro that the build may set is no constant.
#ifndef COPY_OPTIONS
#define COPY_OPTIONS 3
#endif
#define COPY_VECTOR ((COPY_OPTIONS & 4))

void copy_by_options(float *out, const float *in) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (COPY_VECTOR)
    copy_vector<<<64, 256>>>(out, in);  // want LL002 "copy_vector"
  else
    copy_scalar<<<64, 256>>>(out, in);  // want LL002 "copy_scalar"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("copy: %.3f ms\n", elapsed(start, stop));
}

// A constant of the file's scope is a switch too: `const int`, `constexpr`.
// A variable that is not const can be set elsewhere, and is none.
const int IN_CORE = 1;
constexpr bool kVectorCopy = false;
int use_vector = 0;

__global__ void relax_in_core(float *out, const float *in) {}
__global__ void relax_out_of_core(float *out, const float *in) {}

void relax(float *out, const float *in) {
  relax_in_core<<<64, 256>>>(out, in);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  if (IN_CORE)
    relax_in_core<<<64, 256>>>(out, in);  // ok: launched above
  else
    relax_out_of_core<<<64, 256>>>(out, in);  // ok: the constant never takes this branch
  if (kVectorCopy)
    copy_vector<<<64, 256>>>(out, in);  // ok: nor this one
  if (use_vector)
    copy_scalar<<<64, 256>>>(out, in);  // want LL002 "copy_scalar"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  printf("relax: %.3f ms\n", elapsed(start, stop));
}

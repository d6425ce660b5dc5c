// Runtime-API arena allocators sized from cudaMemGetInfo.
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_CHECK(call)                                                  \
  do {                                                                    \
    cudaError_t err_ = (call);                                            \
    if (err_ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      abort();                                                            \
    }                                                                     \
  } while (0)

#define ARENA_SLACK (32ull << 20)
#define SAFE_HEADROOM (1ull << 30)
static const double kArenaShare = 0.95;

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

void *arena_all_free() {
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  void *arena = nullptr;
  CUDA_CHECK(cudaMalloc(&arena, free_b));  // want LL001 "free memory"
  return arena;
}

void *arena_share_from_constant() {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  size_t bytes = static_cast<size_t>(free_b * kArenaShare);
  void *arena;
  cudaMalloc(&arena, bytes);  // want LL001 "free memory"
  return arena;
}

void *arena_minus_small_macro() {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  size_t bytes = free_b;
  bytes -= ARENA_SLACK;
  void *arena;
  cudaMalloc(&arena, bytes);  // want LL001 "free memory"
  return arena;
}

void *arena_of_total() {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  void *arena;
  // Integer arithmetic in the usual spelling: nine tenths of total memory.
  cudaMalloc(&arena, total_b / 10 * 9);  // want LL001 "total memory"
  return arena;
}

void managed_and_pitch(int rows) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  float *m;
  cudaMallocManaged((void **)&m, (free_b * 98) / 100, cudaMemAttachGlobal);  // want LL001 "free memory"
  // width free/rows times rows rows: all of free memory, whatever rows is.
  size_t pitch;
  void *img;
  cudaMallocPitch(&img, &pitch, free_b / rows, rows);  // want LL001 "free memory"
  scale<<<1, 32>>>(m, 2.0f, 32);
}

void safe_variants(float **out) {
  size_t free_b, total_b;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  printf("free %zu of %zu\n", free_b, total_b);  // ok: the query is only logged
  CUDA_CHECK(cudaMalloc(out, free_b / 2));  // ok: half of free memory leaves room for kernels
  void *pinned;
  CUDA_CHECK(cudaMallocHost(&pinned, free_b));  // ok: pinned host memory is not device memory
  void *stream_ordered;
  CUDA_CHECK(cudaMallocAsync(&stream_ordered, free_b, 0));  // want LL001 "cudaMallocAsync takes all of the free memory"
  void *headroom;
  CUDA_CHECK(cudaMalloc(&headroom, free_b - SAFE_HEADROOM));  // ok: 1 GiB of headroom
  void *fixed;
  CUDA_CHECK(cudaMalloc(&fixed, 64 << 20));  // ok: a fixed size unrelated to the query
  size_t budget = free_b;
  budget = 512u << 20;
  void *reassigned;
  CUDA_CHECK(cudaMalloc(&reassigned, budget));  // ok: the size was reassigned to a fixed budget first
}

void fraction_from_user(double user_fraction) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  void *p;
  cudaMalloc(&p, free_b * user_fraction);  // ok: the fraction is not known here
  const char *doc = "cudaMalloc(&p, free_b) would take everything";  // ok: text in a string
  // cudaMalloc(&p, free_b);  ok: code in a comment
}

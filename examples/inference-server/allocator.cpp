// Arena allocation: one version takes nearly all free memory (a lazy-loading
// hazard: kernels first launched later need device memory to load), one
// leaves headroom.
#include "allocator.h"

#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(expr)                                                   \
  do {                                                                     \
    cudaError_t status_ = (expr);                                          \
    if (status_ != cudaSuccess) {                                          \
      std::fprintf(stderr, "%s failed: %s\n", #expr, cudaGetErrorString(status_)); \
      std::abort();                                                        \
    }                                                                      \
  } while (0)

namespace infer {

namespace {
constexpr double kArenaFraction = 0.97;
constexpr size_t kMiB = 1 << 20;
}  // namespace

void Arena::reserve_most() {
  size_t free_bytes = 0, total_bytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  size_ = static_cast<size_t>(free_bytes * kArenaFraction);
  CHECK_CUDA(cudaMalloc(reinterpret_cast<void **>(&base_), size_));
  std::printf("arena: %zu MiB of %zu MiB\n", size_ / kMiB, total_bytes / kMiB);
}

void Arena::reserve_with_headroom(size_t headroom_bytes) {
  size_t free_bytes = 0, total_bytes = 0;
  CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  size_ = free_bytes > headroom_bytes ? free_bytes - headroom_bytes : 0;
  CHECK_CUDA(cudaMalloc(reinterpret_cast<void **>(&base_), size_));
}

void *Arena::take(size_t bytes) {
  if (used_ + bytes > size_) return nullptr;
  void *p = base_ + used_;
  used_ += (bytes + 255) & ~size_t(255);
  return p;
}

}  // namespace infer

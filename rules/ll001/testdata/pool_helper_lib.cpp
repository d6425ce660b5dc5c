// A helper of a library: no main here, so the program that calls it may
// well launch kernels while the block is held.
#include <cuda_runtime.h>

void *reserve_device(void) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  void *block = nullptr;
  cudaMalloc(&block, free_b - (16 << 20));  // want LL001 "free memory"
  return block;
}

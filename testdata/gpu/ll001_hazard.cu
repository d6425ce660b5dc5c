// LL001 hazard: the program takes all free device memory but 4 MiB for an
// arena, then launches its first kernel. Under lazy loading the kernel's
// module, with its 256 MiB lookup table, is loaded only now, and there is no
// memory left for it: the launch fails with out of memory. Under eager
// loading the module was loaded when the context was made, before the
// memory query, and the launch works.
#include "common.h"

__device__ char lookup_table[256 << 20];

__global__ void fill_table(int value) {
  lookup_table[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<char>(value);
}

int main() {
  size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  void *arena = nullptr;
  CHECK(cudaMalloc(&arena, free_bytes - (4 << 20)));
  std::printf("arena: %.1f MiB of %.1f MiB free\n", (free_bytes - (4 << 20)) / 1048576.0, free_bytes / 1048576.0);

  fill_table<<<1, 32>>>(7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("first launch after the arena: ok\n");
  CHECK(cudaFree(arena));
  return 0;
}

// LL001 fixed: the same arena, but it leaves 512 MiB of headroom for code
// and module data that load after it (the 256 MiB table of fill_table's
// module, with room to spare).
#include "common.h"

__device__ char lookup_table[256 << 20];

__global__ void fill_table(int value) {
  lookup_table[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<char>(value);
}

constexpr size_t kLoadHeadroom = size_t(512) << 20;

int main() {
  size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  void *arena = nullptr;
  CHECK(cudaMalloc(&arena, free_bytes - kLoadHeadroom));
  std::printf("arena: %.1f MiB of %.1f MiB free\n", (free_bytes - kLoadHeadroom) / 1048576.0, free_bytes / 1048576.0);

  fill_table<<<1, 32>>>(7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("first launch after the arena: ok\n");
  CHECK(cudaFree(arena));
  return 0;
}

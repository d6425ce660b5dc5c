// A benchmark of the allocator itself: the program launches no kernel and
// loads no module, so nothing can find the memory taken.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>
#include <vector>

static void *take_most() {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  void *block = nullptr;
  cudaMalloc(&block, free_b - (16 << 20));  // ok: the program never loads a kernel
  return block;
}

static void BM_carve(benchmark::State &state) {
  char *block = static_cast<char *>(take_most());
  std::vector<char *> pieces;
  for (auto _ : state) {
    pieces.push_back(block + pieces.size() * 256);
  }
  cudaFree(block);
}
BENCHMARK(BM_carve);

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}

// The benchmark hands each step to a timing helper of the suite's header:
// it spells no clock itself.
#include <cstdio>
#include "timing.cuh"

__global__ void compute_keys(unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) keys[i] = i * 2654435761u;
}
__global__ void build_tree(unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) keys[i] >>= 1;
}
__global__ void link_nodes(unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) keys[i] |= 1;
}
__global__ void count_leaves(unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) keys[i] &= 7;
}
__global__ void scan_keys(unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n) keys[i] += keys[i - 1];
}
__global__ void sort_keys(unsigned *keys, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n && keys[i] > keys[i + 1]) keys[i] = keys[i + 1];
}

void bench(unsigned *keys, int n) {
  float keys_ms = timeGpu([&]() {
    compute_keys<<<(n + 255) / 256, 256>>>(keys, n);  // want LL002 "compute_keys"
  });
  std::printf("keys: %.3f ms\n", keys_ms);

  build_tree<<<(n + 255) / 256, 256>>>(keys, n);  // warm-up
  cudaDeviceSynchronize();
  float build_ms = timeGpu([&]() {
    build_tree<<<(n + 255) / 256, 256>>>(keys, n);  // ok: launched before the helper times it
  });
  std::printf("build: %.3f ms\n", build_ms);

  auto link = [&]() {
    link_nodes<<<(n + 255) / 256, 256>>>(keys, n);  // want LL002 "link_nodes"
    cudaDeviceSynchronize();
  };
  double link_s = timeCpu(link);
  std::printf("link: %.3f s\n", link_s);

  double count_s = timeWarm([&]() {
    count_leaves<<<(n + 255) / 256, 256>>>(keys, n);  // ok: the helper runs it once before its timer
    cudaDeviceSynchronize();
  });
  std::printf("count: %.3f s\n", count_s);
}

// Two blocks each bind their own `step`: each call times its block's.
void two_blocks(unsigned *keys, int n) {
  {
    auto step = [&]() { scan_keys<<<(n + 255) / 256, 256>>>(keys, n); };  // want LL002 "scan_keys"
    std::printf("scan: %.3f ms\n", timeGpu(step));
  }
  {
    auto step = [&]() { sort_keys<<<(n + 255) / 256, 256>>>(keys, n); };  // want LL002 "sort_keys"
    std::printf("sort: %.3f ms\n", timeGpu(step));
  }
}

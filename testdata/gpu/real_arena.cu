// real_arena: a serving process that takes the GPU for its activation
// arena, written the way such code is: it first asks for the whole device
// (which fails, and is logged, in every mode), then backs off from the free
// memory it queried until an allocation succeeds, and treats a failed
// kernel launch as recoverable (it logs a warning and takes a host path),
// so the program exits 0 either way. Under lazy loading the first launch
// after the arena has to load a module with a 64 MiB table and finds no
// room: its warning appears only under LAZY, while the back-off's
// out-of-memory lines appear in both modes.
//
// gpu-check: - LL001 confirmed
#include <cstdio>
#include <cuda_runtime.h>

__device__ float g_scale[16 << 20];  // 64 MiB of module data, loaded with the module

__global__ void normalize(float *x, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) x[i] *= g_scale[i & ((16 << 20) - 1)];
}

static bool logged(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return true;
  std::printf("warning: %s: %s\n", what, cudaGetErrorString(e));
  cudaGetLastError();  // clear it: the caller carries on
  return false;
}

int main() {
  size_t free_bytes = 0, total_bytes = 0;
  if (!logged(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo")) return 1;
  void *arena = nullptr;
  size_t arena_bytes = total_bytes;
  if (!logged(cudaMalloc(&arena, arena_bytes), "arena of the whole device")) {
    arena_bytes = free_bytes;
    while (cudaMalloc(&arena, arena_bytes) != cudaSuccess) {
      cudaGetLastError();
      arena_bytes -= 2 << 20;
    }
  }
  std::printf("arena_mib=%zu of free_mib=%zu\n", arena_bytes >> 20, free_bytes >> 20);

  const size_t n = 1 << 20;
  normalize<<<(n + 255) / 256, 256>>>(static_cast<float *>(arena), n);
  if (logged(cudaGetLastError(), "normalize launch") && logged(cudaDeviceSynchronize(), "normalize")) {
    std::printf("normalized on the device\n");
  } else {
    std::printf("normalized on the host instead\n");
  }
  cudaFree(arena);
  return 0;
}

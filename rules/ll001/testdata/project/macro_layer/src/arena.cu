// The arena takes (nearly) all free memory through the macro layer of
// include/portable: only the project's headers say these are CUDA calls.
#include "portable/gpu.h"

__global__ void fill(float *p, int n) {}

void *take_everything() {
  size_t free_bytes = 0, total_bytes = 0;
  gpuMemGetInfo(&free_bytes, &total_bytes);
  void *arena = nullptr;
  gpuMalloc(&arena, free_bytes);  // want LL001 "free memory"
  fill<<<1, 1>>>(static_cast<float *>(arena), 1);
  return arena;
}

void *take_pasted() {
  size_t free_bytes = 0, total_bytes = 0;
  GPU_API(MemGetInfo)(&free_bytes, &total_bytes);
  void *arena = nullptr;
  GPU_API(Malloc)(&arena, free_bytes * 0.95);  // want LL001 "free memory"
  fill<<<1, 1>>>(static_cast<float *>(arena), 1);
  return arena;
}

void *take_a_quarter() {
  size_t free_bytes = 0, total_bytes = 0;
  gpuMemGetInfo(&free_bytes, &total_bytes);
  void *arena = nullptr;
  gpuMalloc(&arena, free_bytes / 4);  // ok: a quarter of free memory leaves room
  fill<<<1, 1>>>(static_cast<float *>(arena), 1);
  gpuFree(arena);
  return nullptr;
}

// A file whose own macro of the same name means something else: the
// file's definition wins over the header's.
#include "portable/gpu.h"
#undef gpuMalloc
#define gpuMalloc host_pool_malloc

void *host_pool_malloc(void **p, size_t n);

void *host_everything() {
  size_t free_bytes = 0, total_bytes = 0;
  gpuMemGetInfo(&free_bytes, &total_bytes);
  void *arena = nullptr;
  gpuMalloc(&arena, free_bytes);  // ok: this file's gpuMalloc is a host pool
  return arena;
}

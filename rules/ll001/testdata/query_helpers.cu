// The memory query behind a helper of the file: the size is still taken
// from free memory.
#include <cuda_runtime.h>

static void device_memory(size_t *free_out, size_t *total_out) {
  cudaMemGetInfo(free_out, total_out);
}

static void device_memory_ref(size_t &free_out, size_t &total_out) {
  cudaMemGetInfo(&free_out, &total_out);
}

static void fill_sizes(size_t *a, size_t *b) {
  *a = 1 << 20;  // not a query: fixed sizes
  *b = 2 << 20;
}

void *whole_free() {
  size_t avail = 0, all = 0;
  device_memory(&avail, &all);
  void *p = nullptr;
  cudaMalloc(&p, avail);  // want LL001 "all of the free memory"
  return p;
}

void *most_of_total() {
  size_t avail = 0, all = 0;
  device_memory(&avail, &all);
  void *p = nullptr;
  cudaMalloc(&p, all / 20 * 19);  // want LL001 "95% of the total memory"
  return p;
}

void *through_references() {
  size_t avail = 0, all = 0;
  device_memory_ref(avail, all);
  void *p = nullptr;
  cudaMalloc(&p, avail - (64 << 20));  // want LL001 "free memory"
  return p;
}

void *fixed() {
  size_t a = 0, b = 0;
  fill_sizes(&a, &b);
  void *p = nullptr;
  cudaMalloc(&p, a);  // ok: a fixed size, not a memory query
  return p;
}

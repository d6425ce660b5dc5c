// Allocations sized from free memory that are expected to fail, given
// back before anything loads, or retried until one fits.
#include <cuda.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }

TEST(Allocator, ReportsOutOfMemory) {
  size_t free_b, total_b;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  void *p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, total_b), cudaErrorMemoryAllocation);  // ok: the test expects the allocation to fail
  cudaError_t err = cudaMalloc(&p, free_b);  // ok: its result is asserted to be an out-of-memory error
  EXPECT_EQ(err, cudaErrorMemoryAllocation);
}

void largest_block(size_t *out) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  void *probe = nullptr;
  cudaMalloc(&probe, free_b);  // ok: freed again before anything launches
  *out = free_b;
  cudaFree(probe);
}

void hold_then_launch(float **keep) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaMalloc((void **)keep, free_b);  // want LL001 "takes all of the free memory reported by cudaMemGetInfo, leaving nothing"
  scale<<<1, 32>>>(*keep, 2.0f);
  cudaFree(*keep);
}

void share_of_free(float **out) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaMalloc((void **)out, free_b * 0.95);  // want LL001 "leaving 5% of it for kernels that load lazily later [(]under 256 MiB whenever less than 5 GiB is free[)]; subtract a fixed headroom of at least 256 MiB from the free memory"
}

void back_off(void **out) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  size_t size = free_b;
  while (cudaMalloc(out, size) != cudaSuccess) {  // want LL001 "retries with smaller sizes until an allocation succeeds"
    size -= 16 << 20;
  }
}

void driver_arena(CUdeviceptr *arena) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  cuMemAlloc(arena, free_b - (16 << 20));  // want LL001 "all but 16 MiB .* load every kernel first [(]cuModuleGetFunction"
}

void chunked_arena(CUdeviceptr *chunks, size_t chunk) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  size_t n = (size_t)(0.95 * free_b / chunk);
  for (size_t i = 0; i < n; ++i) {
    cuMemAlloc(&chunks[i], chunk);  // want LL001 "in a loop whose count comes from the memory query, cuMemAlloc takes 95% of the free memory"
  }
}

void chunked_half(CUdeviceptr *chunks, size_t chunk) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  size_t n = free_b / 2 / chunk;
  for (size_t i = 0; i < n; ++i) {
    cuMemAlloc(&chunks[i], chunk);  // ok: half of free memory in chunks leaves room
  }
}

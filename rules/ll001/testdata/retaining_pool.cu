// A stream-ordered pool told to keep every byte it is given back
// (release threshold at the maximum): memory freed with cudaFreeAsync stays
// with the pool, so a scratch buffer of all free memory, freed before the
// first launch, still leaves nothing for a kernel that loads lazily.
#include <cstdint>
#include <cuda_runtime.h>

__global__ void reduce_rows(const float *in, float *out) { out[blockIdx.x] = in[threadIdx.x]; }

void configure_pool(int device) {
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, device);
  uint64_t keep_everything = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything);
}

void warm_pool(cudaStream_t stream, float *out) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  void *scratch = nullptr;
  cudaMallocAsync(&scratch, free_b - (64 << 20), stream);  // want LL001 "takes"
  cudaFreeAsync(scratch, stream);
  reduce_rows<<<1, 32, 0, stream>>>(static_cast<float *>(scratch), out);
}

void fixed_scratch(cudaStream_t stream, float *out) {
  void *scratch = nullptr;
  cudaMallocAsync(&scratch, 256 << 20, stream);  // ok: a fixed size, whatever the pool keeps
  cudaFreeAsync(scratch, stream);
  reduce_rows<<<1, 32, 0, stream>>>(static_cast<float *>(scratch), out);
}

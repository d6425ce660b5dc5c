// Capacity probes and buffer pools built with loops, on both APIs.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CU_CHECK(x)                                                   \
  do {                                                                \
    CUresult r_ = (x);                                                \
    if (r_ != CUDA_SUCCESS) { std::fprintf(stderr, "%s\n", #x); std::abort(); } \
  } while (0)

constexpr int kStreams = 4;
constexpr size_t kStreamBytes = 16u << 20;

// Probe how much managed memory fits by taking it step by step, and give
// it all back before anything launches.
size_t probe_capacity(size_t step) {
  std::vector<void *> held;
  for (;;) {
    void *p = nullptr;
    if (cudaMallocManaged(&p, step) != cudaSuccess) break;  // ok: freed again before any launch
    held.push_back(p);
  }
  size_t capacity = held.size() * step;
  for (void *p : held) cudaFree(p);
  return capacity;
}

__global__ void touch(void *p) {}

// The same probe that launches while it still holds the memory.
size_t probe_and_touch(size_t step) {
  std::vector<void *> held;
  for (;;) {
    void *p = nullptr;
    if (cudaMallocManaged(&p, step) != cudaSuccess) break;  // want LL001 "until allocation fails"
    held.push_back(p);
  }
  touch<<<1, 1>>>(held[0]);
  for (void *p : held) cudaFree(p);
  return held.size() * step;
}

// hazard: keeps allocating until the driver reports out of memory
void fill_device(std::vector<CUdeviceptr> &blocks, size_t block) {
  while (true) {
    CUdeviceptr d = 0;
    CUresult err = cuMemAlloc_v2(&d, block);  // want LL001 "until allocation fails"
    if (err == CUDA_ERROR_OUT_OF_MEMORY) break;
    blocks.push_back(d);
  }
}

// hazard: the constant is written first, the loop still runs until failure
void reversed_comparison(std::vector<CUdeviceptr> &blocks, size_t block) {
  CUdeviceptr d;
  while (CUDA_SUCCESS == cuMemAlloc(&d, block)) {  // want LL001 "until allocation fails"
    blocks.push_back(d);
  }
}

// hazard: pitched images until allocation fails
void pitched_images(std::vector<CUdeviceptr> &images, size_t width, size_t height) {
  CUresult err;
  do {
    CUdeviceptr img;
    size_t pitch;
    err = cuMemAllocPitch(&img, &pitch, width, height, 16);  // want LL001 "until allocation fails"
    if (err == CUDA_SUCCESS) images.push_back(img);
  } while (err == CUDA_SUCCESS);
}

// hazard: a counted for loop with no condition ends only when cudaMalloc fails
int counted_grab(void **slots) {
  int i = 0;
  for (i = 0;; ++i) {
    if (cudaMalloc(&slots[i], 128u << 20) != cudaSuccess) {  // want LL001 "until allocation fails"
      break;
    }
  }
  return i;
}

void *shrink_until_it_fits(size_t bytes, size_t min_bytes) {
  void *p = nullptr;
  while (cudaMalloc(&p, bytes) != cudaSuccess) {  // ok: the loop ends at the first success, not at a failure
    bytes /= 2;
    if (bytes < min_bytes) return nullptr;
  }
  return p;
}

void *first_size_that_fits(size_t want, size_t min_bytes) {
  void *p = nullptr;
  for (size_t b = want; b >= min_bytes; b /= 2) {
    if (cudaMalloc(&p, b) == cudaSuccess) break;  // ok: breaks on success, not on failure
  }
  return p;
}

void per_stream_buffers(CUdeviceptr (&bufs)[kStreams]) {
  for (int i = 0; i < kStreams; ++i) {
    CU_CHECK(cuMemAlloc(&bufs[i], kStreamBytes));  // ok: kStreams buffers of 16 MiB; an error aborts
  }
}

void pinned_until_failure(std::vector<void *> &host, size_t chunk) {
  void *h;
  while (cudaMallocHost(&h, chunk) == cudaSuccess) {  // ok: pinned host memory, not device memory
    host.push_back(h);
  }
}

void bounded_with_return(std::vector<void *> &out, int count) {
  for (int i = 0; i < count; ++i) {
    void *p;
    cudaError_t e = cudaMalloc(&p, 1u << 20);  // ok: count buffers; a failure returns
    if (e != cudaSuccess) return;
    out.push_back(p);
  }
}

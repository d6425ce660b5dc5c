// Loops that allocate until an allocation fails.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

std::vector<void *> grab_chunks(size_t chunk) {
  std::vector<void *> chunks;
  void *p = nullptr;
  while (cudaMalloc(&p, chunk) == cudaSuccess) {  // want LL001 "until allocation fails"
    chunks.push_back(p);
  }
  return chunks;
}

int grab_with_break(std::vector<CUdeviceptr> &out, size_t chunk) {
  for (;;) {
    CUdeviceptr d;
    if (cuMemAlloc(&d, chunk) != CUDA_SUCCESS) {  // want LL001 "until allocation fails"
      break;
    }
    out.push_back(d);
  }
  return (int)out.size();
}

void grab_do_while(std::vector<CUdeviceptr> &out) {
  CUresult err;
  do {
    CUdeviceptr d;
    err = cuMemAlloc(&d, 64 << 20);  // want LL001 "until allocation fails"
    if (err == CUDA_SUCCESS) out.push_back(d);
  } while (err == CUDA_SUCCESS);
}

void grab_until_oom(std::vector<void *> &out) {
  while (true) {
    void *p;
    cudaError_t e = cudaMalloc(&p, 256 << 20);  // want LL001 "until allocation fails"
    if (e == cudaErrorMemoryAllocation) break;
    out.push_back(p);
  }
}

void retry_smaller(void **p, size_t bytes) {
  while (cudaMalloc(p, bytes) != cudaSuccess && bytes > (1 << 20)) {  // ok: retries until success with a smaller size; the loop does not run on success
    bytes /= 2;
  }
}

void checked_loop(std::vector<void *> &out, int n) {
  for (int i = 0; i < n; ++i) {
    void *p;
    if (cudaMalloc(&p, 1 << 20) != cudaSuccess) {  // ok: the error returns instead of ending a grab loop
      return;
    }
    out.push_back(p);
  }
}

// Sizes from NVML and from cudaDeviceProp, reached through struct fields,
// lambdas and checkCudaErrors-wrapped calls.
#include <cuda_runtime.h>
#include <nvml.h>
#include <cstdio>
#include <cstdlib>

#define checkCudaErrors(val) report_cuda((val), #val, __FILE__, __LINE__)

static void report_cuda(cudaError_t e, const char *what, const char *file, int line) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s returned %s\n", file, line, what, cudaGetErrorString(e));
    std::exit(EXIT_FAILURE);
  }
}

struct StagingPlan {
  int device;
  size_t bytes;
};

void reserve_from_nvml_total(nvmlDevice_t dev, void **scratch) {
  nvmlMemory_t info;
  if (nvmlDeviceGetMemoryInfo(dev, &info) != NVML_SUCCESS) return;
  size_t want = info.total * 0.95;
  // hazard: 95% of total memory, nothing left for modules that load later
  checkCudaErrors(cudaMalloc(scratch, want));  // want LL001 "total memory"
}

void reserve_from_nvml_free(nvmlDevice_t dev, float **buf) {
  nvmlMemory_t info;
  nvmlDeviceGetMemoryInfo(dev, &info);
  unsigned long long usable = info.free;
  usable -= 96ull << 20;
  // hazard: free memory minus 96 MiB, less than a lazily loaded module may need
  checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(buf), usable));  // want LL001 "free memory"
}

void plan_from_properties(int dev, void **out) {
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  StagingPlan plan;
  plan.device = dev;
  plan.bytes = prop.totalGlobalMem - (128ull << 20);
  // hazard: total memory minus 128 MiB, carried in a struct field
  checkCudaErrors(cudaMalloc(out, plan.bytes));  // want LL001 "total memory"
}

void lambda_initialiser(double **table) {
  auto init = [&]() {
    size_t free_b = 0, total_b = 0;
    checkCudaErrors(cudaMemGetInfo(&free_b, &total_b));
    // hazard: 95% of free memory, computed in integers inside a lambda
    checkCudaErrors(cudaMalloc(reinterpret_cast<void **>(table), free_b * 95 / 100));  // want LL001 "free memory"
  };
  init();
}

void lambda_captures_query(char **slab) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  auto take = [&] {
    // hazard: the lambda captures free_b by reference and takes all of it but 32 MiB
    cudaMalloc(reinterpret_cast<void **>(slab), free_b - (32 << 20));  // want LL001 "free memory"
  };
  take();
}

void nvml_only_logged(nvmlDevice_t dev, void **p) {
  nvmlMemory_t info;
  nvmlDeviceGetMemoryInfo(dev, &info);
  std::printf("device memory: %llu MiB free of %llu MiB\n", info.free >> 20, info.total >> 20);  // ok: the query is only printed
  checkCudaErrors(cudaMalloc(p, 8u << 20));  // ok: 8 MiB, unrelated to the query
}

void properties_other_fields(int dev, void **p) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  checkCudaErrors(cudaMalloc(p, prop.sharedMemPerBlock * prop.multiProcessorCount));  // ok: shared-memory size, not a memory query
  checkCudaErrors(cudaMalloc(p, prop.totalGlobalMem / 2));  // ok: half of total memory
}

void mapped_host_staging(nvmlDevice_t dev, void **host) {
  nvmlMemory_t info;
  nvmlDeviceGetMemoryInfo(dev, &info);
  checkCudaErrors(cudaHostAlloc(host, info.free, cudaHostAllocMapped));  // ok: pinned host memory, not device memory
}

void lambda_half(float **buf) {
  auto init = [buf]() {
    size_t free_b, total_b;
    cudaMemGetInfo(&free_b, &total_b);
    cudaMalloc(reinterpret_cast<void **>(buf), free_b / 2);  // ok: half of free memory leaves room for kernels
  };
  init();
}

void total_share_below_threshold(int dev, void **p) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  size_t bytes = prop.totalGlobalMem * 0.7;
  cudaMalloc(p, bytes);  // ok: 70% of total memory is under the 90% threshold
}

// C++: RAPIDS pools, NVML, device properties, wrappers and classes.
#include <nvml.h>
#include <memory>
#include <rmm/mr/device/pool_memory_resource.hpp>
#include <rmm/mr/device/cuda_memory_resource.hpp>

using pool_mr = rmm::mr::pool_memory_resource<rmm::mr::cuda_memory_resource>;

void rmm_pools(rmm::mr::cuda_memory_resource &cuda_mr) {
  auto [free_b, total_b] = rmm::available_device_memory();
  pool_mr whole{&cuda_mr, free_b};  // want LL001 "free memory"
  auto shared = std::make_shared<pool_mr>(&cuda_mr, rmm::percent_of_free_device_memory(95));  // want LL001 "free memory"
  auto *heap = new pool_mr(&cuda_mr, total_b * 0.9);  // want LL001 "total memory"
  pool_mr modest{&cuda_mr, free_b / 4};  // ok: a quarter of free memory
  auto small = std::make_shared<pool_mr>(&cuda_mr, rmm::percent_of_free_device_memory(50));  // ok: half of free memory
  delete heap;
}

void nvml_sized(nvmlDevice_t dev, void **p) {
  nvmlMemory_t mem;
  nvmlDeviceGetMemoryInfo(dev, &mem);
  cudaMalloc(p, mem.free - (100 * 1024 * 1024));  // want LL001 "free memory"
  cudaMalloc(p, mem.used);  // ok: used memory is not a share of what is left
}

void props_sized(int dev, void **p) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, dev);
  cudaMalloc(p, prop.totalGlobalMem);  // want LL001 "total memory"
}

static void *device_alloc(size_t bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes);
  return p;
}

class Workspace {
 public:
  void reserve_all() {
    size_t free_b, total_b;
    cudaMemGetInfo(&free_b, &total_b);
    data_ = device_alloc(free_b - (1 << 20));  // want LL001 "free memory"
  }
  void reserve_some() {
    size_t free_b, total_b;
    cudaMemGetInfo(&free_b, &total_b);
    data_ = device_alloc(free_b / 3);  // ok: a third of free memory through the wrapper
  }
 private:
  void *data_ = nullptr;
};

void unrelated_query_elsewhere(void **p, size_t n) {
  cudaMalloc(p, n);  // ok: n does not come from a memory query in this function
}

void leave_reserve(void **p, size_t reserve) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaMalloc(p, free_b - reserve);  // ok: an explicit reserve of unknown size is left
}

rmm::mr::arena_memory_resource make_arena() {
  auto free_b = rmm::available_device_memory().first;
  constexpr auto reserve{64UL << 20};  // 64 MiB is less than a lazily loaded module may need
  return rmm::mr::arena_memory_resource{rmm::mr::get_current_device_resource_ref(), free_b - reserve};  // want LL001 "free memory"
}

rmm::mr::arena_memory_resource make_roomy_arena() {
  auto free_b = rmm::available_device_memory().first;
  constexpr auto reserve{2UL << 30};
  return rmm::mr::arena_memory_resource{rmm::mr::get_current_device_resource_ref(), free_b - reserve};  // ok: 2 GiB left
}

auto make_pool_by_call() {
  return pool_mr(rmm::mr::get_current_device_resource_ref(), rmm::percent_of_free_device_memory(99));  // want LL001 "free memory"
}

// RAPIDS memory resources in a service: structured bindings, make_shared,
// default member initialisers, helpers with parameters, and stream-ordered
// pools that are the recommended fix.
#include <cuda_runtime.h>
#include <rmm/cuda_device.hpp>
#include <rmm/mr/device/cuda_memory_resource.hpp>
#include <rmm/mr/device/per_device_resource.hpp>
#include <rmm/mr/device/pool_memory_resource.hpp>
#include <memory>
#include <string>

namespace mr = rmm::mr;
using cuda_pool = mr::pool_memory_resource<mr::cuda_memory_resource>;

static std::size_t free_less(std::size_t reserve) {
  auto [f, t] = rmm::available_device_memory();
  return f - reserve;
}

void pool_from_binding() {
  mr::cuda_memory_resource cuda_mr;
  auto [free, total] = rmm::available_device_memory();
  // hazard: 95% of free memory
  rmm::mr::pool_memory_resource<rmm::mr::cuda_memory_resource> pool{&cuda_mr, free * 0.95};  // want LL001 "free memory"
  mr::set_current_device_resource(&pool);
}

std::shared_ptr<cuda_pool> shared_pool(std::shared_ptr<mr::cuda_memory_resource> upstream) {
  auto [free_b, total_b] = rmm::available_device_memory();
  auto initial = static_cast<std::size_t>(total_b * 0.9);
  // hazard: 90% of total memory
  return std::make_shared<mr::pool_memory_resource<mr::cuda_memory_resource>>(upstream.get(), initial);  // want LL001 "total memory"
}

std::shared_ptr<cuda_pool> helper_sized_pools(mr::cuda_memory_resource *upstream, bool roomy) {
  if (roomy) {
    return std::make_shared<cuda_pool>(upstream, free_less(2ull << 30));  // ok: the helper leaves 2 GiB
  }
  // hazard: the helper leaves only 64 MiB
  return std::make_shared<cuda_pool>(upstream, free_less(64ull << 20));  // want LL001 "free memory"
}

class InferenceService {
 public:
  InferenceService() { mr::set_current_device_resource(&pool_); }

 private:
  mr::cuda_memory_resource upstream_;
  // hazard: 90% of free memory, taken when the service is constructed
  cuda_pool pool_{&upstream_, rmm::percent_of_free_device_memory(90)};  // want LL001 "free memory"
};

class BatchService {
 private:
  mr::cuda_memory_resource upstream_;
  cuda_pool pool_{&upstream_, rmm::percent_of_free_device_memory(80)};  // ok: 80% of free memory is under the threshold
};

void pool_from_flag(const std::string &flag) {
  mr::cuda_memory_resource cuda_mr;
  auto [free, total] = rmm::available_device_memory();
  double fraction = std::stod(flag);
  cuda_pool pool{&cuda_mr, static_cast<std::size_t>(free * fraction)};  // ok: the fraction comes from a flag
  cuda_pool fixed{&cuda_mr, std::size_t{1} << 30};  // ok: a fixed 1 GiB pool
  mr::set_current_device_resource(&pool);
}

void stream_ordered_pool(int dev, cudaStream_t stream) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = dev;
  cudaMemPool_t pool;
  cudaMemPoolCreate(&pool, &props);  // ok: a stream-ordered pool is the recommended fix
  cuuint64_t keep = free_b;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);  // ok: a release threshold, not an allocation
  void *p = nullptr;
  cudaMallocFromPoolAsync(&p, 256 << 20, pool, stream);  // ok: a fixed 256 MiB from a stream-ordered pool
  cudaFreeAsync(p, stream);
}

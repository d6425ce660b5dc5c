// Pools, arenas and device containers that give their memory back in their
// destructors: a hazard only while something can load.
#include <rmm/mr/device/arena_memory_resource.hpp>
#include <rmm/mr/device/pool_memory_resource.hpp>
#include <thrust/device_vector.h>

using arena_t = rmm::mr::arena_memory_resource<rmm::mr::cuda_memory_resource>;
using pool_t = rmm::mr::pool_memory_resource<rmm::mr::cuda_memory_resource>;

void construct_and_drop(rmm::mr::cuda_memory_resource *up) {
  auto greedy = [up]() {
    auto most = rmm::percent_of_free_device_memory(92);
    pool_t pool{up, most};  // ok: destroyed at the end of the lambda, before anything loads
  };
  greedy();
  auto [free_b, total_b] = rmm::available_device_memory();
  {
    arena_t arena(up, free_b - (8 << 20));  // ok: its block ends before anything else runs
  }
  launch_everything();
}

void arena_for_the_run(rmm::mr::cuda_memory_resource *up) {
  auto [free_b, total_b] = rmm::available_device_memory();
  arena_t arena(up, free_b - (8 << 20));  // want LL001 "free memory"
  launch_everything();  // out of sight: it may launch while the arena holds the memory
}

void probe_then_pipeline(rmm::mr::cuda_memory_resource *up) {
  {
    pool_t probe{up, rmm::percent_of_free_device_memory(95)};  // want LL001 "free memory"
    probe_kernels(probe);  // the pool is still alive here
  }
}

pool_t *leak_pool(rmm::mr::cuda_memory_resource *up) {
  static pool_t kept{up, rmm::percent_of_free_device_memory(95)};  // want LL001 "free memory"
  return &kept;
}

pool_t moved_out(rmm::mr::cuda_memory_resource *up) {
  pool_t local{up, rmm::percent_of_free_device_memory(95)};  // want LL001 "free memory"
  return local;  // lives on in the caller
}

void scratch_vector() {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  {
    thrust::device_vector<char> fill_all(free_b);  // ok: freed at the end of its block, before anything runs
  }
  thrust::device_vector<char> held(free_b);  // want LL001 "free memory"
  thrust::fill(held.begin(), held.end(), 0);  // thrust launches a kernel while it is held
}

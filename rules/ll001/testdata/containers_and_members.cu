// Containers that allocate device memory, members, and other spellings.
#include <thrust/device_vector.h>
#include <rmm/device_buffer.hpp>
#include <rmm/device_uvector.hpp>

#define CUDA_TRY(x) (x)

struct Cache {
  size_t free_ = 0, total_ = 0;
  void *slab_ = nullptr;

  void init() {
    cudaMemGetInfo(&this->free_, &total_);
    cudaMalloc(&slab_, free_ - free_ / 20);  // want LL001 "free memory"
  }
  void init_small() {
    cudaMemGetInfo(&free_, &total_);
    cudaMalloc(&slab_, free_ - free_ / 2);  // ok: free minus half of free is half
  }
};

void containers(rmm::cuda_stream_view stream) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  thrust::device_vector<float> scratch(free_b / sizeof(float));  // want LL001 "free memory"
  rmm::device_buffer buf(free_b * 0.93, stream);  // want LL001 "free memory"
  rmm::device_uvector<double> vec(free_b / sizeof(double) / 4, stream);  // ok: a quarter of free memory
  thrust::device_vector<int> small(1024);  // ok: a fixed size
  std::vector<float> host(free_b / sizeof(float));  // ok: host memory
  run_solver(scratch, buf, stream);  // the memory is held while the solver runs
}

void macro_in_loop_condition(size_t chunk) {
  void *p;
  while (CUDA_TRY(cudaMalloc(&p, chunk)) == cudaSuccess) {  // want LL001 "until allocation fails"
  }
}

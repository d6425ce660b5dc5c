// What a timing helper runs between its clock reads: a lambda bound to a
// local name that times the code it is handed, a host function handed by
// name to a helper that calls it, and a kernel launched through a
// library's launch function by a pointer held in a local.
#include <chrono>
#include <cstdio>

namespace cutlass {
struct ClusterLaunchParams { dim3 grid, block, cluster; int smem; cudaStream_t stream; };
template <class... Args> int launch_kernel_on_cluster(ClusterLaunchParams const &, void const *, Args...);
}

template <int N> __global__ void tiled(float *x) {}
__global__ void copy_kernel(float *a, float *b) {}
__global__ void scale_kernel(float *a) {}
__global__ void relu_kernel(float *a) {}

void copy_launcher(float *a, float *b) { copy_kernel<<<1, 32>>>(a, b); }
void scale_launcher(float *a, float *b) { scale_kernel<<<1, 32>>>(a); }

int benchmark(void (*op)(float *, float *), float *a, float *b) {
  for (int i = 0; i < 10; i++) {
    auto t1 = std::chrono::high_resolution_clock::now();
    op(a, b);
    cudaDeviceSynchronize();
    auto t2 = std::chrono::high_resolution_clock::now();
    std::chrono::duration<double, std::milli> d = t2 - t1;
    printf("trial %d: %f ms\n", i, d.count());
  }
  return 0;
}

void handed_by_name(float *a, float *b) {
  benchmark(copy_launcher, a, b);  // want LL002 "copy_kernel in this function happens in copy_launcher, which it hands to benchmark"
  scale_launcher(a, b);
  benchmark(scale_launcher, a, b);  // ok: launched above
}

void handed_pointer(float *a, float *b, void (*op)(float *, float *)) {
  benchmark(op, a, b);  // ok: what op holds is not known here
}

void local_helper(float *a) {
  auto time_ms = [&](auto &&work) {
    auto start = std::chrono::steady_clock::now();
    work();
    cudaDeviceSynchronize();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  printf("%f\n", time_ms([&] { relu_kernel<<<1, 32>>>(a); }));  // want LL002 "relu_kernel in this function is timed by time_ms"
  printf("%f\n", time_ms([&] { relu_kernel<<<1, 32>>>(a); }));  // ok: the first call launched it
}

void cluster_launch(float *x, cudaStream_t stream) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, stream);
  void *kernel_ptr = (void *)&tiled<4>;
  cudaFuncSetAttribute(kernel_ptr, cudaFuncAttributeMaxDynamicSharedMemorySize, 1 << 16);
  cutlass::launch_kernel_on_cluster({dim3(1), dim3(128), dim3(2), 1 << 16, stream}, kernel_ptr, x);  // want LL002 "tiled<4>"
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%f ms\n", ms);
}

void cluster_launch_preloaded(float *x, cudaStream_t stream) {
  void *kernel_ptr = (void *)&tiled<8>;
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, kernel_ptr);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, stream);
  cutlass::launch_kernel_on_cluster({dim3(1), dim3(128), dim3(2), 1 << 16, stream}, kernel_ptr, x);  // ok: preloaded through the pointer
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%f ms\n", ms);
}

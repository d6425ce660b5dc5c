// CUDA C++ with kernels launched next to the allocations: RAII buffers,
// template wrappers, compound assignments, shadowing and a command line.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(e)                                                       \
  do {                                                                      \
    cudaError_t s_ = (e);                                                   \
    if (s_ != cudaSuccess) {                                                \
      std::fprintf(stderr, "%s: %s\n", #e, cudaGetErrorString(s_));         \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

// A lookup table that makes this module need 64 MiB when it is loaded.
__device__ float g_lut[16 << 20];

template <typename T>
__global__ void fill(T *dst, T value, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    dst[i] = value;
  }
}

__global__ void lookup(const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = g_lut[idx[i] & ((16 << 20) - 1)];
}

// RAII owner of one device allocation.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) { CUDA_CHECK(cudaMalloc(&ptr_, bytes)); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <typename T>
  T *as() const { return static_cast<T *>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void *ptr_ = nullptr;
  size_t bytes_ = 0;
};

template <typename T>
T *device_bytes(size_t bytes) {
  void *p = nullptr;
  CUDA_CHECK(cudaMalloc(&p, bytes));
  return static_cast<T *>(p);
}

void raii_arena(const int *idx, int n) {
  size_t free_b, total_b;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  // hazard: the constructor passes its size to cudaMalloc; 64 MiB left, while lookup's module needs 64 MiB for g_lut alone
  DeviceBuffer arena(free_b - (64ull << 20));  // want LL001 "free memory"
  lookup<<<(n + 255) / 256, 256>>>(idx, arena.as<float>(), n);
}

void raii_small(int n) {
  size_t free_b, total_b;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  DeviceBuffer scratch(free_b / 4);  // ok: a quarter of free memory through the same class
  fill<float><<<128, 256>>>(scratch.as<float>(), 1.0f, scratch.bytes() / sizeof(float));
}

void template_wrapper(size_t n) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  // hazard: 96% of free memory through a template wrapper
  float *big = device_bytes<float>(free_b * 0.96);  // want LL001 "free memory"
  double *some = device_bytes<double>(free_b * 0.6);  // ok: 60% of free memory is under the threshold
  fill<float><<<256, 256>>>(big, 0.0f, n);
  fill<double><<<256, 256>>>(some, 0.0, n);
}

void compound_budget(void **p, void **q) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  size_t budget = free_b;
  budget -= 200ull << 20;
  // hazard: free memory minus 200 MiB
  CUDA_CHECK(cudaMalloc(p, budget));  // want LL001 "free memory"
  size_t roomy = free_b;
  roomy -= 300ull << 20;
  CUDA_CHECK(cudaMalloc(q, roomy));  // ok: free memory minus 300 MiB leaves enough
}

void managed_everything(float **m, int n) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  const size_t count = free_b / sizeof(float);
  // hazard: all of free memory as managed memory, whose pages live on the device
  cudaMallocManaged(reinterpret_cast<void **>(m), count * sizeof(float));  // want LL001 "free memory"
  fill<float><<<64, 256>>>(*m, 2.0f, n);
}

void shadowed_size(void **p) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  size_t bytes = free_b;
  {
    size_t bytes = 1 << 26;
    CUDA_CHECK(cudaMalloc(p, bytes));  // ok: the inner bytes is a fixed 64 MiB
  }
  std::printf("would have taken %zu bytes\n", bytes);
}

static void print_free() {
  size_t f, t;
  cudaMemGetInfo(&f, &t);
  std::printf("free: %zu MiB\n", f >> 20);
}

void allocate_after_unrelated_query(float **p, size_t n) {
  print_free();
  CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(p), n * sizeof(float)));  // ok: n comes from the caller, the query is elsewhere
}

int main(int argc, char **argv) {
  double share = argc > 1 ? std::atof(argv[1]) : 0.5;
  size_t free_b, total_b;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  void *pool;
  CUDA_CHECK(cudaMalloc(&pool, static_cast<size_t>(free_b * share)));  // ok: the share comes from the command line
  std::puts("cudaMalloc(&pool, free_b) is what we avoid");  // ok: text in a string
  fill<char><<<1, 1>>>(static_cast<char *>(pool), 0, 1);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

// CUB and thrust algorithms instantiate their kernels in this file.
#include <chrono>
#include <cub/device/device_reduce.cuh>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

float time_cub_sum(const float *x, float *out, int n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, x, out, n);  // ok: the sizing call launches nothing
  void *tmp;
  cudaMalloc(&tmp, bytes);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cub::DeviceReduce::Sum(tmp, bytes, x, out, n);  // want LL002 "first call of cub::DeviceReduce::Sum in this function is timed"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

double time_sorts(thrust::device_vector<int> &keys, thrust::host_vector<int> &host_keys, cudaStream_t s) {
  auto t0 = std::chrono::steady_clock::now();
  thrust::sort(keys.begin(), keys.end());  // want LL002 "first call of thrust::sort"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_host_sort(thrust::host_vector<int> &host_keys) {
  auto t0 = std::chrono::steady_clock::now();
  thrust::sort(host_keys.begin(), host_keys.end());  // ok: a host vector, sorted on the host
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_sort_warm(thrust::device_vector<int> &keys) {
  thrust::sort(thrust::device, keys.begin(), keys.end());
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  thrust::sort(thrust::device, keys.begin(), keys.end());  // ok: sorted once before the timer
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

double time_gemm(cublasHandle_t h, const float *A, const float *B, float *C, int m) {
  const float one = 1.0f, zero = 0.0f;
  auto t0 = std::chrono::steady_clock::now();
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A, m, B, m, &zero, C, m);  // ok: cuBLAS kernels are the library's (its first call is slow in both modes)
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Compaction with thrust::remove and a copy: the remove launches, the
// copy back to the host is a memory copy.
float time_compaction(thrust::device_vector<int> &ids, thrust::host_vector<int> &out) {
  cudaEvent_t on, off;
  cudaEventCreate(&on);
  cudaEventCreate(&off);
  cudaEventRecord(on);
  auto end = thrust::remove(ids.begin(), ids.end(), -1);  // want LL002 "first call of thrust::remove"
  thrust::copy(ids.begin(), end, out.begin());  // ok: a copy to the host launches no kernel
  cudaEventRecord(off);
  cudaEventSynchronize(off);
  float ms = 0;
  cudaEventElapsedTime(&ms, on, off);
  return ms;
}

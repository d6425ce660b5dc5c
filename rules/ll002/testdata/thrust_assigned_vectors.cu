// A benchmark loop refills its device vectors from host copies before
// each timed sort. What was last stored in a vector does not change
// where it lives: a device_vector assigned a host_vector is still on the
// device, and thrust sorts it there.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

static float elapsed(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0;
  cudaEventElapsedTime(&ms, from, to);
  return ms;
}

float sort_refilled(const thrust::host_vector<unsigned> &keys, const thrust::host_vector<unsigned> &values, int iterations, bool keys_only) {
  thrust::device_vector<unsigned> d_keys;
  thrust::device_vector<unsigned> d_values;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  float total = 0;
  for (int i = 0; i < iterations; i++) {
    d_keys = keys;
    if (!keys_only)
      d_values = values;
    cudaEventRecord(start);
    if (keys_only)
      thrust::sort(d_keys.begin(), d_keys.end());  // want LL002 "thrust::sort"
    else
      thrust::sort_by_key(d_keys.begin(), d_keys.end(), d_values.begin());  // want LL002 "thrust::sort_by_key"
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    total += elapsed(start, stop);
  }
  return total / iterations;
}

float sort_warmed(const thrust::host_vector<unsigned> &keys) {
  thrust::device_vector<unsigned> d_keys;
  d_keys = keys;
  thrust::sort(d_keys.begin(), d_keys.end());  // the warm-up
  d_keys = keys;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  thrust::sort(d_keys.begin(), d_keys.end());  // ok: sorted once before the timer
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  return elapsed(start, stop);
}

// A host vector assigned from the device sorts on the host.
float sort_on_host(const thrust::device_vector<unsigned> &d_keys) {
  thrust::host_vector<unsigned> h_keys;
  h_keys = d_keys;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  thrust::sort(h_keys.begin(), h_keys.end());  // ok: on the host
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  return elapsed(start, stop);
}

// How many blocks of a kernel fit on a multiprocessor: the overload that
// is handed the kernel asks cudaFuncGetAttributes of it (a preload); the
// one handed the attributes already read asks nothing.
#pragma once
#include <cstddef>

inline std::size_t blocks_per_sm(const cudaFuncAttributes &attributes, int threads) {
  return attributes.maxThreadsPerBlock / threads;
}

template <typename Kernel>
inline std::size_t blocks_per_sm(Kernel kernel, int threads, std::size_t shared_bytes) {
  cudaFuncAttributes attributes;
  if (cudaFuncGetAttributes(&attributes, kernel) != cudaSuccess) return 0;
  return attributes.maxThreadsPerBlock / threads;
}

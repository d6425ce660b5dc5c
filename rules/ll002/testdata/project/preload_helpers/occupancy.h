// Occupancy helpers a library keeps in a header: each asks the runtime for
// the attributes of the kernel it is handed, which loads that kernel.
#pragma once

template <typename Kernel>
inline cudaFuncAttributes attributes_of(Kernel kernel) {
  typedef void (*entry_type)();
  entry_type entry = reinterpret_cast<entry_type>(kernel);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, entry);
  return attributes;
}

template <typename Kernel>
inline int blocks_per_sm(Kernel kernel, int cta_size) {
  cudaFuncAttributes attributes = attributes_of(kernel);
  return attributes.maxThreadsPerBlock / cta_size;
}

inline int max_threads(const void *func) {
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, func);
  return attributes.maxThreadsPerBlock;
}

// Definitions of arch.h. Two overloads share a name: the one that takes
// a kernel asks for its attributes (which loads it), the other computes
// from attributes already read.
#pragma once

namespace lib {
namespace cuda {

inline int multiprocessor_count() { return 132; }

template <typename Kernel>
inline cudaFuncAttributes attributes_of(Kernel kernel) {
  cudaFuncAttributes attributes;
#ifdef __CUDACC__
  typedef void (*entry_type)();
  entry_type entry = reinterpret_cast<entry_type>(kernel);
  cudaFuncGetAttributes(&attributes, entry);
#endif
  return attributes;
}

inline int blocks_per_multiprocessor(const cudaDeviceProp &properties, const cudaFuncAttributes &attributes, int cta_size, int smem) {
  return properties.maxThreadsPerMultiProcessor / cta_size;
}

template <typename Kernel>
int blocks_per_multiprocessor(Kernel kernel, int cta_size, int smem) {
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  return blocks_per_multiprocessor(properties, attributes_of(kernel), cta_size, smem);
}

}  // namespace cuda
}  // namespace lib

// The device queries of the library, declared here, defined in arch_inl.h.
#pragma once

namespace lib {
namespace cuda {
int multiprocessor_count();
template <typename Kernel>
int blocks_per_multiprocessor(Kernel kernel, int cta_size, int smem);
}  // namespace cuda
}  // namespace lib

#include "arch_inl.h"

// A for_each that tunes its grid: the interface, its implementation
// included at the end.
#pragma once
#include "cuda/arch.h"

namespace lib {

template <typename Iterator, typename Functor>
__global__ void for_each_kernel(long n, Iterator in, Functor f) {}

template <typename Iterator, typename Functor>
__global__ void fill_kernel(long n, Iterator in, Functor f) {}

struct for_each_enactor {
  int blocks_hi = 0;
  template <typename Kernel>
  int suggested_blocks(Kernel kernel, int cta_size) const;
  template <typename Iterator, typename Functor>
  void operator()(long n, Iterator in, Functor f);
  template <typename Iterator, typename Functor>
  void fill(long n, Iterator in, Functor f);
};

}  // namespace lib

#include "for_each_inl.h"

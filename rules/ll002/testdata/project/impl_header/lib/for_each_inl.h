// The enactor's methods, part of for_each.h's text: they see what it
// includes (the device queries of cuda/arch.h).
#pragma once
#include <chrono>
#include <cstdio>

namespace lib {

template <typename Kernel>
int for_each_enactor::suggested_blocks(Kernel kernel, int cta_size) const {
  if (blocks_hi == 0) return cuda::multiprocessor_count() * cuda::blocks_per_multiprocessor(kernel, cta_size, 0);
  return cuda::multiprocessor_count() * blocks_hi;
}

template <typename Iterator, typename Functor>
void for_each_enactor::operator()(long n, Iterator in, Functor f) {
  const int blocks = suggested_blocks(for_each_kernel<Iterator, Functor>, 128);
  auto start = std::chrono::steady_clock::now();
  for_each_kernel<<<blocks, 128>>>(n, in, f);  // ok: the occupancy query loaded it
  cudaDeviceSynchronize();
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  printf("%f s\n", took.count());
}

template <typename Iterator, typename Functor>
void for_each_enactor::fill(long n, Iterator in, Functor f) {
  const int blocks = suggested_blocks(for_each_kernel<Iterator, Functor>, 128);  // another kernel's query
  auto start = std::chrono::steady_clock::now();
  fill_kernel<<<blocks, 128>>>(n, in, f);  // want LL002 "fill_kernel"
  cudaDeviceSynchronize();
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  printf("%f s\n", took.count());
}

}  // namespace lib

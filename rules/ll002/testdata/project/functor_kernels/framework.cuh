// A small functor framework: every operation runs through one kernel
// template, launched by one helper; each functor type is a kernel of its
// own, loaded at its own first launch.
#pragma once

template <class Op>
__global__ void apply_kernel(Op op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) op(i);
}

template <class Op>
void for_each_index(Op op, int n) {
  apply_kernel<<<(n + 255) / 256, 256>>>(op, n);
}

// Passes its functor on: the launch is still for the caller's type.
template <unsigned Block, class Op>
void for_each_site(const Op &op, int n) {
  for_each_index(op, n);
}

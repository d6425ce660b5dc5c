// The produce stage of the fused kernel.
#pragma once
#include "spec.cuh"

__device__ void produce_rows(Spec *s, unsigned parity, unsigned rows) {
  for (unsigned r = threadIdx.x; r < rows; r += blockDim.x) {
    publish_row(s, parity, r, 1.0f + r);
  }
}

// The consume stage. It waits on cells the produce stage of the same
// kernel publishes (another header), and on a doorbell that only the
// ring_doorbell kernel of another file writes.
#pragma once
#include "spec.cuh"

__device__ float consume_row(Spec *s, unsigned parity, unsigned row) {
  unsigned *cells = reinterpret_cast<unsigned *>(row_cells(s, parity));
  unsigned bits = atomicAdd(&cells[row], 0u);
  while (bits == 0u) {
    bits = atomicAdd(&cells[row], 0u);  // ok: produce_rows of the same kernel publishes it
  }
  return __uint_as_float(bits);
}

__device__ void wait_doorbell(Spec *s) {
  while (atomicAdd(s->doorbell, 0u) == 0u) {  // want LL003 "spins on .*doorbell"
  }
}

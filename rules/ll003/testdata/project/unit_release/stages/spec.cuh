// Shared state of a persistent kernel: a cell per row that the produce
// stage fills and the consume stage waits for, and a doorbell that only a
// separate kernel rings.
#pragma once

struct Spec {
  float *cells_even, *cells_odd;
  unsigned *doorbell;
};

__device__ __forceinline__ float *row_cells(Spec *s, unsigned parity) {
  return parity ? s->cells_odd : s->cells_even;
}

// Publish one row: the payload is fenced, then the cell set.
__device__ __forceinline__ void publish_row(Spec *s, unsigned parity, unsigned row, float v) {
  __threadfence();
  atomicExch(&row_cells(s, parity)[row], v);
}

// A doorbell kernel waits on a word that another kernel rings; both access
// it through the header's macros.
#include "../include/compiler.h"

__global__ void wait_doorbell(unsigned *bell, unsigned want) {
  while (READ_ONCE(*bell) != want) {  // want LL003 "kernel wait_doorbell spins on bell [(]volatile read in READ_ONCE[)]"
  }
}

__global__ void ring(unsigned *bell, unsigned value) { WRITE_ONCE(*bell, value); }

void serve(unsigned *bell, cudaStream_t a, cudaStream_t b) {
  wait_doorbell<<<1, 1, 0, a>>>(bell, 1);
  ring<<<1, 1, 0, b>>>(bell, 1);  // want LL003 "ring is launched for the first time while wait_doorbell"
}

__global__ void self_ring(unsigned *bell) {
  if (blockIdx.x == 0) WRITE_ONCE(*bell, 1u);
  while (READ_ONCE(*bell) == 0) {  // ok: another block of the same kernel rings
  }
}

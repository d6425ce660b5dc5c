// The same wait in a header that a sample program includes: the sample
// does not run the library's start-up, so its kernels load lazily.
#pragma once

struct PollCell { volatile int ready; };

__device__ inline void poll_ready(PollCell *cell) {
  while (cell->ready == 0) {  // want LL003 "spins on"
  }
}

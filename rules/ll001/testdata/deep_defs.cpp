// A size built by many branches in a loop: each use of `size` is reached
// by many definitions. Evaluating it must stay linear (it was exponential,
// and a single-header library of this shape overflowed the stack).
#include <cuda_runtime.h>

void *reserve(int steps, int mode) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  size_t size = free_b / 4;
  for (int i = 0; i < steps; i++) {
    if (mode == 0) {
      size += size / 2;
    } else {
      size -= size / 3;
    }
    if (mode == 1) {
      size += size / 3;
    } else {
      size -= size / 4;
    }
    if (mode == 2) {
      size += size / 4;
    } else {
      size -= size / 5;
    }
    if (mode == 3) {
      size += size / 5;
    } else {
      size -= size / 6;
    }
    if (mode == 4) {
      size += size / 6;
    } else {
      size -= size / 7;
    }
    if (mode == 5) {
      size += size / 7;
    } else {
      size -= size / 8;
    }
    if (mode == 6) {
      size += size / 8;
    } else {
      size -= size / 9;
    }
    if (mode == 7) {
      size += size / 9;
    } else {
      size -= size / 10;
    }
    if (mode == 8) {
      size += size / 10;
    } else {
      size -= size / 11;
    }
    if (mode == 9) {
      size += size / 11;
    } else {
      size -= size / 12;
    }
    if (mode == 10) {
      size += size / 12;
    } else {
      size -= size / 13;
    }
    if (mode == 11) {
      size += size / 13;
    } else {
      size -= size / 14;
    }
    if (mode == 12) {
      size += size / 14;
    } else {
      size -= size / 15;
    }
    if (mode == 13) {
      size += size / 15;
    } else {
      size -= size / 16;
    }
    if (mode == 14) {
      size += size / 16;
    } else {
      size -= size / 17;
    }
    if (mode == 15) {
      size += size / 17;
    } else {
      size -= size / 18;
    }
    if (mode == 16) {
      size += size / 18;
    } else {
      size -= size / 19;
    }
    if (mode == 17) {
      size += size / 19;
    } else {
      size -= size / 20;
    }
    if (mode == 18) {
      size += size / 20;
    } else {
      size -= size / 21;
    }
    if (mode == 19) {
      size += size / 21;
    } else {
      size -= size / 22;
    }
    if (mode == 20) {
      size += size / 22;
    } else {
      size -= size / 23;
    }
    if (mode == 21) {
      size += size / 23;
    } else {
      size -= size / 24;
    }
    if (mode == 22) {
      size += size / 24;
    } else {
      size -= size / 25;
    }
    if (mode == 23) {
      size += size / 25;
    } else {
      size -= size / 26;
    }
    if (mode == 24) {
      size += size / 26;
    } else {
      size -= size / 27;
    }
    if (mode == 25) {
      size += size / 27;
    } else {
      size -= size / 28;
    }
    if (mode == 26) {
      size += size / 28;
    } else {
      size -= size / 29;
    }
    if (mode == 27) {
      size += size / 29;
    } else {
      size -= size / 30;
    }
    if (mode == 28) {
      size += size / 30;
    } else {
      size -= size / 31;
    }
    if (mode == 29) {
      size += size / 31;
    } else {
      size -= size / 32;
    }
    if (mode == 30) {
      size += size / 32;
    } else {
      size -= size / 33;
    }
    if (mode == 31) {
      size += size / 33;
    } else {
      size -= size / 34;
    }
    if (mode == 32) {
      size += size / 34;
    } else {
      size -= size / 35;
    }
    if (mode == 33) {
      size += size / 35;
    } else {
      size -= size / 36;
    }
    if (mode == 34) {
      size += size / 36;
    } else {
      size -= size / 37;
    }
    if (mode == 35) {
      size += size / 37;
    } else {
      size -= size / 38;
    }
    if (mode == 36) {
      size += size / 38;
    } else {
      size -= size / 39;
    }
    if (mode == 37) {
      size += size / 39;
    } else {
      size -= size / 40;
    }
    if (mode == 38) {
      size += size / 40;
    } else {
      size -= size / 41;
    }
    if (mode == 39) {
      size += size / 41;
    } else {
      size -= size / 42;
    }
  }
  void *p = nullptr;
  cudaMalloc(&p, size);  // ok: the share of free memory is not known
  return p;
}

// One Jacobi sweep, launched only through the shorthand; the kernel is
// defined with the others.
#include "../common/launch.h"
#include "sweeps.cuh"

void relax(const float *in, float *out, int n) {
  LC(jacobi_sweep, (n + LC_BLOCK - 1) / LC_BLOCK, LC_BLOCK, in, out, n);
}

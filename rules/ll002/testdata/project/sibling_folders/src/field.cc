#include "field.h"

void launch_add(unsigned *x, const unsigned *y, int n);

// The library's entry point: checks, then the launcher of field_kernels.cu.
void field_add(unsigned *x, const unsigned *y, int n) {
  if (n <= 0) return;
  launch_add(x, y, n);
}

// The library's reset, on the host: not the one the benchmarks call.
void reset_field(unsigned *x, int n) {
  for (int i = 0; i < n; i++) x[i] = 0;
}

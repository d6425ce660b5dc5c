#include "field.h"

__global__ void add_kernel(unsigned *x, const unsigned *y, int n) {}
__global__ void square_kernel(unsigned *x, int n) {}

void launch_add(unsigned *x, const unsigned *y, int n) { add_kernel<<<(n + 255) / 256, 256>>>(x, y, n); }
void field_square(unsigned *x, int n) { square_kernel<<<(n + 255) / 256, 256>>>(x, n); }

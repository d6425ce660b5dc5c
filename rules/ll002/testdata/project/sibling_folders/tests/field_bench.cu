// Benchmarks in a folder beside the library's: the header it includes says
// which implementation is linked in.
#include <cstdio>
#include "../src/field.h"

float time_add(unsigned *x, const unsigned *y, int n) {
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin);
  field_add(x, y, n);  // want LL002 "add_kernel"
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

float time_square(unsigned *x, int n) {
  field_square(x, n);
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin);
  field_square(x, n);  // ok: called once before the timer started
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

void reset_field(unsigned *x, int n);

float time_reset(unsigned *x, int n) {
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin);
  reset_field(x, n);  // want LL002 "poison_kernel"
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

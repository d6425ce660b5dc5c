// A test of the CPU reference: it includes the C implementation, whose
// model_step has the same name as the CUDA one in model.cu beside it. The
// timed call is the C function's, which launches nothing.
#include <stdio.h>
#include <time.h>
#include "model.c"

int main(void) {
  Model m = {0};
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  model_step(&m);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%ld ns\n", (long)(b.tv_nsec - a.tv_nsec));
  return 0;
}

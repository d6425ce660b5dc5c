// A test of the CPU reference, which it includes: the timed forward pass
// is the C file's, whose helpers launch nothing (the CUDA file's helpers
// of the same names are another program's).
#include <stdio.h>
#include <time.h>
#define TESTING
#include "model.c"

int main(void) {
  Model m = {0};
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  model_forward(&m);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%ld ns\n", (long)(b.tv_nsec - a.tv_nsec));
  return 0;
}

// A C driver times a stage of another C file, whose function hands the
// work to a .cu file's launcher: the launch is two calls away, through a
// file that spells no launch itself.
#include <stdio.h>

long long now_us(void);
float *stage_gradient(const float *image, int n);

void detect(const float *image, int n) {
  long long t0 = now_us();
  float *g = stage_gradient(image, n);  // want LL002 "gradient_kernel"
  long long t1 = now_us();
  printf("gradient: %lld us (%p)\n", t1 - t0, (void *)g);
}

// Before its timer the program calls a function it does not define: that
// one may have touched CUDA, so the timer may start with the context up.
#include <cstdio>
#include <sys/time.h>

__global__ void sweep(float *m, int n) {}

void init_gpu(void);

static double now_us() {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec * 1e6 + tv.tv_usec;
}

int main(void) {
  init_gpu();
  double start = now_us();
  sweep<<<1, 256>>>(0, 16);  // want LL002 "sweep"
  printf("total: %f us\n", now_us() - start);
  return 0;
}

// A program timing itself from its first statement holds the creation of
// the CUDA context, where eager loading loads every module: lazy loading
// adds nothing to that total. A timer started once CUDA is up does not.
#include <cstdio>
#include <sys/time.h>

__global__ void init_grid(float *x, int n) {}
__global__ void step_grid(float *x, int n) {}

static double wall() {
  struct timeval tv;
  gettimeofday(&tv, 0);
  return tv.tv_sec + 1e-6 * tv.tv_usec;
}

void step(float *x) {
  double start_step = wall();
  step_grid<<<4, 256>>>(x, 1024);  // want LL002 "step_grid"
  cudaDeviceSynchronize();
  printf("step %9.4f\n", wall() - start_step);
}

int main(int argc, char **argv) {
  // timing variables
  double start_total, stop_init, init;
#ifdef CPU_TIME
  double step_min, step_max;
  step_min = step_max = 0;
#endif

  start_total = wall();
  float *x;
  cudaMalloc(&x, 1024 * sizeof(float));
  init_grid<<<4, 256>>>(x, 1024);  // ok: the total starts before CUDA does
  cudaDeviceSynchronize();
  stop_init = wall();
  init = stop_init - start_total;
  printf("Init %9.4f\n", init);
  step(x);
  return 0;
}

// A stopwatch read while it runs measures from its start: the value
// printed after the launch holds it. Read after a stop, the value is the
// sessions summed, and what runs after the stop is in none of them.
#include <cstdio>

__global__ void power_kernel(float *a, int n) {}
__global__ void cool_down(float *a, int n) {}

void measure_running(float *a, int n) {
  unsigned int timer = 0;
  cutCreateTimer(&timer);
  cutStartTimer(timer);
  printf("execution time = %f\n", cutGetTimerValue(timer));
  power_kernel<<<n / 256, 256>>>(a, n);  // want LL002 "power_kernel"
  cudaDeviceSynchronize();
  printf("execution time = %f\n", cutGetTimerValue(timer));
}

void measure_stopped(float *a, int n) {
  unsigned int timer = 0;
  cutCreateTimer(&timer);
  cutStartTimer(timer);
  cutStopTimer(timer);
  cool_down<<<n / 256, 256>>>(a, n);  // ok: after the stop
  cudaDeviceSynchronize();
  printf("execution time = %f\n", cutGetTimerValue(timer));
}

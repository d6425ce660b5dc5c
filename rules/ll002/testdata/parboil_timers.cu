// Parboil's timer set: each switch stops the active timer and starts the
// next, and pb_PrintTimerSet prints every category at the end. A launch
// between two switches is timed into the category switched to.
#include "parboil.h"

__global__ void cenergy(int atoms, float spacing, float *grid) {}
__global__ void clear(float *grid) {}

void run(struct pb_TimerSet *timers, float *grid, int atoms) {
  pb_SwitchToTimer(timers, pb_TimerID_GPU);
  cenergy<<<64, 128>>>(atoms, 0.1f, grid);  // want LL002 "cenergy"
  cudaDeviceSynchronize();
  pb_SwitchToTimer(timers, pb_TimerID_COMPUTE);
  pb_PrintTimerSet(timers);
}

void run_warm(struct pb_TimerSet *timers, float *grid) {
  clear<<<64, 128>>>(grid);
  pb_SwitchToTimer(timers, pb_TimerID_GPU);
  clear<<<64, 128>>>(grid);  // ok: launched before the switch
  cudaDeviceSynchronize();
  pb_SwitchToTimer(timers, pb_TimerID_COMPUTE);
  pb_PrintTimerSet(timers);
}

// A function that switches the timer set itself times its own launches in
// its own categories: the caller's category stops at its first switch.
__global__ void lattice(float *grid) {}

static int compute_lattice(struct pb_TimerSet *timers, float *grid) {
  pb_SwitchToTimer(timers, pb_TimerID_COPY);
  cudaMemset(grid, 0, 1024);
  pb_SwitchToTimer(timers, pb_TimerID_KERNEL);
  lattice<<<64, 128>>>(grid);  // want LL002 "lattice"
  cudaDeviceSynchronize();
  pb_SwitchToTimer(timers, pb_TimerID_COMPUTE);
  return 0;
}

void run_switching(struct pb_TimerSet *timers, float *grid) {
  pb_SwitchToTimer(timers, pb_TimerID_COMPUTE);
  compute_lattice(timers, grid);  // ok: the callee's own switches time its launch
  pb_SwitchToTimer(timers, pb_TimerID_NONE);
  pb_PrintTimerSet(timers);
}

// The operators time themselves through the user data: the file names no
// timer class, only the members.
#include <cstdio>
#include "problem.h"

__global__ void advect(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
__global__ void react(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}
__global__ void relax(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= 1.0f;
}

int advection(UserData *udata) {
  udata->t_advection.start();
  advect<<<(udata->n + 255) / 256, 256>>>(udata->state, udata->n);  // want LL002 "advect"
  cudaDeviceSynchronize();
  udata->t_advection.stop();
  return 0;
}

int reaction(UserData &udata) {
  react<<<(udata.n + 255) / 256, 256>>>(udata.state, udata.n);  // warm-up: the first call is not timed
  cudaDeviceSynchronize();
  udata.t_reaction.start();
  react<<<(udata.n + 255) / 256, 256>>>(udata.state, udata.n);  // ok: launched before the timer starts
  cudaDeviceSynchronize();
  udata.t_reaction.stop();
  return 0;
}

int relaxation(UserData *udata) {
  udata->t_calls.start();
  relax<<<(udata->n + 255) / 256, 256>>>(udata->state, udata->n);  // ok: a tally, not a timer
  udata->t_calls.stop();
  return 0;
}

void UserData::print_timers() const {
  std::printf("advection %.3f s, reaction %.3f s\n", t_advection.total(), t_reaction.total());
}

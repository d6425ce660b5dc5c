// Another file's own now(), static and no clock: not the header's, and
// the header's is not this one.
#include <cstdio>

__global__ void replay(float *energies, int poses) {}

static double now() { return 0.0; }

void replay_all(float *energies, int poses) {
  double start = now();
  replay<<<(poses + 63) / 64, 64>>>(energies, poses);  // ok: this now() reads no clock
  cudaDeviceSynchronize();
  printf("%f\n", now() - start);
}

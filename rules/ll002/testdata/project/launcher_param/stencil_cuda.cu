// Variants timed by the suite's timer, launched through its helper. Two
// kernels through one helper are two kernels.
#include "launch_util.hpp"

template <int BLOCK>
__global__ void stencil(const double *in, double *out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i > 0 && i + 1 < n) out[i] = in[i - 1] + in[i + 1];
}

template <int BLOCK>
__global__ void smooth(double *out, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] *= 0.5;
}

class Stencil : public Measured {
 public:
  void runCuda(const double *in, double *out, int n, cudaStream_t s);
};

void Stencil::runCuda(const double *in, double *out, int n, cudaStream_t s) {
  startTimer();
  launch_on((stencil<256>), dim3((n + 255) / 256), dim3(256), s, in, out, n);  // want LL002 "stencil<256>"
  launch_on((smooth<256>), dim3((n + 255) / 256), dim3(256), s, out, n);  // want LL002 "smooth<256>"
  stopTimer();
}

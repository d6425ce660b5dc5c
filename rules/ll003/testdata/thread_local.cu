// Volatile variables a thread owns. No other agent can address an
// automatic variable, so a loop on one waits for nobody: a sparse kernel
// that declares its grid-stride counter volatile (to keep the compiler from
// hoisting it) is not a wait, whatever runs beside it.
#include <cuda_runtime.h>

__device__ volatile int g_go;

__global__ void row_lengths(const int *row_ptr, int *len, int n) {
  volatile int row = blockIdx.x * blockDim.x + threadIdx.x;
  while (row < n) {  // ok: row is this thread's own variable
    len[row] = row_ptr[row + 1] - row_ptr[row];
    row += gridDim.x * blockDim.x;
  }
}

__global__ void converge(float *x, int n) {
  volatile bool settled = false;
  for (int sweep = 0; !settled; ++sweep) {  // ok: settled is written by this loop only
    settled = x[sweep % n] < 1e-6f || sweep > 100;
  }
}

__global__ void gated(int *out) {
  volatile int *gate = &g_go;
  while (*gate == 0) {  // want LL003 "gated spins on"
  }
  out[0] = 1;
}

__global__ void open_gate() { g_go = 1; }

void pipeline(const int *row_ptr, int *len, float *x, int *out, int n, cudaStream_t s, cudaStream_t t) {
  row_lengths<<<64, 256, 0, s>>>(row_ptr, len, n);
  converge<<<1, 1, 0, s>>>(x, n);
  gated<<<1, 1, 0, s>>>(out);
  open_gate<<<1, 1, 0, t>>>();  // want LL003 "open_gate is launched for the first time while gated"
}

// The factorization's kernels and the host function that runs them.
__global__ void factor_diagonal(float *m, int n, int k) {}
__global__ void factor_panel(float *m, int n, int k) {}

void factor_cuda(float *m, int n) {
  for (int k = 0; k < n; k += 16) {
    factor_diagonal<<<1, 16>>>(m, n, k);
    factor_panel<<<(n - k) / 16 + 1, 32>>>(m, n, k);
  }
}

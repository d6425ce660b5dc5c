// The benchmarks' own helper: a function of the same name as one of the
// library's, defined beside the benchmarks.
__global__ void poison_kernel(unsigned *x, int n) {}

void reset_field(unsigned *x, int n) { poison_kernel<<<(n + 255) / 256, 256>>>(x, n); }

// The kernel template and the launcher template, instantiated for 4096.
struct Globals { float *data; int n; };

template <int N> __global__ void fft_kernel(Globals g) {
  if (threadIdx.x < N && threadIdx.x < g.n) g.data[threadIdx.x] *= 2.0f;
}

template <int N> void launch(Globals g) {
  fft_kernel<N><<<1, 256>>>(g);
}

template void launch<4096>(Globals g);

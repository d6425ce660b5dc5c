// The library's kernels wait for its proxy thread; the proxy only copies
// and signals once every kernel is loaded (init.cc).
struct Fifo { volatile long long size[8]; };

__global__ void send_wait(Fifo *fifo, long long step) {
  volatile long long *slot = &fifo->size[step % 8];
  while (*slot != -1) {  // ok: the project preloads its kernel table at start-up
  }
}

__global__ void recv_copy(float *dst, const float *src, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
}

void *g_device_kernels[] = {(void *)send_wait, (void *)recv_copy};
int g_device_kernel_count = 2;

void post(Fifo *fifo, float *dst, const float *src, int n, cudaStream_t a, cudaStream_t b) {
  send_wait<<<1, 1, 0, a>>>(fifo, 0);
  recv_copy<<<1, 128, 0, b>>>(dst, src, n);  // ok: loaded by comm_library_init
}

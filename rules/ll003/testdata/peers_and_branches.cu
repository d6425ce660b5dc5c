// Waits whose release cannot wait for a lazy load: a peer GPU's kernel
// signals with system scope, a grid barrier written in PTX, launches in
// exclusive branches.
#include <cuda_runtime.h>

#define PTR_CONSTRAINT(p) "l"(p)

// The sending side runs on the peer GPU and bumps the receiver's flag with
// a system-scope atomic; the receiving kernel waits for it.
__global__ void ring_send(int *peer_flag, const int4 *src, int4 *dst, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = src[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    atomicAdd_system(peer_flag, 1);
  }
}

__global__ void ring_recv(int my_rank, int peer, int *flag, int expected, long long budget) {
  volatile int *f = (volatile int *)flag;
  long long t0 = clock64();
  while (*f < expected) {  // ok: released by ring_send on the peer GPU, not serialized by loading
    if (clock64() - t0 > budget) break;
  }
}

__global__ void bump(int *counter) { atomicAdd(counter, 1); }

void recv_step(int rank, int peer, int *flag, int *counter, cudaStream_t s) {
  ring_recv<<<1, 1, 0, s>>>(rank, peer, flag, 1, 1 << 30);
  bump<<<1, 1, 0, s>>>(counter);  // ok: the waiter is released by a peer GPU
}

// Blocks of one kernel meet at a barrier written in PTX, with the address
// constraint spelled through a macro.
__device__ void blocks_meet(unsigned int *bar, unsigned int expected) {
  volatile unsigned int *arrived = &bar[blockIdx.y];
  unsigned int old;
  asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : PTR_CONSTRAINT((unsigned int *)arrived), "r"(1u) : "memory");
  unsigned int now;
  do {
    asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(now) : PTR_CONSTRAINT((unsigned int *)arrived) : "memory");  // ok: the same kernel arrives
  } while (now - old < expected);
}

__global__ void persistent_norm(float *x, unsigned int *bar) {
  x[threadIdx.x] *= 2.0f;
  blocks_meet(bar, gridDim.x);
  x[threadIdx.x] += 1.0f;
}

// One branch launches the waiter, the other a different kernel: they never
// run one after the other.
__global__ void pull_wait(volatile int *ready) {
  while (*ready == 0) {  // want LL003 "kernel pull_wait spins on ready"
  }
}
__global__ void push_copy(int *data) { data[0] = 1; }

void step(bool push, volatile int *ready, int *data, cudaStream_t s) {
  if (!push) {
    pull_wait<<<1, 1, 0, s>>>(ready);
  } else {
    push_copy<<<1, 1, 0, s>>>(data);  // ok: the other branch of the waiter's launch
  }
}

void step_switch(int mode, volatile int *ready, int *data, cudaStream_t s) {
  switch (mode) {
  case 0:
    pull_wait<<<1, 1, 0, s>>>(ready);
    break;
  case 1:
    push_copy<<<1, 1, 0, s>>>(data);  // ok: another case, and case 0 breaks
    break;
  }
}

void step_fallthrough(int mode, volatile int *ready, int *data, cudaStream_t s) {
  switch (mode) {
  case 0:
    pull_wait<<<1, 1, 0, s>>>(ready);
  case 1:
    push_copy<<<1, 1, 0, s>>>(data);  // want LL003 "push_copy is launched for the first time while pull_wait"
    break;
  }
}

// Every GPU runs the same kernel: it raises its own arrival slot and waits
// for the other GPU's.
__device__ __forceinline__ void raise_slot(int *slot, int token) { *(volatile int *)slot = token; }
__device__ __forceinline__ int read_slot(const int *slot) { return *(const volatile int *)slot; }

__global__ void two_gpu_exchange(int *arrival_mine, const int *arrival_other, int token) {
  if (threadIdx.x == 0) {
    raise_slot(arrival_mine + blockIdx.x, token);
    __threadfence_system();
    while (read_slot(arrival_other + blockIdx.x) != token) {  // ok: the same kernel on the other GPU raises it
    }
  }
}

void exchange(int **arrivals, int token, cudaStream_t *streams) {
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
    two_gpu_exchange<<<4, 32, 0, streams[dev]>>>(arrivals[dev], arrivals[1 - dev], token);
  }
}

// Launched on every device too, but it signals nothing: the host or
// another kernel releases it.
__global__ void stall(volatile int *go) {
  while (*go == 0) {  // want LL003 "kernel stall spins on go"
  }
}

void stall_all(int n, volatile int *go, cudaStream_t *streams) {
  for (int dev = 0; dev < n; ++dev) {
    cudaSetDevice(dev);
    stall<<<1, 1, 0, streams[dev]>>>(go);
  }
}

// The same exchange, launched through a macro of the loop body, per type.
template <typename T>
__global__ void exchange_typed(T *out, int *arrival_mine, const int *arrival_other, int token) {
  if (threadIdx.x == 0) {
    raise_slot(arrival_mine, token);
    while (read_slot(arrival_other) != token) {  // ok: launched once per GPU, and it raises its own slot
    }
  }
}

void exchange_typed_all(void **bufs, int **arrivals, int token, int type, cudaStream_t *streams) {
  for (int dev = 0; dev < 2; ++dev) {
    cudaSetDevice(dev);
#define LAUNCH_EXCHANGE(T) \
    exchange_typed<T><<<1, 32, 0, streams[dev]>>>((T *)bufs[dev], arrivals[dev], arrivals[1 - dev], token)
    switch (type) {
    case 0: LAUNCH_EXCHANGE(float); break;
    default: LAUNCH_EXCHANGE(double); break;
    }
#undef LAUNCH_EXCHANGE
  }
}

// A consumer waits on a flag in the memory of the rank that produces its
// tile; that rank's GEMM kernel sets it.
__device__ __forceinline__ int load_acquire_sys(const int *p) {
  int v;
  asm volatile("ld.global.acquire.sys.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__global__ void gather_tiles(int **flags_by_rank, int src_rank, int tiles, float *out) {
  int *flags = flags_by_rank[src_rank];
  for (int t = threadIdx.x; t < tiles; t += blockDim.x) {
    while (load_acquire_sys(flags + t) != 1) {  // ok: another GPU's memory, set by that GPU's kernel
    }
    out[t] = 1.0f;
  }
}

__global__ void gather_local(int **flags_by_slot, int slot, float *out) {
  int *flags = flags_by_slot[slot];
  while (load_acquire_sys(flags) != 1) {  // want LL003 "kernel gather_local spins on flags_by_slot"
  }
  out[0] = 1.0f;
}

// Blocks of one kernel waiting on each other, and peers of the same kernel.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void scan_lookback(volatile int *flags, int *sums, const int *in) {
  int b = blockIdx.x;
  int v = in[b];
  if (b > 0) {
    while (flags[b - 1] == 0) {  // ok: the same kernel sets flags (decoupled look-back)
    }
    v += sums[b - 1];
  }
  sums[b] = v;
  __threadfence();
  flags[b] = 1;
}

__global__ void ring_step(volatile unsigned long long *my_flag, unsigned long long *peer_flag, unsigned long long step) {
  *peer_flag = step;  // the same kernel, running on the peer GPU, releases this one
  while (*my_flag < step) {  // want LL003 "kernel ring_step spins on my_flag"
  }
}

__global__ void ring_step_same_pointer(volatile unsigned long long *flags, int me, int peer, unsigned long long step) {
  flags[peer] = step;
  while (flags[me] < step) {  // ok: the kernel writes the same flags array it waits on
  }
}

__global__ void grid_synced(float *data) {
  cg::grid_group grid = cg::this_grid();
  data[grid.thread_rank()] += 1.0f;
  grid.sync();  // ok: cooperative-groups grid sync is not a hand-written wait
  data[0] += data[1];
}

struct Mailbox {
  volatile int ready;
  int value;
};

__device__ void await(Mailbox *box) {
  while (!box->ready) {  // want LL003 "kernel mailbox_reader spins on"
  }
}

__global__ void mailbox_reader(Mailbox *box, int *out) {
  await(box);
  *out = box->value;
}

__device__ void store_release(unsigned int *p, unsigned int v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ unsigned int load_acq(unsigned int *p) {
  unsigned int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__global__ void multi_gpu_barrier(unsigned int *arrived, int dev, int ndevs) {
  if (dev == 0) {
    for (int i = 0; i < ndevs - 1; ++i) {
      while (load_acq(&arrived[i]) == 0) {  // ok: the same kernel on the other GPUs stores to arrived through store_release
      }
    }
  } else {
    store_release(&arrived[dev - 1], 1);
  }
}

__global__ void allreduce_step(float *buf, unsigned int *flags, unsigned int *peer_flags, int rank, int nranks, unsigned int epoch) {
  atomicAdd(&peer_flags[rank], 1u);  // signal the peers
  while (atomicAdd(&flags[(rank + 1) % nranks], 0u) < epoch) {  // ok: released by the same kernel on the peer GPUs
  }
  buf[threadIdx.x] *= 2.0f;
}

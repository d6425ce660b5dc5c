// Waits written with atomics, cuda::atomic_ref, intrinsics and PTX.
#include <cuda/atomic>

__device__ unsigned int load_acquire(const unsigned int *p) {
  unsigned int v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__global__ void wait_atomic_add(int *go) {
  while (atomicAdd(go, 0) == 0) {  // want LL003 "atomicAdd[(]p, 0[)]"
  }
}

__global__ void wait_cas(int *state) {
  while (atomicCAS(state, 1, 1) != 1) {  // want LL003 "atomicCAS"
  }
}

__global__ void wait_atomic_ref(int *flag) {
  cuda::atomic_ref<int, cuda::thread_scope_system> f(*flag);
  while (f.load(cuda::memory_order_acquire) == 0) {  // want LL003 "atomic load"
  }
}

__global__ void wait_ldcv(int *flag, int *out) {
  for (;;) {
    if (__ldcv(flag) != 0) break;  // want LL003 "__ldcv"
  }
  out[0] = 1;
}

__global__ void wait_helper(unsigned int *epoch, unsigned int target) {
  while (load_acquire(epoch) < target) {  // want LL003 "PTX load in load_acquire"
  }
}

__global__ void spin_lock(int *lock, int *counter) {
  while (atomicCAS(lock, 0, 1) != 0) {  // ok: a lock acquire writes the lock; it is not a read-only wait
  }
  *counter += 1;
  atomicExch(lock, 0);
}

__global__ void grid_stride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {  // ok: a grid-stride loop reads no flag
    out[i] = in[i];
  }
}

__global__ void counting_atomics(int *hist, const int *keys, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    atomicAdd(&hist[keys[i]], 1);  // ok: atomics that count, not a wait
  }
}

__global__ void wait_builtin(int *flag) {
  while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) {  // want LL003 "__atomic_load_n"
  }
}

__global__ void wait_volatile_cast(int *flag) {
  while (*(volatile int *)flag == 0) {  // want LL003 "volatile read"
  }
}

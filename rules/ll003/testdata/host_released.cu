// Kernels released by the host thread that launched them, through mapped
// memory, and the macros that spell such waits.
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define ACCESS_ONCE(x) (*(volatile __typeof__(x) *)&(x))
#define READ_ONCE(x) ACCESS_ONCE(x)
#define WRITE_ONCE(x, v) (ACCESS_ONCE(x) = (v))

__global__ void ping(unsigned *to_gpu, unsigned *to_cpu, unsigned rounds) {
  for (unsigned i = 1; i <= rounds; ++i) {
    WRITE_ONCE(*to_cpu, i);
    unsigned seen;
    do {
      seen = READ_ONCE(*to_gpu);  // ok: the host answers and launches nothing until it synchronizes
    } while (seen != i);
  }
}

void ping_pong(unsigned *to_gpu_dev, unsigned *to_cpu_dev, volatile unsigned *to_gpu, volatile unsigned *to_cpu, unsigned rounds, cudaStream_t s) {
  ping<<<1, 1, 0, s>>>(to_gpu_dev, to_cpu_dev, rounds);
  if (cudaGetLastError() != cudaSuccess) return;
  for (unsigned i = 1; i <= rounds; ++i) {
    while (*to_cpu != i) {
    }
    *to_gpu = i;
  }
  cudaStreamSynchronize(s);
}

__global__ void gate(unsigned *open) {
  unsigned v;
  do {
    v = READ_ONCE(*open);  // want LL003 "kernel gate spins on open [(]volatile read in READ_ONCE[)]"
  } while (v == 0);
}

void gate_then_gemm(unsigned *open_dev, volatile unsigned *open, cublasHandle_t h, cudaStream_t s) {
  gate<<<1, 1, 0, s>>>(open_dev);
  // The library's GEMM kernel loads on its first call, while gate spins.
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, nullptr, nullptr, 8, nullptr, 8, nullptr, nullptr, 8);
  *open = 1;
  cudaStreamSynchronize(s);
}

__global__ void hold(unsigned *release) {
  while (READ_ONCE(*release) == 0) {  // want LL003 "kernel hold spins on release"
  }
}
__global__ void side_work(float *x) { x[0] = 1.0f; }

void launch_side_work(float *x) { side_work<<<1, 1>>>(x); }

void hold_then_work(unsigned *release_dev, volatile unsigned *release, float *x, cudaStream_t s) {
  hold<<<1, 1, 0, s>>>(release_dev);
  launch_side_work(x);  // a function of the file that launches: side_work loads while hold spins
  *release = 1;
  cudaStreamSynchronize(s);
}

__global__ void latch(unsigned *go) {
  while (READ_ONCE(*go) == 0) {  // want LL003 "kernel latch spins on go"
  }
}

unsigned *start_latch(unsigned *go, cudaStream_t s) {
  latch<<<1, 1, 0, s>>>(go);
  return go;  // still spinning when the function returns: its callers decide
}

__global__ void own_flag(unsigned *flag) {
  if (threadIdx.x == 0) WRITE_ONCE(*flag, 1u);
  while (READ_ONCE(*flag) == 0) {  // ok: the kernel writes the flag itself
  }
}

// A wait that gives up: lazy loading turns it into a timeout.
__global__ void wait_or_give_up(volatile int *flag, long long budget, int *timed_out) {
  long long t0 = clock64();
  while (*flag == 0) {  // want LL003 "kernel wait_or_give_up spins on flag .*the wait ends only by its watchdog, as a timeout"
    if (clock64() - t0 > budget) {
      *timed_out = 1;
      break;
    }
  }
}

__global__ void wait_counted(volatile int *flag, int *timed_out) {
  int spins = 0;
  while (*flag == 0) {  // want LL003 "kernel wait_counted spins on flag .*as a timeout"
    if (spins++ == 1000000) {
      *timed_out = 1;
      return;
    }
  }
}

// Work for a fixed number of rounds, leaving early when told: not a wait.
__global__ void work_until_told(volatile int *stop, float *x, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    x[threadIdx.x] += 1.0f;
    if (*stop) break;  // ok: the loop ends after its rounds whatever the flag says
  }
}

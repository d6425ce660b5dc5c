// LL003 fixed: both kernels are loaded (cudaFuncGetAttributes) before the
// waiter is launched, so launching the releaser needs no load while the
// waiter spins. Preloading only the waiter would not be enough.
#include "common.h"

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void wait_for_flag(volatile int *flag, unsigned long long watchdog_ns, int *expired) {
  unsigned long long start = now_ns();
  while (*flag == 0) {
    if (now_ns() - start > watchdog_ns) {
      *expired = 1;
      return;
    }
  }
}

__global__ void set_flag(volatile int *flag) { *flag = 1; }

int main(int argc, char **argv) {
  double watchdog_s = argc > 1 ? std::atof(argv[1]) : 30.0;
  int *flag = nullptr, *expired = nullptr;
  CHECK(cudaMalloc(&flag, sizeof(int)));
  CHECK(cudaMalloc(&expired, sizeof(int)));
  CHECK(cudaMemset(flag, 0, sizeof(int)));
  CHECK(cudaMemset(expired, 0, sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  cudaStream_t waiter, releaser;
  CHECK(cudaStreamCreateWithFlags(&waiter, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&releaser, cudaStreamNonBlocking));

  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, wait_for_flag));
  CHECK(cudaFuncGetAttributes(&attr, set_flag));

  wait_for_flag<<<1, 1, 0, waiter>>>(flag, static_cast<unsigned long long>(watchdog_s * 1e9), expired);
  set_flag<<<1, 1, 0, releaser>>>(flag);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  int host_expired = 0;
  CHECK(cudaMemcpy(&host_expired, expired, sizeof(int), cudaMemcpyDeviceToHost));
  if (host_expired) {
    std::printf("deadlock: wait_for_flag's %.0f s watchdog expired; set_flag never ran while it spun\n", watchdog_s);
    return 3;
  }
  std::printf("wait_for_flag was released by set_flag\n");
  return 0;
}

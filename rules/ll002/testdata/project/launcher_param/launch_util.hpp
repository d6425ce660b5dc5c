// A suite's launch helper: the kernel arrives as a parameter, and is
// launched through the runtime API.
#pragma once
#include <cuda_runtime.h>

template <typename... KArgs, typename... Args>
void launch_on(void (*kernel)(KArgs...), dim3 grid, dim3 block, cudaStream_t s, Args... args) {
  void *argv[] = {&args...};
  auto entry = reinterpret_cast<const void *>(kernel);
  cudaLaunchKernel(entry, grid, block, argv, 0, s);
}

class Measured {
 public:
  void startTimer();
  void stopTimer();
};

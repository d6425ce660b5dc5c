// Shared by the GPU check programs: fail loudly, with CUDA's own words, so
// that `lazylint probe run` can read the error from the output.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err_ = (call);                                             \
    if (err_ != cudaSuccess) {                                             \
      std::printf("%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, \
                  cudaGetErrorName(err_), cudaGetErrorString(err_));       \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

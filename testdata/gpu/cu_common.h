// Shared by the driver-API GPU check programs.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda.h>

#define CU_CHECK(call)                                                    \
  do {                                                                    \
    CUresult res_ = (call);                                               \
    if (res_ != CUDA_SUCCESS) {                                           \
      const char *name_ = "?";                                            \
      cuGetErrorName(res_, &name_);                                       \
      std::printf("%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

// A portability header: HIP's launch spelled for CUDA builds.
#pragma once

#ifdef USE_HIP
  #include <hip/hip_runtime.h>
#else
  #include <cuda_runtime.h>
  #define hipLaunchKernelGGL(F, G, B, M, S, ...) F<<<G, B, M, S>>>(__VA_ARGS__)
  #define hipEvent_t cudaEvent_t
#endif

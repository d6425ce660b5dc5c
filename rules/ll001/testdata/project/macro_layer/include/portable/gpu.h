// A portability layer: the same code builds for CUDA and for HIP.
#pragma once
#include "portable/paste.h"
#ifdef __HIP_PLATFORM_AMD__
#include <hip/hip_runtime.h>
#define gpuMalloc hipMalloc
#define gpuMemGetInfo hipMemGetInfo
#else
#include <cuda_runtime.h>
#define gpuMalloc cudaMalloc
#define gpuMemGetInfo cudaMemGetInfo
#endif
#define gpuFree(ptr) cudaFree(ptr)

// A header that only declares the launchers: the benchmark sees no launch.
#pragma once
#include <cuda_runtime.h>

void launch_scale(float *data, int n, cudaStream_t stream);
void launch_scale_and_shift(float *data, int n, cudaStream_t stream);
void load_scale_kernels();

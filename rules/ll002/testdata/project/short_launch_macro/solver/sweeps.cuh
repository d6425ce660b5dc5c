// The solver's kernels.
#pragma once

__global__ void jacobi_sweep(const float *in, float *out, int n) {}

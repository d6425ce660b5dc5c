// The launch template.
#pragma once

template <int D> __global__ void attention_kernel(float *x) {}

template <int D> void launch_attention(float *x) { attention_kernel<D><<<1, D>>>(x); }

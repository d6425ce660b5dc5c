// A translation unit that holds managed data and no kernels: loading it
// eagerly drags no code along, so it stays silent. This is the shape the
// rule recommends.
#include <cuda_runtime.h>

__managed__ int progress;  // ok: this module defines no kernels
__device__ __managed__ float learning_rate = 0.01f;  // ok: no kernels here either
static __managed__ double loss_history[128];  // ok: no kernels here either

__device__ float decayed_rate(int step) { return learning_rate / (1.0f + step); }  // ok: a __device__ function is not a kernel

__global__ void train_step(float *w, const float *g, int n);  // ok: a prototype; the kernel is defined in another module
template <typename T> __global__ void apply_update(T *w, const T *g, int n);  // ok: a template prototype defines nothing

void record_loss(int step, double loss) { loss_history[step % 128] = loss; }

// The CUDA version, a program of its own.
#include "kernels.cuh"

typedef struct { float *w; float *act; } Model;

void model_forward(Model *m) {
  scale_forward(m->act, m->w, 16);
  bias_forward(m->act, 16);
  cudaDeviceSynchronize();
}

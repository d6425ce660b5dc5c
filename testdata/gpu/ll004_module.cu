// The module the LL004 programs load with cuModuleLoad: 200 kernels with
// long unrolled bodies, a few MiB of code and no module data (module data
// is allocated by cuModuleLoad in both modes; code is what loads lazily).
// Built with nvcc -cubin.

#define STENCIL(n)                                                               \
  extern "C" __global__ void stencil_##n(float *x, int stride) {               \
    float acc = 0.0f;                                                            \
    _Pragma("unroll") for (int i = 0; i < 256; ++i) {                            \
      acc = acc * 1.0001f + x[threadIdx.x + i * stride] * float(i % ((n) % 7 + 2)); \
    }                                                                            \
    x[threadIdx.x] = acc;                                                        \
  }

#define STENCIL10(n)                                                             \
  STENCIL(n##0) STENCIL(n##1) STENCIL(n##2) STENCIL(n##3) STENCIL(n##4)          \
  STENCIL(n##5) STENCIL(n##6) STENCIL(n##7) STENCIL(n##8) STENCIL(n##9)

#define STENCIL100(n)                                                            \
  STENCIL10(n##0) STENCIL10(n##1) STENCIL10(n##2) STENCIL10(n##3) STENCIL10(n##4) \
  STENCIL10(n##5) STENCIL10(n##6) STENCIL10(n##7) STENCIL10(n##8) STENCIL10(n##9)

STENCIL100(1)
STENCIL100(2)

// extern declarations refer to a managed variable defined in another
// translation unit (relocatable device code): that module loads eagerly,
// not this one. A definition with an initializer, or inside an
// extern "C" { } block, is defined here.
#include <cuda_runtime.h>

extern __managed__ int shared_flags;  // ok: extern declaration, defined in another module
extern __device__ __managed__ float shared_gain;  // ok: extern declaration with __device__
extern "C" __managed__ int c_linkage_flag;  // ok: extern "C" on a single declaration declares without defining
extern __managed__ int defined_here = 7;  // want LL008 "`defined_here` .* 2 kernels"
extern __managed__ int only_declared, also_defined = 1;  // want LL008 "`also_defined`"

extern "C" {
__managed__ int c_block_counter;  // want LL008 "`c_block_counter`"
extern __managed__ int c_block_extern;  // ok: extern inside the block still only declares
}

__global__ void raise_flag(int bit) { atomicOr(&shared_flags, 1 << bit); }

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= shared_gain + defined_here;
}

__global__ void bump(int *unused);  // ok: a prototype; this kernel lives elsewhere and is not counted

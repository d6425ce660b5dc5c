// Managed variables spelled through the project's own qualifier macros.
#include <cuda_runtime.h>

#define MANAGED __managed__
#define DEVICE_MANAGED __device__ __managed__  /* both qualifiers */
#define LOCAL_MANAGED static MANAGED
#define EXTERN_MANAGED extern __managed__
#define KERNEL __global__
#define HOST_DEVICE __host__ __device__
// #define COMMENTED_MANAGED __managed__
#ifdef STATS_ON_DEVICE_ONLY
#define STATS_SPACE __device__
#else
#define STATS_SPACE __device__ __managed__
#endif

MANAGED int error_count;  // want LL008 "`error_count` makes this translation unit load eagerly with its 2 kernels"
DEVICE_MANAGED float clip_value = 4.0f;  // want LL008 "`clip_value`"
LOCAL_MANAGED unsigned long long dropped[8];  // want LL008 "`dropped`"
static MANAGED int step;  // want LL008 "`step`"
EXTERN_MANAGED int peer_errors;  // ok: the macro expands to extern __managed__: a declaration only
HOST_DEVICE int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }  // ok: a function, not a variable
__device__ int device_only_total;  // ok: __device__ without __managed__
COMMENTED_MANAGED int not_managed_a;  // ok: the macro's #define is only in a comment
STATS_SPACE unsigned int stat_blocks;  // want LL008 "`stat_blocks`"

KERNEL void clip(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (x[i] > clip_value) {
    x[i] = clip_value;
    atomicAdd(&error_count, 1);
  }
}

KERNEL void count_drops(const int *mask, int n) {
  int i = clamp_index(blockIdx.x * blockDim.x + threadIdx.x, n);
  if (!mask[i]) atomicAdd(&dropped[i % 8], 1ull);
}

// A statistics translation unit: managed counters beside three kernels.
#include <cuda_runtime.h>
#include <cstdint>

template <typename K, typename V>
struct Bucket {
  K key;
  V value;
};

struct RunStats {
  unsigned long long visited;
  float worst_residual;
};

__managed__ int counters;  // want LL008 "^__managed__ variable `counters` makes this translation unit load eagerly with its 3 kernels \\(documented behaviour; not observed on driver 580\\)"
__device__ __managed__ float damping = 0.85f;  // want LL008 "`damping` .* 3 kernels"
__managed__ __device__ double residual_sum;  // want LL008 "`residual_sum`"
static __managed__ unsigned int degree_hist[64];  // want LL008 "`degree_hist`"
__managed__ int frontier_lo, frontier_hi[2];  // want LL008 "`frontier_lo`" "`frontier_hi`"
__managed__ RunStats last_run;  // want LL008 "`last_run`"
__managed__ Bucket<uint32_t, float> hot_bucket;  // want LL008 "`hot_bucket`"
__managed__ const int *volatile cursor;  // want LL008 "`cursor`"

__device__ int scratch_rank[1024];  // ok: __device__ alone does not make the module load eagerly
__constant__ float edge_weights[32];  // ok: constant memory is loaded with the module, lazily
int host_total;  // ok: plain host variable
// __managed__ int commented_out;  // ok: in a line comment
/* ok: in a block comment: __managed__ int also_commented; */
const char *banner = "__managed__ int in_a_string;";  // ok: in a string literal
const char *raw_banner = R"(__managed__ float in_a_raw_string;)";  // ok: in a raw string literal

__global__ void relax(const int *row, const int *col, float *rank, int n) {
  __shared__ float tile[128];  // ok: shared memory, not managed
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  tile[threadIdx.x % 128] = rank[v];
  for (int e = row[v]; e < row[v + 1]; ++e) atomicAdd(&rank[col[e]], damping * tile[threadIdx.x % 128]);
  atomicAdd(&counters, 1);
}

__global__ void histogram_degrees(const int *row, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) atomicAdd(&degree_hist[min(row[v + 1] - row[v], 63)], 1u);
}

__global__ void sum_residual(const float *a, const float *b, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) atomicAdd(&residual_sum, (double)fabsf(a[v] - b[v]));
}

void run_iteration(const int *row, const int *col, float *rank, int n) {
  int managed_count = counters;  // ok: a use of the variable, not a declaration
  relax<<<(n + 127) / 128, 128>>>(row, col, rank, n);
  cudaDeviceSynchronize();
  (void)managed_count;
}

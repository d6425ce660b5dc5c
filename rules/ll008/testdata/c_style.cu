/* A C-style CUDA file: typedefs, struct tags, one kernel. */
#include <stdio.h>
#include <cuda_runtime.h>

typedef struct {
  int hits;
  int misses;
} cache_stats_t;

struct probe_log {
  unsigned int entries[16];
  unsigned int head;
};

__managed__ cache_stats_t cache_stats;  /* want LL008 "`cache_stats` makes this translation unit load eagerly with its 1 kernel \\(" */
__managed__ struct probe_log probe_log_buf;  /* want LL008 "`probe_log_buf` .* 1 kernel\\b" */
__device__ __managed__ unsigned int table_size = 1024u;  /* want LL008 "`table_size`" */
static cache_stats_t host_copy;  /* ok: a plain static host variable */
typedef int managed_int_t;  /* ok: a typedef named like the qualifier is not one */

__global__ void probe(const unsigned int *keys, const unsigned int *table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (table[keys[i] % table_size] == keys[i]) {
    atomicAdd(&cache_stats.hits, 1);
  } else {
    atomicAdd(&cache_stats.misses, 1);
    probe_log_buf.entries[atomicAdd(&probe_log_buf.head, 1u) % 16] = keys[i];
  }
}

int report_stats(void) {
  managed_int_t total = cache_stats.hits + cache_stats.misses;  /* ok: a use, not a declaration */
  host_copy = cache_stats;
  printf("hits %d of %d\n", host_copy.hits, total);
  return 0;
}

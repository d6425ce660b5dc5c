/* Plain C on the driver API: virtual memory management (cuMemCreate),
   cuDeviceTotalMem, compound assignments, helpers with parameters and a
   grab-everything loop. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB ((size_t)1 << 20)
#define NBUF 6

static void fill_device_prop(CUmemAllocationProp *prop, int ordinal) {
  memset(prop, 0, sizeof(*prop));
  prop->type = CU_MEM_ALLOCATION_TYPE_PINNED; /* device memory, despite the name */
  prop->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop->location.id = ordinal;
}

/* Free memory minus whatever the caller leaves. */
static size_t free_minus(size_t reserve) {
  size_t free_b = 0, total_b = 0;
  cuMemGetInfo(&free_b, &total_b);
  return free_b - reserve;
}

CUresult reserve_physical(CUmemGenericAllocationHandle *h, int ordinal) {
  CUmemAllocationProp prop;
  size_t gran = 0, free_b = 0, total_b = 0, size;
  fill_device_prop(&prop, ordinal);
  cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  cuMemGetInfo(&free_b, &total_b);
  size = (free_b / gran) * gran;
  /* hazard: all free memory, rounded down to the granularity */
  return cuMemCreate(h, size, &prop, 0); /* want LL001 "free memory" */
}

CUresult reserve_physical_half(CUmemGenericAllocationHandle *h, int ordinal) {
  CUmemAllocationProp prop;
  size_t gran = 0, free_b = 0, total_b = 0;
  fill_device_prop(&prop, ordinal);
  cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  cuMemGetInfo(&free_b, &total_b);
  return cuMemCreate(h, (free_b / 2 / gran) * gran, &prop, 0); /* ok: half of free memory */
}

CUresult take_total_share(CUdevice dev, CUdeviceptr *d) {
  size_t total = 0;
  size_t bytes;
  cuDeviceTotalMem(&total, dev);
  bytes = total * 95 / 100;
  /* hazard: 95% of total memory */
  return cuMemAlloc(d, bytes); /* want LL001 "total memory" */
}

CUresult take_free_minus_100mib(CUdeviceptr *d) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  free_b -= 100 * 1024 * 1024;
  /* hazard: free memory minus 100 MiB */
  return cuMemAlloc_v2(d, free_b); /* want LL001 "free memory" */
}

CUresult take_with_helper(CUdeviceptr *small_reserve, CUdeviceptr *large_reserve) {
  CUresult r;
  /* hazard: the helper leaves only 48 MiB */
  r = cuMemAlloc(small_reserve, free_minus(48 * MIB)); /* want LL001 "free memory" */
  if (r != CUDA_SUCCESS) return r;
  return cuMemAlloc(large_reserve, free_minus(1024 * MIB)); /* ok: the same helper leaving 1 GiB */
}

CUresult take_with_headroom(CUdeviceptr *d) {
  size_t free_b, total_b;
  cuMemGetInfo_v2(&free_b, &total_b);
  return cuMemAlloc(d, free_b - (512 << 20)); /* ok: 512 MiB of headroom */
}

size_t grab_everything(CUdeviceptr **out) {
  CUdeviceptr *slots = NULL;
  size_t n = 0;
  for (;;) {
    CUdeviceptr d;
    /* hazard: allocates 32 MiB blocks until the device is full */
    if (cuMemAlloc(&d, 32 * MIB) != CUDA_SUCCESS) /* want LL001 "until allocation fails" */
      break;
    slots = (CUdeviceptr *)realloc(slots, (n + 1) * sizeof(*slots));
    slots[n++] = d;
  }
  *out = slots;
  return n;
}

void fixed_buffers(CUdeviceptr bufs[NBUF]) {
  int i;
  for (i = 0; i < NBUF; ++i) {
    CUresult r = cuMemAlloc(&bufs[i], 4 * MIB); /* ok: NBUF buffers of 4 MiB; an error aborts */
    if (r != CUDA_SUCCESS) {
      fprintf(stderr, "buffer %d: error %d\n", i, (int)r);
      exit(1);
    }
  }
}

void report_memory(void) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  printf("%zu of %zu MiB free\n", free_b / MIB, total_b / MIB); /* ok: the query is only printed */
}

CUresult mapped_staging(void **host) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  return cuMemHostAlloc(host, free_b, CU_MEMHOSTALLOC_DEVICEMAP); /* ok: pinned host memory */
}

/* Old code kept for reference: cuMemAlloc(&d, free_b); */ /* ok: code in a comment */

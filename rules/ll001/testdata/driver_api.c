/* Driver API in plain C: cuMemGetInfo, cuDeviceTotalMem and cuMemAlloc. */
#include <cuda.h>
#include <stdio.h>

#define CU_SAFE_CALL(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) return r; } while (0)

static size_t usable_bytes(void) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  return free_b - (16 << 20);
}

static size_t scaled_free(double share) {
  size_t free_b, total_b;
  cuMemGetInfo_v2(&free_b, &total_b);
  return (size_t)(free_b * share);
}

CUresult grab_everything(CUdeviceptr *out, CUdevice dev) {
  size_t total;
  CU_SAFE_CALL(cuDeviceTotalMem(&total, dev));
  CU_SAFE_CALL(cuMemAlloc(out, total));  /* want LL001 "total memory" */
  return CUDA_SUCCESS;
}

CUresult helper_sized(CUdeviceptr *a, CUdeviceptr *b, CUdeviceptr *c) {
  CU_SAFE_CALL(cuMemAlloc(a, usable_bytes()));  /* want LL001 "free memory" */
  CU_SAFE_CALL(cuMemAlloc_v2(b, scaled_free(0.92)));  /* want LL001 "free memory" */
  CU_SAFE_CALL(cuMemAlloc(c, scaled_free(0.5)));  /* ok: half of free memory through the same helper */
  return CUDA_SUCCESS;
}

CUresult pitch_2d(CUdeviceptr *img, size_t *pitch) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  return cuMemAllocPitch(img, pitch, free_b - (8 << 20), 1, 16);  /* want LL001 "free memory" */
}

CUresult host_staging(void **host) {
  size_t free_b, total_b;
  cuMemGetInfo(&free_b, &total_b);
  return cuMemAllocHost(host, free_b);  /* ok: pinned host memory */
}

CUresult bounded_buffers(CUdeviceptr bufs[8]) {
  int i;
  for (i = 0; i < 8; ++i) {
    if (cuMemAlloc(&bufs[i], 1 << 20) != CUDA_SUCCESS) {  /* ok: a fixed number of buffers, errors return */
      return CUDA_ERROR_OUT_OF_MEMORY;
    }
  }
  return CUDA_SUCCESS;
}

/* C: contexts in arrays. */
#include <cuda.h>

int load_all_contexts(CUcontext *ctx, CUmodule *mod, int n, const char *cubin) {
  int i;
  for (i = 0; i < n; i++) {
    if (cuCtxPushCurrent(ctx[i]) != CUDA_SUCCESS) return -1;
    if (cuModuleLoad(&mod[i], cubin) != CUDA_SUCCESS) return -1; /* want LL005 "cuModuleLoad in a loop that switches with cuCtxPushCurrent" */
    cuCtxPopCurrent(0);
  }
  return 0;
}

int do_while_contexts(CUcontext *ctx, CUmodule *mod, int n, const void *image) {
  int i = 0;
  do {
    cuCtxSetCurrent(ctx[i]);
    cuModuleLoadData(&mod[i], image); /* want LL005 "loaded into each context" */
    i++;
  } while (i < n);
  return 0;
}

int per_device_files(CUcontext *ctx, CUmodule *mod, int n, const char **cubins) {
  int i;
  for (i = 0; i < n; i++) {
    cuCtxSetCurrent(ctx[i]);
    cuModuleLoad(&mod[i], cubins[i]); /* ok: one file per device */
  }
  return 0;
}

int switch_after_loop(CUcontext c, CUmodule *mod, const char *cubin) {
  int i;
  for (i = 0; i < 3; i++) {
    cuModuleLoad(&mod[i], cubin); /* ok: no context switch inside the loop */
  }
  cuCtxSetCurrent(c);
  return 0;
}

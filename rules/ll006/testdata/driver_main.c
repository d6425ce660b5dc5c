/* Driver API in plain C: one main that queries the loading mode along a
 * path where cuInit sits in branches, loops and short-circuit operands
 * before it finally runs on every path. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_CU(call)                                            \
  do {                                                            \
    CUresult status_ = (call);                                    \
    if (status_ != CUDA_SUCCESS) {                                \
      fprintf(stderr, "%s failed: %d\n", #call, (int)status_);    \
      exit(1);                                                    \
    }                                                             \
  } while (0)

int main(int argc, char **argv) {
  CUmoduleLoadingMode mode;
  CUresult st;
  int ok = 1;
  int i;

  if (argc > 3) {
    CHECK_CU(cuInit(0));
    CHECK_CU(cuModuleGetLoadingMode(&mode)); /* ok: cuInit ran earlier in the same branch */
  }
  CHECK_CU(cuModuleGetLoadingMode(&mode)); /* want LL006 "before cuInit returns CUDA_ERROR_NOT_INITIALIZED" */

  for (i = 1; i < argc; ++i) {
    cuInit(0);
    st = cuModuleGetLoadingMode(&mode); /* ok: same loop body, after cuInit */
  }
  st = cuModuleGetLoadingMode(&mode); /* want LL006 "cuInit\\(0\\) before the query" */

  ok = ok && getenv("NO_GPU") == NULL && cuInit(0) == CUDA_SUCCESS;
  if (cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS) { /* want LL006 "NOT_INITIALIZED" */
    fprintf(stderr, "query failed\n");
  }

  switch (argc) {
  case 2:
    cuInit(0);
    break;
  default:
    break;
  }
  printf("%d\n", cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS); /* want LL006 "cuModuleGetLoadingMode before cuInit" */

  st = argc > 4 ? cuInit(0) : CUDA_SUCCESS;
  st = cuModuleGetLoadingMode(&mode); /* want LL006 "before cuInit" */

  while (argc-- > 5) {
    cuInit(0);
  }
  (void)cuModuleGetLoadingMode(&mode); /* want LL006 "before cuInit" */

  if (cuInit(0) == CUDA_SUCCESS && cuModuleGetLoadingMode(&mode) == CUDA_SUCCESS) { /* ok: the left side of && runs first */
    printf("mode %d\n", (int)mode);
  }
  /* From here on the if condition above has run cuInit on every path. */
  st = cuModuleGetLoadingMode(&mode); /* ok: the condition of the if above always runs */
  printf("%d %d\n", ok, (int)st);
  return 0;
}

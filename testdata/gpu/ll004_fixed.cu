// LL004 fixed: every kernel of the module is loaded (cuFuncLoad) inside the
// measured region, so the measurement holds in both modes. argv[1] is the
// cubin built from ll004_module.cu. cuModuleEnumerateFunctions and
// cuFuncLoad need CUDA 12.4 or later.
#include "cu_common.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    std::printf("usage: %s MODULE.cubin\n", argv[0]);
    return 2;
  }
  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU_CHECK(cuCtxSetCurrent(ctx));

  size_t free_before = 0, free_after = 0, total = 0;
  CU_CHECK(cuMemGetInfo(&free_before, &total));
  CUmodule module;
  CU_CHECK(cuModuleLoad(&module, argv[1]));
  unsigned int count = 0;
  CU_CHECK(cuModuleGetFunctionCount(&count, module));
  CUfunction *functions = new CUfunction[count];
  CU_CHECK(cuModuleEnumerateFunctions(functions, count, module));
  for (unsigned int i = 0; i < count; ++i) {
    CU_CHECK(cuFuncLoad(functions[i]));
  }
  CU_CHECK(cuMemGetInfo(&free_after, &total));
  std::printf("module footprint measured around cuModuleLoad: %.1f MiB\n", (free_before - free_after) / 1048576.0);

  delete[] functions;
  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}

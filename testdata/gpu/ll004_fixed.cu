// LL004 fixed: the kernel is resolved inside the measured region, which
// loads it (and the module data it needs) under lazy loading too, so the
// measurement holds in both modes. argv[1] is the cubin built from
// ll004_module.cu.
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
  CUfunction fill_table;
  CU_CHECK(cuModuleGetFunction(&fill_table, module, "fill_table"));
  CU_CHECK(cuMemGetInfo(&free_after, &total));
  std::printf("module footprint measured around cuModuleLoad: %.1f MiB\n", (free_before - free_after) / 1048576.0);

  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}

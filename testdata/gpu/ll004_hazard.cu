// LL004 hazard: the module's device-memory footprint is measured around
// cuModuleLoad. Under lazy loading the load puts none of the module's code
// on the device yet, so the program reports 0 MiB for a module whose 200
// kernels take a few MiB once used; under eager loading it reports the
// real footprint. argv[1] is the cubin built from ll004_module.cu.
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
  CU_CHECK(cuMemGetInfo(&free_after, &total));
  std::printf("module footprint measured around cuModuleLoad: %.1f MiB\n", (free_before - free_after) / 1048576.0);

  CU_CHECK(cuModuleUnload(module));
  CU_CHECK(cuDevicePrimaryCtxRelease(dev));
  return 0;
}

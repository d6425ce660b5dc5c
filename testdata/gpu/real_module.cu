// real_module: a plugin host that loads a kernel image with the driver API
// and logs what the load cost, the way tools log it: the time in a key with
// its unit (load_us: N) and the device memory as module_mib=X. Under lazy
// loading cuModuleLoad loads none of the image's kernels, so both figures
// read near zero; the kernel it then runs loads at its first launch.
// argv[1] is the cubin built from ll004_module.cu.
//
// gpu-check: - LL004 confirmed
#include <chrono>
#include <cstdio>
#include <cuda.h>

static bool failed(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS) return false;
  const char *name = "?";
  cuGetErrorName(r, &name);
  std::printf("error: %s: %s\n", what, name);
  return true;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::printf("usage: %s PLUGIN.cubin\n", argv[0]);
    return 2;
  }
  CUdevice dev;
  CUcontext ctx;
  if (failed(cuInit(0), "cuInit") || failed(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
      failed(cuDevicePrimaryCtxRetain(&ctx, dev), "retain") || failed(cuCtxSetCurrent(ctx), "set context"))
    return 1;

  size_t free_before = 0, free_after = 0, total = 0;
  cuMemGetInfo(&free_before, &total);
  auto start = std::chrono::steady_clock::now();
  CUmodule plugin;
  if (failed(cuModuleLoad(&plugin, argv[1]), "cuModuleLoad")) return 1;
  auto end = std::chrono::steady_clock::now();
  cuMemGetInfo(&free_after, &total);
  long long load_us = std::chrono::duration_cast<std::chrono::microseconds>(end - start).count();
  std::printf("plugin %s: load_us: %lld module_mib=%.1f\n", argv[1], load_us,
              (free_before - free_after) / 1048576.0);

  // Run one of its kernels, as the host does for a health check.
  CUfunction probe;
  CUdeviceptr buf;
  if (failed(cuModuleGetFunction(&probe, plugin, "stencil_100"), "cuModuleGetFunction") ||
      failed(cuMemAlloc(&buf, 1 << 20), "cuMemAlloc"))
    return 1;
  int stride = 1;
  void *args[] = {&buf, &stride};
  if (failed(cuLaunchKernel(probe, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr), "launch") ||
      failed(cuCtxSynchronize(), "synchronize"))
    return 1;
  std::printf("health check ok\n");
  cuMemFree(buf);
  cuModuleUnload(plugin);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}

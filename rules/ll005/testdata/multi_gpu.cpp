// A multi-GPU inference runtime on the driver API.
#include <cuda.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#define CU_CHECK(expr)                                                   \
  do {                                                                   \
    CUresult res_ = (expr);                                              \
    if (res_ != CUDA_SUCCESS) std::fprintf(stderr, "%s: %d\n", #expr, res_); \
  } while (0)

static const char *kCubinPath = "kernels/attention.cubin";

struct Gpu {
  CUdevice device;
  CUcontext ctx;
  CUmodule module;
  CUfunction attention;
};

class Runtime {
 public:
  explicit Runtime(const void *image) : image_(image) {}

  void attach_all(int count) {
    for (int dev = 0; dev < count; ++dev) {
      CUdevice device;
      CUcontext ctx;
      CU_CHECK(cuDeviceGet(&device, dev));
      CU_CHECK(cuDevicePrimaryCtxRetain(&ctx, device));
      CU_CHECK(cuCtxSetCurrent(ctx));
      CU_CHECK(cuModuleLoadData(&modules_[dev], image_));  // want LL005 "cuModuleLoadData in a loop that switches with cuCtxSetCurrent"
    }
  }

  void attach_gpus(std::vector<Gpu> &gpus) {
    for (auto &g : gpus) {
      CU_CHECK(cuCtxPushCurrent(g.ctx));
      CU_CHECK(cuModuleLoad(&g.module, kCubinPath));  // want LL005 "cuLibraryLoadFromFile loads it once for every context"
      CU_CHECK(cuModuleGetFunction(&g.attention, g.module, "attention"));
      CU_CHECK(cuCtxPopCurrent(nullptr));
    }
  }

  // Each device gets the image built for its architecture.
  void attach_per_arch(int count, const std::string &dir) {
    for (int dev = 0; dev < count; ++dev) {
      CUdevice device;
      cuDeviceGet(&device, dev);
      int major = 0, minor = 0;
      cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
      cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
      cudaSetDevice(dev);
      char path[256];
      std::snprintf(path, sizeof path, "%s/kernels_sm%d%d.cubin", dir.c_str(), major, minor);
      cuModuleLoad(&modules_[dev], path);  // ok: the file name depends on the device
    }
  }

  void attach_from_table(int count, const void *const *per_device_images) {
    for (int dev = 0; dev < count; ++dev) {
      cudaSetDevice(dev);
      const void *img = per_device_images[dev];
      cuModuleLoadData(&modules_[dev], img);  // ok: one image per device, read from a table
    }
  }

 private:
  const void *image_;
  CUmodule modules_[16];
};

// The same module through a helper that loads into whatever is current.
static CUmodule load_into_current(const char *path) {
  CUmodule m = nullptr;
  CU_CHECK(cuModuleLoad(&m, path));  // want LL005 "cuModuleLoad through load_into_current"
  return m;
}

void load_everywhere(const std::vector<CUcontext> &ctxs, const char *path, std::vector<CUmodule> &out) {
  for (CUcontext c : ctxs) {
    cuCtxSetCurrent(c);
    out.push_back(load_into_current(path));
  }
}

// The helper takes the file per device: different modules.
void load_per_device_files(const std::vector<CUcontext> &ctxs, const std::vector<std::string> &files,
                           std::vector<CUmodule> &out) {
  for (size_t i = 0; i < ctxs.size(); ++i) {
    cuCtxSetCurrent(ctxs[i]);
    out.push_back(load_into_current(files[i].c_str()));  // ok: the helper loads files[i], one per context
  }
}

// The switch lives in a helper, the load in the loop.
static void make_current(int ordinal) { cudaSetDevice(ordinal); }

void load_after_helper_switch(int n, const void *fatbin, CUmodule *mods) {
  for (int i = 0; i < n; ++i) {
    make_current(i);
    cuModuleLoadFatBinary(&mods[i], fatbin);  // want LL005 "switches with cudaSetDevice"
  }
}

// An algorithm runs the body once per device.
void load_with_for_each(const std::vector<int> &devices, const void *fatbin, CUmodule *mods) {
  std::for_each(devices.begin(), devices.end(), [&](int d) {
    cudaSetDevice(d);
    cuModuleLoadFatBinary(&mods[d], fatbin);  // want LL005 "loaded into each context by hand"
  });
}

// One thread per device, each loading the same image.
void load_in_threads(int n, const void *image, CUmodule *mods) {
  std::vector<std::thread> workers;
  for (int d = 0; d < n; ++d) {
    workers.emplace_back([&, d] {
      cudaSetDevice(d);
      cuModuleLoadDataEx(&mods[d], image, 0, nullptr, nullptr);  // want LL005 "cuModuleLoadDataEx"
    });
  }
  for (auto &w : workers) w.join();
}

// A lambda called once per device.
void load_with_lambda(int n, const std::string &dir, CUmodule *mods) {
  auto init_device = [&](int d) {
    cudaSetDevice(d);
    std::string path = dir + "/kernels.cubin";
    CU_CHECK(cuModuleLoad(&mods[d], path.c_str()));  // want LL005 "cuModuleLoad through init_device"
  };
  for (int d = 0; d < n; ++d) {
    init_device(d);
  }
}

// The path is built from the device number: a different file per device.
void load_numbered(int n, const std::string &dir, CUmodule *mods) {
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    std::string path = dir + "/kernels_" + std::to_string(d) + ".cubin";
    cuModuleLoad(&mods[d], path.c_str());  // ok: one file per device
  }
}

const void *image_for_current_device();

// The image is chosen for the device made current.
void load_matching(int n, CUmodule *mods) {
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cuModuleLoadData(&mods[d], image_for_current_device());  // ok: the image follows the current device
  }
}

// Several images, the same set into each context.
void load_set(const std::vector<CUcontext> &ctxs, const std::vector<const void *> &images,
              std::vector<std::vector<CUmodule>> &mods) {
  for (size_t c = 0; c < ctxs.size(); ++c) {
    cuCtxSetCurrent(ctxs[c]);
    for (size_t j = 0; j < images.size(); ++j) {
      cuModuleLoadData(&mods[c][j], images[j]);  // want LL005 "loaded into each context"
    }
  }
}

template <int N>
void load_fixed(CUcontext (&ctxs)[N], const void *image, CUmodule (&mods)[N]) {
  for (int i = 0; i < N; ++i) {
    cuCtxPushCurrent(ctxs[i]);
    cuModuleLoadData(&mods[i], image);  // want LL005 "cuCtxPushCurrent"
    cuCtxPopCurrent(nullptr);
  }
}

// Retrying in one context is not loading into each context.
bool load_with_retry(CUcontext ctx, const char *path, CUmodule *mod) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    cuCtxSetCurrent(ctx);
    if (cuModuleLoad(mod, path) == CUDA_SUCCESS) return true;  // ok: the same context every time
  }
  return false;
}

// Looking for the first device that can take the module.
int first_device_that_loads(int n, const void *image, CUmodule *mod) {
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    if (cuModuleLoadData(mod, image) == CUDA_SUCCESS) {  // ok: stops at the first device that loads it
      return d;
    }
  }
  return -1;
}

// Only the first device gets the module.
void load_on_first(int n, const void *image, CUmodule *mod, float **bufs) {
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cudaMalloc(&bufs[d], 1 << 20);
    if (d == 0) {
      cuModuleLoadData(mod, image);  // ok: loaded in one iteration only
    }
  }
}

// A per-device self-test that keeps nothing loaded.
int self_test(int n, const void *image) {
  int ok = 0;
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    CUmodule probe;
    if (cuModuleLoadData(&probe, image) != CUDA_SUCCESS) continue;  // ok: unloaded in the same iteration
    ++ok;
    cuModuleUnload(probe);
  }
  return ok;
}

// Launches only.
void launch_everywhere(const std::vector<Gpu> &gpus, void **args) {
  for (const auto &g : gpus) {
    cuCtxSetCurrent(g.ctx);
    cuLaunchKernel(g.attention, 64, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);  // ok: no load in the loop
  }
}

// Loading several modules into one context.
void load_modules(CUcontext ctx, const char **paths, int n, CUmodule *mods) {
  cuCtxSetCurrent(ctx);
  for (int i = 0; i < n; ++i) {
    cuModuleLoad(&mods[i], paths[i]);  // ok: one context, set before the loop
  }
}

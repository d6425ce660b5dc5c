// A plug-in host that reports how much device memory each plug-in takes.
#include <cuda.h>
#include <nvml.h>
#include <cstdio>
#include <string>
#include <vector>

#define DRV_CALL(expr)                                        \
  do {                                                        \
    CUresult status_ = (expr);                                \
    if (status_ != CUDA_SUCCESS) {                            \
      std::fprintf(stderr, "%s failed: %d\n", #expr, status_); \
    }                                                         \
  } while (0)

namespace host {

static size_t free_device_bytes() {
  size_t free_b = 0, total_b = 0;
  DRV_CALL(cuMemGetInfo(&free_b, &total_b));
  return free_b;
}

static void log_free_memory(const char *tag) {
  size_t free_b = 0, total_b = 0;
  cudaMemGetInfo(&free_b, &total_b);
  std::printf("[%s] free: %zu MiB\n", tag, free_b >> 20);
}

static CUmodule open_plugin(const std::string &path) {
  CUmodule mod = nullptr;
  DRV_CALL(cuModuleLoad(&mod, path.c_str()));  // want LL004 "device memory is measured around cuModuleLoad \\(through open_plugin\\)"
  return mod;
}

static CUfunction open_entry(const std::string &path, const char *entry) {
  CUmodule mod = nullptr;
  CUfunction fn = nullptr;
  DRV_CALL(cuModuleLoad(&mod, path.c_str()));  // ok: the helper resolves the entry point it loads
  DRV_CALL(cuModuleGetFunction(&fn, mod, entry));
  return fn;
}

struct PluginInfo {
  std::string name;
  CUmodule module;
  size_t bytes;
};

class PluginHost {
 public:
  // The helper's query wraps the load: the difference is the "plug-in size".
  size_t add(const std::string &name, const void *image) {
    const size_t before = free_device_bytes();
    CUmodule mod;
    DRV_CALL(cuModuleLoadData(&mod, image));  // want LL004 "device memory is measured around cuModuleLoadData as if"
    const size_t after = free_device_bytes();
    plugins_.push_back({name, mod, before - after});
    return before - after;
  }

  size_t add_from_disk(const std::string &path) {
    log_free_memory("before plug-in");
    CUmodule mod = open_plugin(path);
    log_free_memory("after plug-in");
    plugins_.push_back({path, mod, 0});
    return plugins_.size();
  }

  size_t add_resolved(const std::string &path, const char *entry) {
    const size_t before = free_device_bytes();
    CUfunction fn = open_entry(path, entry);
    const size_t after = free_device_bytes();
    entries_.push_back(fn);
    return before - after;
  }

  // The load and the resolution are measured apart, and reported apart.
  void add_profiled(const void *image, const char *entry) {
    size_t f0, f1, f2, total;
    cuMemGetInfo(&f0, &total);
    CUmodule mod;
    cuModuleLoadData(&mod, image);  // ok: the next measurement covers the kernels it resolves
    cuMemGetInfo(&f1, &total);
    CUfunction fn;
    cuModuleGetFunction(&fn, mod, entry);
    cuMemGetInfo(&f2, &total);
    std::printf("image %zu, kernels %zu\n", f0 - f1, f1 - f2);
  }

  // Memory for the plug-in's buffers is allocated in the same window: the
  // difference is dominated by the allocation, not the module.
  size_t add_with_workspace(const void *image, size_t workspace_bytes) {
    size_t before, after, total;
    cuMemGetInfo(&before, &total);
    CUmodule mod;
    cuModuleLoadData(&mod, image);  // ok: an allocation in the measured window
    CUdeviceptr workspace;
    cuMemAlloc(&workspace, workspace_bytes);
    cuMemGetInfo(&after, &total);
    return before - after;
  }

 private:
  std::vector<PluginInfo> plugins_;
  std::vector<CUfunction> entries_;
};

}  // namespace host

// NVML sees the process's usage the same way.
unsigned long long nvml_module_usage(nvmlDevice_t dev, const char *cubin) {
  nvmlMemory_t before, after;
  nvmlDeviceGetMemoryInfo(dev, &before);
  CUmodule mod;
  if (cuModuleLoad(&mod, cubin) != CUDA_SUCCESS) return 0;  // want LL004 "measured around cuModuleLoad"
  nvmlDeviceGetMemoryInfo(dev, &after);
  return after.used - before.used;
}

// A library image measured the same way.
size_t library_usage(const char *path) {
  size_t before, after, total;
  cuMemGetInfo_v2(&before, &total);
  CUlibrary lib;
  cuLibraryLoadFromFile(&lib, path, nullptr, nullptr, 0, nullptr, nullptr, 0);  // want LL004 "cuLibraryGetKernel and cuKernelGetFunction"
  cuMemGetInfo_v2(&after, &total);
  return before - after;
}

size_t library_usage_resolved(const char *path, const char *kernel_name) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUlibrary lib;
  cuLibraryLoadFromFile(&lib, path, nullptr, nullptr, 0, nullptr, nullptr, 0);  // ok: the kernel is loaded into the context before the second query
  CUkernel kernel;
  cuLibraryGetKernel(&kernel, lib, kernel_name);
  CUfunction fn;
  cuKernelGetFunction(&fn, kernel);
  cuMemGetInfo(&after, &total);
  return before - after;
}

// Queries and load in different functions: nothing ties them together.
size_t free_now() {
  size_t f, t;
  cuMemGetInfo(&f, &t);  // ok: a query with no load between it and another
  return f;
}

CUmodule load_only(const char *path) {
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: no measurement here
  return m;
}

// A lambda defined between the queries runs later, outside them.
void deferred_loader(const char *path, std::vector<CUmodule> &mods) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  auto later = [&mods, path] {
    CUmodule m;
    cuModuleLoad(&m, path);  // ok: the lambda does not run between the queries
    mods.push_back(m);
  };
  cuMemGetInfo(&after, &total);
  std::printf("%zu\n", before - after);
  mods.reserve(4);
  (void)later;
}

// The same lambda called between the queries does run there.
void called_loader(const char *path, std::vector<CUmodule> &mods) {
  size_t before, after, total;
  auto load = [&] {
    CUmodule m;
    cuModuleLoad(&m, path);  // want LL004 "measured around cuModuleLoad \\(through load\\)"
    mods.push_back(m);
  };
  cuMemGetInfo(&before, &total);
  load();
  cuMemGetInfo(&after, &total);
  std::printf("%zu\n", before - after);
}

// Code that checks the loading mode measures knowingly.
size_t mode_aware_usage(const char *path) {
  CUmoduleLoadingMode mode;
  cuModuleGetLoadingMode(&mode);
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: the function asks whether loading is lazy
  cuMemGetInfo(&after, &total);
  return mode == CU_MODULE_EAGER_LOADING ? before - after : 0;
}

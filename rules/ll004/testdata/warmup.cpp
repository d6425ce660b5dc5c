// Start-up code meant to have every kernel on the device before serving.
#include <cuda.h>
#include <string>
#include <vector>

#define CU_CHECK(x) (void)(x)

static std::vector<CUmodule> g_modules;

void preloadKernelImages(const std::vector<std::string> &paths) {
  for (const auto &p : paths) {
    CUmodule m;
    CU_CHECK(cuModuleLoad(&m, p.c_str()));  // want LL004 "preloadKernelImages only loads the module with cuModuleLoad"
    g_modules.push_back(m);
  }
}

// Resolving every kernel the module has does load them.
void preload_all_kernels(const void *image) {
  CUmodule m;
  CU_CHECK(cuModuleLoadData(&m, image));  // ok: every function is loaded below
  unsigned int count = 0;
  cuModuleGetFunctionCount(&count, m);
  std::vector<CUfunction> fns(count);
  cuModuleEnumerateFunctions(fns.data(), count, m);
  for (CUfunction f : fns) {
    cuFuncLoad(f);
  }
  g_modules.push_back(m);
}

static void resolve_entry_points(CUmodule m) {
  CUfunction f;
  cuModuleGetFunction(&f, m, "encode");
  cuModuleGetFunction(&f, m, "decode");
}

void WarmUpCodec(const void *image) {
  CUmodule m;
  CU_CHECK(cuModuleLoadData(&m, image));  // ok: a helper resolves the kernels
  resolve_entry_points(m);
}

class Engine {
 public:
  void warmup(const std::string &dir) {
    CUmodule m;
    CU_CHECK(cuModuleLoad(&m, (dir + "/attention.cubin").c_str()));  // want LL004 "warmup only loads"
    modules_.push_back(m);
  }

  // Loading for later use: the name claims nothing.
  void load(const std::string &path) {
    CUmodule m;
    CU_CHECK(cuModuleLoad(&m, path.c_str()));  // ok: an ordinary loader
    modules_.push_back(m);
  }

  void init(const void *image) {
    auto preload = [&] {
      CUmodule m;
      CU_CHECK(cuModuleLoadData(&m, image));  // want LL004 "preload only loads the module with cuModuleLoadData"
      modules_.push_back(m);
    };
    preload();
  }

 private:
  std::vector<CUmodule> modules_;
};

// Context-independent loading, kernels fetched into the current context.
void make_resident(const void *image, const char **names, int n, std::vector<CUfunction> &out) {
  CUlibrary lib;
  CU_CHECK(cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0));  // ok: cuKernelGetFunction loads each kernel
  for (int i = 0; i < n; ++i) {
    CUkernel k;
    cuLibraryGetKernel(&k, lib, names[i]);
    CUfunction f;
    cuKernelGetFunction(&f, k);
    out.push_back(f);
  }
}

// Getting the kernel handles alone loads nothing.
void make_resident_handles(const void *image, const char **names, int n, std::vector<CUkernel> &out) {
  CUlibrary lib;
  CU_CHECK(cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0));  // want LL004 "make_resident_handles only loads .* cuLibraryGetKernel and cuKernelGetFunction"
  for (int i = 0; i < n; ++i) {
    CUkernel k;
    cuLibraryGetKernel(&k, lib, names[i]);
    out.push_back(k);
  }
}

template <typename Registry>
void eager_register(Registry &reg, const void *image) {
  CUmodule m;
  CU_CHECK(cuModuleLoadData(&m, image));  // want LL004 "eager_register only loads"
  reg.add(m);
}

// A warm-up that launches the kernel it loaded.
void warm_up_launch(const void *image, void **args) {
  CUmodule m;
  CUfunction f;
  CU_CHECK(cuModuleLoadData(&m, image));  // ok: the launch below loads the kernel
  CU_CHECK(cuModuleGetFunction(&f, m, "noop"));
  CU_CHECK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
}

// Loads a module for its constant tables, not for its kernels.
void preload_constants(const void *image, const float *table, size_t bytes) {
  CUmodule m;
  CU_CHECK(cuModuleLoadData(&m, image));  // ok: the module is loaded for its data
  CUdeviceptr dst;
  size_t size;
  CU_CHECK(cuModuleGetGlobal(&dst, &size, m, "coefficients"));
  CU_CHECK(cuMemcpyHtoD(dst, table, bytes < size ? bytes : size));
}

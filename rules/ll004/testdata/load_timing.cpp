// Start-up profiling of a driver-API application.
#include <benchmark/benchmark.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <omp.h>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#define CHECK_CU(call)                                              \
  do {                                                              \
    CUresult err_ = (call);                                         \
    if (err_ != CUDA_SUCCESS) throw std::runtime_error(#call);      \
  } while (0)

using Clock = std::chrono::high_resolution_clock;

std::vector<char> read_image(const std::string &path);
void initialize_model(CUmodule mod);

double load_ms(const std::string &path, CUmodule *out) {
  auto t0 = std::chrono::steady_clock::now();
  CHECK_CU(cuModuleLoad(out, path.c_str()));  // want LL004 "cuModuleLoad is timed as if it loaded the module"
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

// Reading the file is part of what the author calls "load time".
double load_from_disk_ms(const std::string &path, CUmodule *out) {
  const auto start = Clock::now();
  std::vector<char> image = read_image(path);
  CHECK_CU(cuModuleLoadData(out, image.data()));  // want LL004 "cuModuleLoadData is timed"
  const auto stop = Clock::now();
  std::printf("loaded %s in %.2f ms\n", path.c_str(),
              std::chrono::duration<double, std::milli>(stop - start).count());
  return std::chrono::duration<double, std::milli>(stop - start).count();
}

// A timing helper that runs what it is given.
template <typename Fn>
double time_ms(Fn &&fn) {
  auto begin = std::chrono::steady_clock::now();
  fn();
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(end - begin).count();
}

void startup_report(const std::vector<std::string> &paths, std::vector<CUmodule> &mods) {
  for (const auto &p : paths) {
    CUmodule m;
    double ms = time_ms([&] {
      CHECK_CU(cuModuleLoad(&m, p.c_str()));  // want LL004 "cuModuleLoad \\(through time_ms\\) is timed"
    });
    std::printf("%s: %.3f ms\n", p.c_str(), ms);
    mods.push_back(m);
  }
}

void startup_report_resolved(const std::string &path, const char *entry, CUfunction *fn) {
  double ms = time_ms([&] {
    CUmodule m;
    CHECK_CU(cuModuleLoad(&m, path.c_str()));  // ok: the lambda resolves the kernel inside the timed call
    CHECK_CU(cuModuleGetFunction(fn, m, entry));
  });
  std::printf("%.3f ms\n", ms);
}

// CUDA events around the load.
float load_with_events(const void *image, CUmodule *mod) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  cuModuleLoadDataEx(mod, image, 0, nullptr, nullptr);  // want LL004 "cuModuleLoadDataEx is timed"
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  return ms;
}

// OpenMP wall clock, a fat binary.
double fatbin_seconds(const void *fatbin, CUmodule *mod) {
  double t = omp_get_wtime();
  cuModuleLoadFatBinary(mod, fatbin);  // want LL004 "cuModuleLoadFatBinary is timed"
  return omp_get_wtime() - t;
}

// Google Benchmark: every iteration loads and unloads the image.
static void BM_ModuleLoad(benchmark::State &state) {
  std::vector<char> image = read_image("kernels.cubin");
  for (auto _ : state) {
    CUmodule m;
    cuModuleLoadData(&m, image.data());  // want LL004 "timed as if it loaded the module"
    cuModuleUnload(m);
  }
}
BENCHMARK(BM_ModuleLoad);

static void BM_ModuleLoadResolve(benchmark::State &state) {
  std::vector<char> image = read_image("kernels.cubin");
  for (auto _ : state) {
    CUmodule m;
    CUfunction f;
    cuModuleLoadData(&m, image.data());  // ok: the benchmarked loop also resolves the kernel
    cuModuleGetFunction(&f, m, "gemm");
    cuModuleUnload(m);
  }
}
BENCHMARK(BM_ModuleLoadResolve);

// Timing a kernel launch, with the module loaded before the timer starts.
float launch_ms(const char *path, void **params) {
  CUmodule m;
  CUfunction f;
  cuModuleLoad(&m, path);  // ok: outside the timed region
  cuModuleGetFunction(&f, m, "axpy");
  CUevent a, b;
  cuEventCreate(&a, 0);
  cuEventCreate(&b, 0);
  cuEventRecord(a, 0);
  cuLaunchKernel(f, 256, 1, 1, 256, 1, 1, 0, 0, params, nullptr);
  cuEventRecord(b, 0);
  cuEventSynchronize(b);
  float ms;
  cuEventElapsedTime(&ms, a, b);
  return ms;
}

// The whole initialization is timed, not the load.
double init_seconds(const char *path, const float *weights, size_t n) {
  auto t0 = Clock::now();
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: the timed region copies weights too
  CUdeviceptr d;
  cuMemAlloc(&d, n * sizeof(float));
  cuMemcpyHtoD(d, weights, n * sizeof(float));
  auto t1 = Clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// A function defined elsewhere runs in the timed region: it may do anything.
double model_seconds(const char *path) {
  auto t0 = Clock::now();
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: initialize_model may resolve or launch kernels
  initialize_model(m);
  auto t1 = Clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Run-time compilation dominates the measured time.
double jit_seconds(const char *src, CUmodule *mod) {
  auto t0 = Clock::now();
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
  nvrtcCompileProgram(prog, 0, nullptr);
  size_t size;
  nvrtcGetCUBINSize(prog, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(prog, cubin.data());
  cuModuleLoadData(mod, cubin.data());  // ok: the timed region compiles the code first
  auto t1 = Clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

// Load and resolution timed apart, both reported.
void split_timing(const char *path, const char *entry) {
  auto t0 = Clock::now();
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: the next timed region covers the resolution
  auto t1 = Clock::now();
  CUfunction f;
  cuModuleGetFunction(&f, m, entry);
  auto t2 = Clock::now();
  std::printf("load %.3f ms, resolve %.3f ms\n",
              std::chrono::duration<double, std::milli>(t1 - t0).count(),
              std::chrono::duration<double, std::milli>(t2 - t1).count());
}

// A loader class whose constructor loads, timed from the outside.
class KernelModule {
 public:
  explicit KernelModule(const std::string &path) {
    CHECK_CU(cuModuleLoad(&mod_, path.c_str()));  // want LL004 "cuModuleLoad \\(through KernelModule\\) is timed"
  }
  CUfunction get(const char *name) {
    CUfunction f;
    CHECK_CU(cuModuleGetFunction(&f, mod_, name));
    return f;
  }

 private:
  CUmodule mod_;
};

double construct_ms(const std::string &path) {
  auto t0 = Clock::now();
  KernelModule module(path);
  auto t1 = Clock::now();
  module.get("entry");
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

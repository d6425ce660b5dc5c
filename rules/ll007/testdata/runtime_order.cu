// CUDA C++ with the runtime API: settings after the first CUDA call, in
// helpers, lambdas, templates and RAII classes, and settings that come in
// time.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <unistd.h>

#define LOADING_ENV "CUDA_MODULE_LOADING"
constexpr const char *kDataLoadingEnv = "CUDA_MODULE_DATA_LOADING";

__global__ void fill(float *x) { x[threadIdx.x] = 1.f; }

static void print_devices() {
  int n = 0;
  cudaGetDeviceCount(&n);
  std::printf("%d devices\n", n);
}

// Named like the runtime, but only prints: it does not touch CUDA.
static void cudaPrintBanner() { std::puts("starting"); }

class GpuContext {
 public:
  explicit GpuContext(int dev) { cudaSetDevice(dev); }
  ~GpuContext() { cudaDeviceReset(); }
};

void after_free() {
  cudaFree(0);
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // want LL007 "setenv of CUDA_MODULE_LOADING after cudaFree has no effect"
}

void after_device_count_macro_name() {
  int n = 0;
  cudaGetDeviceCount(&n);
  ::setenv(LOADING_ENV, "EAGER", 1);  // want LL007 "after cudaGetDeviceCount has no effect"
}

void after_helper_in_branch(bool verbose) {
  if (verbose) print_devices();
  setenv(kDataLoadingEnv, "LAZY", 1);  // want LL007 "CUDA_MODULE_DATA_LOADING after print_devices \\(which calls CUDA\\)"
}

void after_launch(float *d) {
  fill<<<1, 32>>>(d);
  std::string kv = std::string("CUDA_MODULE_LOADING=") + std::getenv("MODE");
  putenv(const_cast<char *>(kv.c_str()));  // want LL007 "putenv of CUDA_MODULE_LOADING after a kernel launch"
}

void after_raii() {
  GpuContext ctx(0);
  unsetenv("CUDA_MODULE_LOADING");  // want LL007 "unsetenv of CUDA_MODULE_LOADING after GpuContext"
}

template <int Device>
void pin_and_force_eager() {
  cudaSetDevice(Device);
  std::setenv(LOADING_ENV, "EAGER", 1);  // want LL007 "after cudaSetDevice"
}

void in_worker_thread() {
  std::thread worker([] {
    cudaSetDevice(1);
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // want LL007 "after cudaSetDevice"
  });
  worker.join();
}

void force_eager() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // want LL007 "when run_late calls force_eager after cudaMalloc"
}

void run_late() {
  float *d = nullptr;
  cudaMalloc(&d, 1024);
  force_eager();
}

// Negative cases.

void first_thing() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // ok: no CUDA call before it, and main calls this first
  cudaSetDevice(0);
}

void other_variable() {
  cudaFree(0);
  setenv("CUDA_VISIBLE_DEVICES", "0", 1);  // ok: not a loading variable
  setenv("MY_CUDA_MODULE_LOADING", "EAGER", 1);  // ok: a different variable that only ends like one
  std::printf("%s\n", std::getenv("CUDA_MODULE_LOADING"));  // ok: reading is fine
}

void for_a_child(char **argv) {
  cudaFree(0);
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // ok: set for the child process started below
  execvp(argv[0], argv);
}

void other_arm(bool ready) {
  if (ready) {
    cudaSetDevice(0);
  } else {
    setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // ok: the CUDA call is in the other arm
  }
}

int early_exit(int argc) {
  if (argc < 2) {
    cudaDeviceReset();
    return 1;
  }
  setenv("CUDA_MODULE_LOADING", "LAZY", 1);  // ok: the branch with the CUDA call returns
  return 0;
}

void only_queries_that_do_not_initialize() {
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::puts(cudaGetErrorString(cudaGetLastError()));
  cudaPrintBanner();
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // ok: version and error queries do not initialize CUDA
}

void stored_lambda() {
  auto warm = [] { cudaFree(0); };
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // ok: the lambda runs after the setting
  warm();
}

void library_switch() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 0);  // ok: nothing here or in this file calls it after CUDA
}

static int g_forced = setenv("CUDA_MODULE_LOADING", "EAGER", 1);  // ok: a static initializer runs before main

int main() {
  first_thing();
  run_late();
  return g_forced;
}

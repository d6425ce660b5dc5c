// libraries_detail.cu: is the FIRST call of a CUDA library routine slower
// under CUDA_MODULE_LOADING=LAZY than under EAGER, once the library's own
// setup (cuBLAS handle, cuFFT plan, thrust vector, CUB temp storage) is done?
//
// Every setup step runs first and is synchronized (its own time is printed
// on a "setup" line). Then each routine is called three times; each call is
// timed with std::chrono::steady_clock around the call plus a
// cudaDeviceSynchronize, so a module or function load that lazy loading
// defers to the first call shows up in the first number. Routines:
//   cublasSgemm 256x256 (then, to separate cuBLAS's own first-use work from
//   kernel loading, a 1024x1024 Sgemm and an Snrm2 on the warm handle),
//   cufftExecC2C n=4096 batch 16, thrust::sort of 1<<20 ints (refilled with
//   the same data outside the timed region), cub::DeviceReduce::Sum of 1<<20
//   floats, and a trivial user kernel as a reference.
// Output: one line per routine, "name first_ms second_ms third_ms", after a
// line with the loading mode the driver reports (cuModuleGetLoadingMode,
// reached through the runtime, so no -lcuda is needed) and the variable.
// Build: nvcc -O2 -arch=sm_90 -o /tmp/libs libraries_detail.cu -lcublas -lcufft
// Run:   CUDA_MODULE_LOADING=LAZY /tmp/libs; CUDA_MODULE_LOADING=EAGER /tmp/libs
// (scripts/gpu-libraries.sh does both, three times each, after libraries.cu). Not a hazard/fixed
// pair: it is a measurement, not a program for gpu-check.sh.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda.h>  // CUmoduleLoadingMode (types only)
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cufft.h>
#include <cub/device/device_reduce.cuh>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,          \
                   cudaGetErrorString(e_));                                    \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CKB(x)                                                                 \
  do {                                                                         \
    cublasStatus_t s_ = (x);                                                   \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__,          \
                   __LINE__, #x, (int)s_);                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)
#define CKF(x)                                                                 \
  do {                                                                         \
    cufftResult r_ = (x);                                                      \
    if (r_ != CUFFT_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s:%d: %s: cuFFT result %d\n", __FILE__,           \
                   __LINE__, #x, (int)r_);                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

// timed runs f, checks for launch errors, waits for the device and returns
// the milliseconds the whole took on the host clock.
template <typename F>
static double timed(F &&f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

// three times the 1st, 2nd and 3rd call of f, running prep (untimed,
// synchronized) before each, and prints one line.
template <typename P, typename F>
static void three(const char *name, P &&prep, F &&f) {
  double t[3];
  for (int i = 0; i < 3; i++) {
    prep();
    CK(cudaDeviceSynchronize());
    t[i] = timed(f);
  }
  std::printf("%-18s %10.3f %10.3f %10.3f\n", name, t[0], t[1], t[2]);
}

static void setup(const char *name, double ms) {
  std::printf("setup %-12s %10.3f\n", name, ms);
}

int main() {
  const char *env = std::getenv("CUDA_MODULE_LOADING");
  auto none = [] {};

  // Context creation (under EAGER this is where this binary's kernels load).
  setup("context", timed([] { CK(cudaFree(0)); }));

  // Loading mode as the driver reports it.
  typedef CUresult (*GetModeFn)(CUmoduleLoadingMode *);
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion("cuModuleGetLoadingMode", &fn, 12000,
                                      cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess || fn == nullptr) {
    std::fprintf(stderr, "cuModuleGetLoadingMode not found (%d)\n", (int)q);
    return 1;
  }
  CUmoduleLoadingMode mode;
  CUresult cr = reinterpret_cast<GetModeFn>(fn)(&mode);
  if (cr != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuModuleGetLoadingMode failed: %d\n", (int)cr);
    return 1;
  }
  std::printf("mode %s (CUDA_MODULE_LOADING=%s)\n",
              mode == CU_MODULE_LAZY_LOADING    ? "LAZY"
              : mode == CU_MODULE_EAGER_LOADING ? "EAGER"
                                                : "?",
              env ? env : "unset");

  // cuBLAS: handle and matrices first.
  const int m = 256, big = 1024;
  float *A, *B, *C, alpha = 1.0f, beta = 0.0f, result = 0;
  CK(cudaMalloc(&A, sizeof(float) * big * big));
  CK(cudaMalloc(&B, sizeof(float) * big * big));
  CK(cudaMalloc(&C, sizeof(float) * big * big));
  CK(cudaMemset(A, 0, sizeof(float) * big * big));
  CK(cudaMemset(B, 0, sizeof(float) * big * big));
  cublasHandle_t h;
  setup("cublasCreate", timed([&] { CKB(cublasCreate(&h)); }));
  three("cublasSgemm256", none, [&] {
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &alpha, A, m, B, m,
                    &beta, C, m));
  });
  three("cublasSgemm1024", none, [&] {
    CKB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, big, big, big, &alpha, A,
                    big, B, big, &beta, C, big));
  });
  three("cublasSnrm2", none, [&] { CKB(cublasSnrm2(h, m * m, A, 1, &result)); });

  // cuFFT: plan and data first.
  const int n = 4096, batch = 16;
  cufftComplex *sig;
  CK(cudaMalloc(&sig, sizeof(cufftComplex) * n * batch));
  CK(cudaMemset(sig, 0, sizeof(cufftComplex) * n * batch));
  cufftHandle plan;
  setup("cufftPlan1d", timed([&] { CKF(cufftPlan1d(&plan, n, CUFFT_C2C, batch)); }));
  three("cufftExecC2C", none,
        [&] { CKF(cufftExecC2C(plan, sig, sig, CUFFT_FORWARD)); });

  // thrust::sort: the same unsorted keys copied in before every call.
  const int keys = 1 << 20;
  std::vector<int> host(keys);
  unsigned s = 12345u;
  for (int i = 0; i < keys; i++) {
    s = s * 1664525u + 1013904223u;
    host[i] = (int)(s >> 1);
  }
  thrust::device_vector<int> *dv = nullptr;
  setup("device_vector", timed([&] { dv = new thrust::device_vector<int>(keys); }));
  three("thrust_sort", [&] { thrust::copy(host.begin(), host.end(), dv->begin()); },
        [&] { thrust::sort(dv->begin(), dv->end()); });

  // cub::DeviceReduce::Sum: temp storage sized and allocated first.
  float *in, *out;
  void *temp = nullptr;
  size_t temp_bytes = 0;
  CK(cudaMalloc(&in, sizeof(float) * keys));
  CK(cudaMalloc(&out, sizeof(float)));
  CK(cudaMemset(in, 0, sizeof(float) * keys));
  setup("cub_sizing", timed([&] {
          CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, keys));
        }));
  CK(cudaMalloc(&temp, temp_bytes));
  CK(cudaDeviceSynchronize());
  three("cub_reduce_sum", none,
        [&] { CK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, keys)); });

  // A trivial user kernel, for reference.
  three("user_kernel", none, [&] { bump<<<(keys + 255) / 256, 256>>>(in, keys); });

  delete dv;
  CKF(cufftDestroy(plan));
  CKB(cublasDestroy(h));
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  CK(cudaFree(sig));
  CK(cudaFree(in));
  CK(cudaFree(out));
  CK(cudaFree(temp));
  return 0;
}

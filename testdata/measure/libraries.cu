// Is the first call of a CUDA library routine slower under lazy loading?
//
// Each library's setup (handle, plan, temporary storage, data) is done and
// synchronized first; then the routine is called three times, each timed
// with a host clock around the call and a cudaDeviceSynchronize. A user
// kernel is timed the same way for reference. Run it with
// CUDA_MODULE_LOADING=LAZY and =EAGER and compare the first calls: LL002's
// doc quotes the result (scripts/gpu-libraries.sh).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <cufft.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#define CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define BLAS(x) do { if ((x) != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "%s failed\n", #x); std::exit(1); } } while (0)
#define FFT(x) do { if ((x) != CUFFT_SUCCESS) { std::fprintf(stderr, "%s failed\n", #x); std::exit(1); } } while (0)

__global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

// ms runs f, waits for the device, and returns the time taken.
template <typename F>
static double ms(F &&f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  CUDA(cudaDeviceSynchronize());
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

template <typename F>
static void three(const char *name, F &&f) {
  double a = ms(f), b = ms(f), c = ms(f);
  std::printf("%-14s %9.3f %9.3f %9.3f\n", name, a, b, c);
}

int main() {
  const char *mode = std::getenv("CUDA_MODULE_LOADING");
  std::printf("CUDA_MODULE_LOADING=%s\n", mode ? mode : "(unset)");
  CUDA(cudaFree(nullptr));  // context

  // A user kernel.
  const int n = 1 << 20;
  float *x;
  CUDA(cudaMalloc(&x, n * sizeof(float)));
  CUDA(cudaMemset(x, 0, n * sizeof(float)));
  CUDA(cudaDeviceSynchronize());
  three("user-kernel", [&] { add_one<<<(n + 255) / 256, 256>>>(x, n); });

  // cuBLAS SGEMM 256x256.
  const int m = 256;
  cublasHandle_t h;
  BLAS(cublasCreate(&h));
  float *A, *B, *C;
  CUDA(cudaMalloc(&A, m * m * sizeof(float)));
  CUDA(cudaMalloc(&B, m * m * sizeof(float)));
  CUDA(cudaMalloc(&C, m * m * sizeof(float)));
  CUDA(cudaMemset(A, 0, m * m * sizeof(float)));
  CUDA(cudaMemset(B, 0, m * m * sizeof(float)));
  CUDA(cudaDeviceSynchronize());
  const float one = 1.0f, zero = 0.0f;
  three("cublasSgemm", [&] { BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, A, m, B, m, &zero, C, m)); });

  // cuFFT C2C, 4096 points, batch 16.
  cufftHandle plan;
  FFT(cufftPlan1d(&plan, 4096, CUFFT_C2C, 16));
  cufftComplex *sig;
  CUDA(cudaMalloc(&sig, 4096 * 16 * sizeof(cufftComplex)));
  CUDA(cudaMemset(sig, 0, 4096 * 16 * sizeof(cufftComplex)));
  CUDA(cudaDeviceSynchronize());
  three("cufftExecC2C", [&] { FFT(cufftExecC2C(plan, sig, sig, CUFFT_FORWARD)); });

  // thrust::sort of 1M ints (refilled before each timed call).
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 2654435761u) % 1000003;
  thrust::device_vector<int> keys(n);
  double sorts[3];
  for (double &t : sorts) {
    thrust::copy(host.begin(), host.end(), keys.begin());
    CUDA(cudaDeviceSynchronize());
    t = ms([&] { thrust::sort(keys.begin(), keys.end()); });
  }
  std::printf("%-14s %9.3f %9.3f %9.3f\n", "thrust::sort", sorts[0], sorts[1], sorts[2]);

  // cub::DeviceReduce::Sum with its storage sized and allocated first.
  float *sum;
  CUDA(cudaMalloc(&sum, sizeof(float)));
  size_t bytes = 0;
  CUDA(cub::DeviceReduce::Sum(nullptr, bytes, x, sum, n));
  void *tmp;
  CUDA(cudaMalloc(&tmp, bytes));
  CUDA(cudaDeviceSynchronize());
  three("cub::Sum", [&] { CUDA(cub::DeviceReduce::Sum(tmp, bytes, x, sum, n)); });

  FFT(cufftDestroy(plan));
  BLAS(cublasDestroy(h));
  return 0;
}

// CUTLASS's device-level operators instantiate their kernel in the file
// that uses them: run() and the call operator launch it, and the first
// one loads it. initialize() launches nothing. An operator type's objects
// share its kernel.
#include <cstdio>

namespace cutlass {
enum class Status { kSuccess };
namespace gemm {
namespace device {
template <class Kernel> struct GemmUniversalAdapter {
  Status initialize(int args, void *workspace);
  Status run(cudaStream_t stream = 0);
  Status operator()(cudaStream_t stream = 0);
};
}  // namespace device
}  // namespace gemm
}  // namespace cutlass

struct TF32Kernel {};
struct BF16Kernel {};
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<TF32Kernel>;
typedef cutlass::gemm::device::GemmUniversalAdapter<BF16Kernel> GemmBF16;

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

void profile(int args, void *workspace, int iterations) {
  Gemm gemm_op;
  gemm_op.initialize(args, workspace);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < iterations; ++i) {
    gemm_op();  // want LL002 "Gemm::run"
  }
  cudaEventRecord(stop);
  printf("gemm: %f ms\n", elapsed(start, stop) / iterations);
}

void profile_verified(int args, void *workspace, int iterations) {
  GemmBF16 gemm_op;
  gemm_op.initialize(args, workspace);
  gemm_op.run();  // the correctness run
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int i = 0; i < iterations; ++i) {
    gemm_op.run();  // ok: run once before the timer
  }
  cudaEventRecord(stop);
  printf("gemm: %f ms\n", elapsed(start, stop) / iterations);
}

struct Spec {
  static void run(int args, void *workspace) {
    Gemm gemm;
    gemm.initialize(args, workspace);
    gemm.run();
  }
};

void profile_through_helper(int args, void *workspace) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  Spec::run(args, workspace);  // want LL002 "Gemm::run"
  cudaEventRecord(stop);
  printf("gemm: %f ms\n", elapsed(start, stop));
}

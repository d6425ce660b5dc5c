// Template kernels count once, however many specializations and
// instantiations the file has; kernels and variables inside namespaces count.
#include <cuda_runtime.h>

namespace solver {
namespace detail {

__managed__ int iterations;  // want LL008 "`iterations` makes this translation unit load eagerly with its 3 kernels"

template <typename T, int BLOCK>
__global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

template <>
__global__ void axpy<double, 256>(double a, const double *x, double *y, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n) y[i] = fma(a, x[i], y[i]);
}

template __global__ void axpy<float, 128>(float, const float *, float *, int);

}  // namespace detail

template <typename T>
class Residual {
 public:
  __host__ __device__ T norm2(const T *r, int n) const {  // ok: a member function, not a managed variable
    T s = 0;
    for (int i = 0; i < n; ++i) s += r[i] * r[i];
    return s;
  }

 private:
  T last_;  // ok: a data member
};

__global__ void count_iteration() { atomicAdd(&detail::iterations, 1); }

__global__ void count_iteration(int by) { atomicAdd(&detail::iterations, by); }

}  // namespace solver

namespace {
__managed__ solver::Residual<float> scratch_residual;  // want LL008 "`scratch_residual` .* 3 kernels"
}

void solve(float *x, float *y, int n) {
  solver::detail::axpy<float, 128><<<(n + 127) / 128, 128>>>(2.0f, x, y, n);
  solver::count_iteration<<<1, 1>>>();
}

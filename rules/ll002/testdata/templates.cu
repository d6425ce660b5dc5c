// Template kernels: each instantiation is a kernel of its own and loads at
// its own first launch. A launch that leaves the template arguments to the
// compiler is the instantiation its argument types give.
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/raw_pointer_cast.h>
#include <chrono>
#include <cstdio>

template <typename T>
__global__ void saxpy(T a, T *x, int n) {}

template <typename T, int TILE = 8>
__global__ void tiled(const T *__restrict__ in, T *out, int n) {}

template <typename V>
__global__ void zero(V *p, int n);

typedef double real_t;
using index_t = unsigned;

struct Grid {
  float *cells;
  int n;
};

float preloaded_then_deduced(float *x, int n) {
  cudaFuncSetCacheConfig(saxpy<float>, cudaFuncCachePreferL1);  // loads saxpy<float>
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  saxpy<<<n / 256, 256>>>(0.5f, x, n);  // ok: a float and a float* make saxpy<float>, loaded above
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

float other_instantiation_warmed(double *x, int n) {
  saxpy<float><<<1, 1>>>(1.0f, (float *)x, n);  // warms saxpy<float> only
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  saxpy<<<n / 256, 256>>>(0.5, x, n);  // want LL002 "first launch of saxpy<double> in this function is timed"
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

float from_declared_types(int n) {
  double *d_x;
  cudaMalloc(&d_x, n * sizeof(double));
  double alpha = 3;
  cudaOccupancyMaxPotentialBlockSize(nullptr, nullptr, saxpy<double>, 0, 0);  // loads saxpy<double>
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(alpha, d_x, n);  // ok: alpha and d_x are declared double
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float through_a_typedef(real_t *v, int n) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, saxpy<double>);  // real_t is double
  real_t scale = 2;
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(scale, v, n);  // ok: saxpy<real_t> is saxpy<double>
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float alias_in_the_preload(index_t *v, int n) {
  cudaFuncSetAttribute(zero<index_t>, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
  auto t0 = std::chrono::steady_clock::now();
  zero<<<n / 256, 256>>>(v, n);  // ok: index_t is unsigned int, written either way
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float default_tile(const float *in, float *out, int n) {
  tiled< float, 8 ><<<1, 1>>>(in, out, n);  // warms tiled<float,8>
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  ::tiled<float><<<n / 256, 256>>>(in, out, n);  // ok: TILE defaults to 8
  tiled<<<n / 256, 256>>>(in, out, n);  // ok: deduced float, TILE 8
  tiled<float, 16><<<n / 256, 256>>>(in, out, n);  // want LL002 "tiled<float,16>"
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

float two_types(float *xf, double *xd, int n) {
  saxpy<<<1, 1>>>(1.0f, xf, n);  // warms saxpy<float>
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(2.0f, xf, n);  // ok: saxpy<float> again
  saxpy<<<n / 256, 256>>>(2.0, xd, n);  // want LL002 "saxpy<double>"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float members_and_containers(Grid g, thrust::device_vector<int> &flags) {
  zero<float><<<1, 1>>>(g.cells, g.n);
  zero<int><<<1, 1>>>(thrust::raw_pointer_cast(flags.data()), g.n);
  auto t0 = std::chrono::steady_clock::now();
  zero<<<g.n / 256, 256>>>(g.cells, g.n);  // ok: Grid::cells is a float*
  zero<<<g.n / 256, 256>>>(thrust::raw_pointer_cast(&flags[0]), g.n);  // ok: the vector holds ints
  zero<<<g.n / 256, 256>>>(reinterpret_cast<char *>(g.cells), g.n);  // want LL002 "zero<char>"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float unknown_but_warmed(Opaque *o, int n) {
  saxpy<int><<<1, 1>>>(1, (int *)nullptr, n);  // one instantiation of saxpy
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(o->scale(), o->buffer(), n);  // ok: types unknown, and an instantiation of saxpy ran before
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float unknown_and_cold(Opaque *o, int n) {
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(o->scale(), o->buffer(), n);  // want LL002 "saxpy<.> .a template instantiation whose arguments could not be deduced"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

template <typename T>
float inside_a_template(T *x, int n) {
  saxpy<T><<<1, 1>>>(T(1), x, n);
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(T(2), x, n);  // ok: saxpy<T>, as warmed
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float preloaded_through_a_local(float *x, int n) {
  auto *fn = &saxpy<float>;
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, fn);  // loads saxpy<float> through the pointer
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(2.0f, x, n);  // ok: the instantiation the pointer names
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

float local_names_another(double *x, int n) {
  auto fn = saxpy<float>;
  cudaFuncSetCacheConfig(fn, cudaFuncCachePreferL1);
  auto t0 = std::chrono::steady_clock::now();
  saxpy<<<n / 256, 256>>>(2.0, x, n);  // want LL002 "saxpy<double>"
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<float>(t1 - t0).count();
}

template <int N, int BLOCK>
__global__ void sweep_tiles(float *a, float *b) {}

float *tiles_a, *tiles_b;

template <int N, int BLOCK>
void launch_sweep(int blocks) {
  sweep_tiles<N, BLOCK><<<blocks, BLOCK>>>(tiles_a, tiles_b);
}

// The caller queries the occupancy of the instantiation the helper will
// launch (its own template parameters passed on): loaded before timing.
template <int N>
void measure_sweep(double *seconds) {
  const int block = 256;
  int active = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, sweep_tiles<N, block>, block, 0);
  auto t0 = std::chrono::steady_clock::now();
  launch_sweep<N, block>(80);  // ok: the occupancy query loaded it
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  *seconds = std::chrono::duration<double>(t1 - t0).count();
}

template void measure_sweep<1024>(double *);

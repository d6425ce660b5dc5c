// Timers as objects, launches through helpers, preload tables, lambdas.
#include <cuda_runtime.h>
#include <vector>

__global__ void gemm_naive(const float *a, const float *b, float *c, int n) {}
__global__ void gemm_tiled(const float *a, const float *b, float *c, int n) {}
__global__ void relu(float *x, int n) {}
__global__ void softmax(float *x, int n) {}

struct GpuTimer {
  cudaEvent_t a, b;
  void start() { cudaEventRecord(a); }
  float stop() { cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); return ms; }
};

static void run_naive(const float *a, const float *b, float *c, int n) {
  gemm_naive<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(a, b, c, n);
}

static void preload_all() {
  const void *kernels[] = {(const void *)relu, (const void *)softmax};
  for (const void *k : kernels) {
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, k);  // ok: a preload loop over a table of kernels
  }
}

float through_helper(const float *a, const float *b, float *c, int n) {
  GpuTimer timer;
  timer.start();
  run_naive(a, b, c, n);  // want LL002 "gemm_naive.*run_naive"
  return timer.stop();
}

float helper_warmed(const float *a, const float *b, float *c, int n) {
  run_naive(a, b, c, n);  // ok: warm-up through the helper
  GpuTimer timer;
  timer.start();
  run_naive(a, b, c, n);  // ok: the helper's kernel was loaded by the warm-up
  return timer.stop();
}

float table_preloaded(float *x, int n) {
  preload_all();
  GpuTimer timer;
  timer.start();
  relu<<<n / 256, 256>>>(x, n);  // ok: preload_all loaded every kernel of its table
  softmax<<<n / 256, 256>>>(x, n);  // ok: same
  return timer.stop();
}

float tiled_in_lambda(const float *a, const float *b, float *c, int n) {
  auto measure = [&](auto body) {
    GpuTimer timer;
    timer.start();
    body();
    return timer.stop();
  };
  return measure([&] { gemm_tiled<<<n / 16, 16>>>(a, b, c, n); });  // want LL002 "gemm_tiled in this function is timed by measure"
}

class Bench {
 public:
  float run(float *x, int n) {
    cudaEventRecord(start_);
    softmax<<<n / 256, 256, 0, stream_>>>(x, n);  // want LL002 "softmax"
    cudaEventRecord(stop_);
    float ms;
    cudaEventElapsedTime(&ms, start_, stop_);
    return ms;
  }

 private:
  cudaEvent_t start_, stop_;
  cudaStream_t stream_;
};

struct Task {
  template <typename F>
  void operator->*(F &&f);
};
Task task();

float stf_style(float *x, int n) {
  task()->*[&](cudaStream_t s) {
    relu<<<1, 1, 0, s>>>(x, n);  // ok: warm-up in a lambda that ->* runs at once
  };
  GpuTimer timer;
  timer.start();
  task()->*[&](cudaStream_t s) {
    relu<<<n / 256, 256, 0, s>>>(x, n);  // ok: warmed up by the task above
  };
  return timer.stop();
}

void between_measurements(float *x, int n, StopWatchInterface *t) {
  sdkStartTimer(&t);
  relu<<<1, 1>>>(x, n);  // want LL002 "first launch of relu"
  sdkStopTimer(&t);
  softmax<<<1, 1>>>(x, n);  // ok: between a stop and the next start, not measured
  sdkStartTimer(&t);
  relu<<<1, 1>>>(x, n);  // ok: launched before
  sdkStopTimer(&t);
}

__global__ void relax_edges(int *dist, int n) {}

// The launch as some formatters space it: `<< <` and `>> >`.
float spaced_launch(int *dist, int n) {
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin);
  relax_edges << < (n + 255) / 256, 256 >> >(dist, n);  // want LL002 "relax_edges"
  cudaEventRecord(end);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

__global__ void rank_init(float *ranks, int n) {}

// Methods of the file's own classes, called on objects: the object's
// declared class says which method runs.
template <typename Graph>
struct RankSolver {
  float *ranks;
  int n;
  void Init(cudaStream_t s) const { rank_init<<<(n + 255) / 256, 256, 0, s>>>(ranks, n); }
};

struct HostTally {
  int count = 0;
  void Init(cudaStream_t) { count = 0; }
};

struct CsrGraph {};

float solve_ranks(float *ranks, int n, cudaStream_t s) {
  RankSolver<CsrGraph> solver{ranks, n};
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin, s);
  solver.Init(s);  // want LL002 "rank_init"
  cudaEventRecord(end, s);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

float tally_only(cudaStream_t s) {
  HostTally tally;
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin, s);
  tally.Init(s);  // ok: HostTally::Init launches nothing
  cudaEventRecord(end, s);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

__global__ void tile_add(float *x, int n) {}

struct TileOp {
  float *x;
  int n;
  void run(cudaStream_t s) { tile_add<<<(n + 255) / 256, 256, 0, s>>>(x, n); }
};

// Methods called on elements of an array of the file's objects, and through
// a smart pointer.
float run_tiles(TileOp *ops, int count, cudaStream_t s) {
  TileOp local_ops[4];
  for (int i = 0; i < 4; i++) local_ops[i] = ops[i];
  cudaEvent_t begin, end;
  cudaEventCreate(&begin);
  cudaEventCreate(&end);
  cudaEventRecord(begin, s);
  for (int i = 0; i < 4; i++) {
    local_ops[i].run(s);  // want LL002 "tile_add"
  }
  cudaEventRecord(end, s);
  cudaEventSynchronize(end);
  float ms = 0;
  cudaEventElapsedTime(&ms, begin, end);
  return ms;
}

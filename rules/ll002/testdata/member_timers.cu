// Timers held as members: a solver's profiling timer reached through a
// pointer to its data (`data->t_diffuse.start()`), or used by the class's
// own methods without an object (`timer_.start()`, `this->timer_.stop()`).
// The member's class says it reads a clock, whatever the member's name.
#include <chrono>
#include <cstdio>

class Stopwatch {
 public:
  void start() { t0_ = std::chrono::steady_clock::now(); }
  void stop() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }
  double total() const { return total_; }

 private:
  std::chrono::steady_clock::time_point t0_;
  double total_ = 0;
};

struct Counter {
  void start() { n_ = 0; }  // no clock: a counter, not a timer
  void stop() { ++n_; }
  int n_ = 0;
};

struct SolverData {
  Stopwatch t_diffuse;
  Counter calls;
  int n;
};

__global__ void diffuse(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 0.5f;
}
__global__ void advect(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
__global__ void react(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] -= 1.0f;
}

void diffusion_step(SolverData *data, float *x) {
  data->t_diffuse.start();
  diffuse<<<(data->n + 255) / 256, 256>>>(x, data->n);  // want LL002 "diffuse"
  cudaDeviceSynchronize();
  data->t_diffuse.stop();
  std::printf("diffusion %.3f s\n", data->t_diffuse.total());
}

void counted_step(SolverData &data, float *x) {
  data.calls.start();
  react<<<(data.n + 255) / 256, 256>>>(x, data.n);  // ok: Counter's methods read no clock
  data.calls.stop();
  std::printf("%d calls\n", data.calls.n_);
}

class Advection {
 public:
  void step(float *x, int n) {
    timer_.start();
    advect<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "advect"
    cudaDeviceSynchronize();
    this->timer_.stop();
    std::printf("advection %.3f s\n", timer_.total());
  }

  void warmed_step(float *x, int n) {
    react<<<(n + 255) / 256, 256>>>(x, n);  // warm-up
    cudaDeviceSynchronize();
    this->timer_.start();
    react<<<(n + 255) / 256, 256>>>(x, n);  // ok: launched before the timer starts
    cudaDeviceSynchronize();
    timer_.stop();
    std::printf("reaction %.3f s\n", timer_.total());
  }

 private:
  Stopwatch timer_;
};

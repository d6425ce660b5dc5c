// Benchmark libraries that run the code they are handed once, unmeasured,
// before the runs they report: nvbench's state.exec warms the lambda up.
#include <nvbench/nvbench.cuh>

__global__ void halve(float *x, int n) {}
__global__ void negate(float *x, int n) {}
__global__ void clamp01(float *x, int n) {}

void bench_halve(nvbench::state &state) {
  float *x = nullptr;
  int n = 1 << 20;
  state.exec(nvbench::exec_tag::timer, [&](nvbench::launch &launch, auto &timer) {
    cudaMemsetAsync(x, 0, n * sizeof(float), launch.get_stream());
    timer.start();
    halve<<<n / 256, 256, 0, launch.get_stream()>>>(x, n);  // ok: state.exec runs the lambda once before the trials it reports
    timer.stop();
  });
}
NVBENCH_BENCH(bench_halve);

void bench_negate(nvbench::state &state) {
  float *x = nullptr;
  int n = 1 << 20;
  auto body = [&](nvbench::launch &launch, auto &timer) {
    timer.start();
    negate<<<n / 256, 256, 0, launch.get_stream()>>>(x, n);  // ok: handed to state.exec through a variable
    timer.stop();
  };
  state.exec(nvbench::exec_tag::timer, body);
}
NVBENCH_BENCH(bench_negate);

// A harness of the project's own with a method of the same name: nothing
// says it warms up.
struct Harness {
  template <class F>
  void exec(F &&f);
};

void run_clamp(Harness &h, float *x, int n) {
  h.exec([&](auto &timer) {
    timer.start();
    clamp01<<<n / 256, 256>>>(x, n);  // want LL002 "clamp01"
    timer.stop();
  });
}

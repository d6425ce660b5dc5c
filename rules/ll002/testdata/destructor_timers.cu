// Timer classes whose destructor reads the clock. One that only stops
// into its own members measures for nobody at the end of a block: the
// object dies with the value. One that prints, or hands the time to
// another object, reports what its block ran.
#include <chrono>
#include <cstdio>

__global__ void smooth(float *x, int n) {}
__global__ void affinity(float *x, int n) {}
__global__ void restrict_kernel(float *x, int n) {}

class CpuTimer {
 public:
  explicit CpuTimer(bool average) : average_(average) {}
  ~CpuTimer() { this->stop(); }
  void start() { last_ = std::chrono::high_resolution_clock::now(); running_ = true; }
  double stop() {
    double ns = 0;
    if (running_) {
      ns = std::chrono::duration<double, std::nano>(std::chrono::high_resolution_clock::now() - last_).count();
      running_ = false;
    }
    total_ += ns;
    return ns;
  }
  double elapsed() {
    return std::chrono::duration<double, std::nano>(std::chrono::high_resolution_clock::now() - last_).count();
  }

 private:
  std::chrono::high_resolution_clock::time_point last_;
  bool running_ = false, average_;
  double total_ = 0;
};

class ScopePrinter {
 public:
  explicit ScopePrinter(const char *name) : name_(name), begin_(std::chrono::steady_clock::now()) {}
  ~ScopePrinter() {
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin_;
    printf("%s: %f s\n", name_, took.count());
  }

 private:
  const char *name_;
  std::chrono::steady_clock::time_point begin_;
};

void compute_strength(float *x, int n) {
  CpuTimer timer(true);
  timer.start();
  smooth<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "smooth"
  cudaDeviceSynchronize();
  double elapsed = timer.elapsed();
  printf("smoothing: %f ns\n", elapsed);
  affinity<<<(n + 255) / 256, 256>>>(x, n);  // ok: after the last read; the destructor keeps the rest to itself
}

void restrict_level(float *x, int n) {
  ScopePrinter scope("restrict");
  restrict_kernel<<<(n + 255) / 256, 256>>>(x, n);  // want LL002 "restrict_kernel"
}

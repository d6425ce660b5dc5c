// Loaders as classes, with lambdas and timers.
#include <cuda.h>
#include <functional>

class ModuleCache {
 public:
  size_t add(const void *image) {
    size_t before = free_memory();
    CUmodule m;
    cuModuleLoadData(&m, image);  // want LL004 "measured around"
    return before - free_memory();
  }
  size_t add_measured(const void *image) {
    size_t before, after, total;
    cuMemGetInfo(&before, &total);
    CUmodule m;
    cuModuleLoadData(&m, image);  // want LL004 "measured around cuModuleLoadData"
    cuMemGetInfo(&after, &total);
    return before - after;
  }
  size_t add_resolved(const void *image) {
    size_t before = free_memory();
    CUmodule m;
    cuModuleLoadData(&m, image);  // ok: the kernel is resolved before measuring again
    CUfunction f;
    cuModuleGetFunction(&f, m, "entry");
    return before - free_memory();
  }
  void warm_up(const char *path) {
    CUmodule m;
    cuModuleLoad(&m, path);  // want LL004 "warm_up only loads"
  }

 private:
  static size_t free_memory() {
    size_t f, t;
    cuMemGetInfo(&f, &t);
    return f;
  }
};

struct Timer {
  void start();
  double stop();
};

double time_load(Timer &timer, const char *path) {
  timer.start();
  CUmodule m;
  cuModuleLoad(&m, path);  // want LL004 "timed"
  return timer.stop();
}

double time_launch(Timer &timer, CUfunction f, CUstream s, void **params) {
  CUmodule m;
  cuModuleLoad(&m, "k.cubin");  // ok: loaded before the timer starts
  timer.start();
  cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, params, nullptr);
  return timer.stop();
}

void from_lambda(const char *path) {
  auto load = [&] {
    CUmodule m;
    cuModuleLoad(&m, path);  // ok: no measurement around it
    return m;
  };
  load();
}

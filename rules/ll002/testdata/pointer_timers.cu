// A timer object reached through a pointer: a raw one, an owning one
// (std::unique_ptr, std::shared_ptr) or one made by std::make_unique, or a
// base pointer to a timer made as its derived class. Its methods read the
// clock as an object's do.
#include <cstdio>
#include <memory>

struct EventTimer {
  cudaEvent_t a, b;
  EventTimer() { cudaEventCreate(&a); cudaEventCreate(&b); }
  void start() { cudaEventRecord(a); }
  float stop() {
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    return ms;
  }
};

struct Timer {
  virtual ~Timer() {}
  virtual void start() = 0;
  virtual float stop() = 0;
};

struct DeviceTimer : Timer {
  cudaEvent_t a, b;
  void start() override { cudaEventCreate(&a); cudaEventCreate(&b); cudaEventRecord(a); }
  float stop() override {
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    return ms;
  }
};

__global__ void fill(float *p) {}
__global__ void axpy(float *p) {}
__global__ void norm(float *p) {}
__global__ void copy(float *p) {}

void made_unique(float *p) {
  auto t = std::make_unique<EventTimer>();
  t->start();
  fill<<<1, 32>>>(p);  // want LL002 "fill"
  printf("%f\n", t->stop());
}

void declared_owner(float *p) {
  std::shared_ptr<EventTimer> t(new EventTimer);
  t->start();
  axpy<<<1, 32>>>(p);  // want LL002 "axpy"
  printf("%f\n", t->stop());
}

void raw_pointer(float *p, EventTimer *t) {
  t->start();
  norm<<<1, 32>>>(p);  // want LL002 "norm"
  printf("%f\n", t->stop());
}

void base_pointer(float *p) {
  std::unique_ptr<Timer> t = std::make_unique<DeviceTimer>();
  t->start();
  copy<<<1, 32>>>(p);  // want LL002 "copy"
  printf("%f\n", t->stop());
}

void warmed(float *p) {
  auto t = std::make_unique<EventTimer>();
  fill<<<1, 32>>>(p);
  t->start();
  fill<<<1, 32>>>(p);  // ok: launched before the timer
  printf("%f\n", t->stop());
}

// Measurements nobody sees, and loops that keep only the samples of their
// later iterations: the first launch is timed, but that time goes nowhere.
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void blur(float *x, int n) {}
__global__ void sharpen(float *x, int n) {}
__global__ void denoise(float *x, int n) {}
__global__ void resample(float *x, int n) {}
__global__ void quantize(float *x, int n) {}

void elapsed_dropped(float *x, int n) {
  cudaEvent_t on, off;
  cudaEventCreate(&on);
  cudaEventCreate(&off);
  cudaEventRecord(on);
  blur<<<n / 256, 256>>>(x, n);  // ok: the elapsed time is computed into a local nothing reads
  cudaEventRecord(off);
  cudaEventSynchronize(off);
  float unused_ms = 0;
  cudaEventElapsedTime(&unused_ms, on, off);
  float seconds = unused_ms / 1000.0f;
}

float elapsed_returned(float *x, int n) {
  cudaEvent_t on, off;
  cudaEventRecord(on);
  sharpen<<<n / 256, 256>>>(x, n);  // want LL002 "sharpen"
  cudaEventRecord(off);
  cudaEventSynchronize(off);
  float ms = 0;
  cudaEventElapsedTime(&ms, on, off);
  float seconds = ms / 1000.0f;
  return seconds;
}

double skip_first(float *x, int n, int reps) {
  double total = 0;
  for (int r = 0; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    denoise<<<n / 256, 256>>>(x, n);  // ok: repetition 0 is left out of the total
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    if (r > 0) {
      total += s;
    }
  }
  return total / (reps - 1);
}

double skip_first_continue(float *x, int n, int reps) {
  std::vector<float> kept;
  cudaEvent_t on, off;
  for (int r = 0; r < reps; r++) {
    cudaEventRecord(on);
    resample<<<n / 256, 256>>>(x, n);  // ok: repetition 0 skips the push_back
    cudaEventRecord(off);
    cudaEventSynchronize(off);
    float ms;
    cudaEventElapsedTime(&ms, on, off);
    if (r < 1) continue;
    kept.push_back(ms);
  }
  return kept.size();
}

double first_printed(float *x, int n, int reps) {
  double total = 0;
  for (int r = 0; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    quantize<<<n / 256, 256>>>(x, n);  // want LL002 "quantize"
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    printf("rep %d: %f s\n", r, s);  // every repetition is shown, the first too
    if (r > 0) {
      total += s;
    }
  }
  return total / (reps - 1);
}

double skip_from_unknown_start(float *x, int n, int first, int reps) {
  double total = 0;
  for (int r = first; r < reps; r++) {
    auto t0 = std::chrono::steady_clock::now();
    blur<<<n / 256, 256>>>(x, n);  // want LL002 "blur"
    cudaDeviceSynchronize();
    auto t1 = std::chrono::steady_clock::now();
    if (r > 0) {
      total += std::chrono::duration<double>(t1 - t0).count();
    }
  }
  return total;
}

#include <sys/time.h>

double wall_seconds() {
  timeval tv;
  gettimeofday(&tv, nullptr);
  return tv.tv_sec + 1e-6 * tv.tv_usec;
}

__global__ void copy_rows(float *dst, const float *src, int n) {}

// One variable carries each interval: the read that ends the first one is
// subtracted on the spot, so nothing is measured from it to the next
// start, and the warm-up launches between the two go untimed.
void bandwidth_sweep(float *dst, const float *src, int n, int repeat) {
  double t = wall_seconds();
  for (int i = 0; i < repeat; i++) {
    cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice, 0);
  }
  cudaDeviceSynchronize();
  t = (wall_seconds() - t) / repeat;
  printf("copy engine: %f s\n", t);
  for (int block : {64, 128, 256}) {
    for (int i = 0; i < 4; i++) {
      copy_rows<<<n / block, block>>>(dst, src, n);  // ok: a warm-up between two measurements
    }
    cudaDeviceSynchronize();
    t = wall_seconds();
    for (int i = 0; i < repeat; i++) {
      copy_rows<<<n / block, block>>>(dst, src, n);
    }
    cudaDeviceSynchronize();
    t = (wall_seconds() - t) / repeat;
    printf("block %d: %f s\n", block, t);
  }
}

__global__ void fill_rows(float *dst, int n) {}

// The same shape with a cold launch inside a measurement: still reported.
void fill_once(float *dst, int n) {
  double t = wall_seconds();
  fill_rows<<<n / 256, 256>>>(dst, n);  // want LL002 "fill_rows"
  cudaDeviceSynchronize();
  t = wall_seconds() - t;
  printf("fill: %f s\n", t);
}

__global__ void triad(float *a, const float *b, const float *c, float s, int n) {}

// STREAM's convention: each kernel is timed on every pass and only the
// fastest pass is kept; the first pass, which loads the kernel, is the
// slowest, and no reported figure holds it.
double best_triad(float *a, const float *b, const float *c, int n, int passes) {
  double best = 1e30;
  for (int k = 0; k < passes; k++) {
    auto t0 = std::chrono::steady_clock::now();
    triad<<<n / 256, 256>>>(a, b, c, 3.0f, n);  // ok: only the minimum is kept
    cudaDeviceSynchronize();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

__global__ void scale_vec(float *a, float s, int n) {}

// The slowest pass is kept: it holds the load.
double worst_scale(float *a, int n, int passes) {
  double worst = 0;
  for (int k = 0; k < passes; k++) {
    auto t0 = std::chrono::steady_clock::now();
    scale_vec<<<n / 256, 256>>>(a, 2.0f, n);  // want LL002 "scale_vec"
    cudaDeviceSynchronize();
    worst = std::max(worst, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return worst;
}

// A deadline, not a measurement: the read has a timeout added to it, and
// the later read only tells how much of the budget is left.
int gather_before_deadline(float *x, int n, double timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(long(timeout_ms * 1000));
  quantize<<<n / 256, 256>>>(x, n);  // ok: a time budget, not a measurement
  auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - std::chrono::steady_clock::now());
  return left.count() > 0 ? 1 : 0;
}

// Blocks each name their reading `t`: the second block's is never read
// (its print is commented out), whatever the blocks around it do.
__global__ void factorize(float *x, int n) {}
__global__ void apply_blocks(float *x, int n) {}
__global__ void compose(float *x, int n) {}

struct StopClock {
  void reset() { t0 = std::chrono::steady_clock::now(); }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  std::chrono::steady_clock::time_point t0;
};

void blocks_with_own_t(float *x, int n) {
  StopClock timer;
  {
    timer.reset();
    factorize<<<n / 256, 256>>>(x, n);  // want LL002 "factorize"
    cudaDeviceSynchronize();
    const double t = timer.seconds();
    std::printf("factorize: %f s\n", t);
  }
  {
    timer.reset();
    apply_blocks<<<n / 256, 256>>>(x, n);  // ok: this block's t is never read
    cudaDeviceSynchronize();
    const double t = timer.seconds();
    // std::printf("apply: %f s\n", t);
  }
  {
    timer.reset();
    compose<<<n / 256, 256>>>(x, n);  // want LL002 "compose"
    cudaDeviceSynchronize();
    const double t = timer.seconds();
    std::printf("compose: %f s\n", t);
  }
}

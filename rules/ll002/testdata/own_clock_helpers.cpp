// Timestamp helpers the file defines itself: a function that reads a host
// clock once and returns what it read is a clock read where it is called.
#include <chrono>
#include <cstdio>
#include <vector>
#include <ctime>
#include <sys/time.h>
#include <cuda_runtime.h>

__global__ void advect(float *field, int n) {}
__global__ void diffuse(float *field, int n) {}
__global__ void project(float *field, int n) {}
__global__ void splat(float *field, int n) {}

static double wall_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

long long micros_now() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Reads the clock to throttle its messages, and returns a count: no
// timestamp.
static int pending_errors = 0;
static time_t last_report = 0;
int report_errors(const char *stage) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  if (tv.tv_sec - last_report > 5) {
    fprintf(stderr, "%s: %d errors\n", stage, pending_errors);
    last_report = tv.tv_sec;
  }
  return pending_errors;
}

// Formats the time of day for a log line: text, not a timestamp.
static char stamp_buf[32];
const char *log_stamp() {
  time_t now = time(NULL);
  strftime(stamp_buf, sizeof stamp_buf, "%H:%M:%S", localtime(&now));
  return stamp_buf;
}

void step_advect(float *field, int n) {
  double t0 = wall_seconds();
  advect<<<n / 256, 256>>>(field, n);  // want LL002 "advect"
  cudaDeviceSynchronize();
  double t1 = wall_seconds();
  printf("advect: %.3f ms\n", (t1 - t0) * 1e3);
}

void step_diffuse(float *field, int n) {
  long long start = micros_now();
  for (int k = 0; k < 20; k++) {
    diffuse<<<n / 256, 256>>>(field, n);  // want LL002 "diffuse"
  }
  cudaDeviceSynchronize();
  printf("diffuse: %lld us\n", micros_now() - start);
}

// Two error checks around a launch: nothing is measured.
int step_project(float *field, int n) {
  int errs = report_errors("before project");
  project<<<n / 256, 256>>>(field, n);  // ok: report_errors returns a count, not a time
  errs += report_errors("after project");
  return errs;
}

// Log lines stamped with the time of day.
void step_splat(float *field, int n) {
  printf("[%s] splat begins\n", log_stamp());
  splat<<<n / 256, 256>>>(field, n);  // ok: log_stamp formats the time of day
  printf("[%s] splat ends\n", log_stamp());
}

__global__ void upload_marker(float *field, int n) {}

std::chrono::time_point<std::chrono::steady_clock> host_time() { return std::chrono::steady_clock::now(); }

// Two intervals timed with the helper, one block each: the launch between
// them lies between the end of one and the start of the other, which are
// never combined.
void phases(float *field, int n, double *out) {
  {
    auto begin = host_time();
    cudaDeviceSynchronize();
    auto end = host_time();
    out[0] = std::chrono::duration<double>(end - begin).count();
  }
  upload_marker<<<1, 1>>>(field, n);  // ok: between two measured intervals
  {
    auto start = host_time();
    cudaMemset(field, 0, n * sizeof(float));
    auto done = host_time();
    out[1] = std::chrono::duration<double>(done - start).count();
  }
}

__global__ void hold_stream(int *flag) {}

std::vector<double> samples;

double micros_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

// Each block measures its own intervals with the helper; the launch in
// the block between them lies after the last read of one and before the
// first of the next, which no statement combines.
void measured_blocks(int *flag, cudaStream_t s) {
  {
    auto start = host_time();
    cudaStreamSynchronize(s);
    auto returned = host_time();
    cudaDeviceSynchronize();
    auto synced = host_time();
    samples.push_back(micros_between(start, returned));
    samples.push_back(micros_between(start, synced));
  }
  {
    hold_stream<<<1, 1, 0, s>>>(flag);  // ok: between two measured blocks
    cudaStreamSynchronize(s);
  }
  {
    auto start = host_time();
    cudaMemsetAsync(flag, 0, sizeof(int), s);
    auto returned = host_time();
    samples.push_back(micros_between(start, returned));
  }
}

// A compressor driver warms its kernels up only when asked for timings,
// and prints the time only then: on the runs that read the time, the
// warm-up ran first.
#include <cstdio>

__global__ void reset_state() {}
__global__ void encode(const char *in, char *out, long n) {}
__global__ void decode(const char *in, char *out, long n) {}

struct Timer {
  void start();
  double stop();
};

void compress(const char *in, char *out, long n, bool perf) {
  if (perf) {
    reset_state<<<1, 1>>>();  // the warm-up
    encode<<<64, 256>>>(in, out, n);
    cudaDeviceSynchronize();
  }
  Timer timer;
  timer.start();
  reset_state<<<1, 1>>>();  // ok: warmed up on every run that prints the time
  encode<<<64, 256>>>(in, out, n);  // ok: the same
  cudaDeviceSynchronize();
  double seconds = timer.stop();
  printf("compressed %ld bytes\n", n);
  if (perf) {
    double rate = n / seconds;
    printf("encoding: %f s, %f B/s\n", seconds, rate);
  }
}

void decompress(const char *in, char *out, long n, bool perf) {
  if (perf) {
    decode<<<64, 256>>>(in, out, n);  // the warm-up skips reset_state
    cudaDeviceSynchronize();
  }
  Timer timer;
  timer.start();
  reset_state<<<1, 1>>>();  // want LL002 "reset_state"
  decode<<<64, 256>>>(in, out, n);  // ok: warmed up when the time is printed
  cudaDeviceSynchronize();
  double seconds = timer.stop();
  if (perf) printf("decoding: %f s\n", seconds);
}

void compress_always_printed(const char *in, char *out, long n, bool perf) {
  if (perf) {
    encode<<<64, 256>>>(in, out, n);
  }
  Timer timer;
  timer.start();
  encode<<<64, 256>>>(in, out, n);  // want LL002 "encode"
  cudaDeviceSynchronize();
  double seconds = timer.stop();
  printf("encoding: %f s\n", seconds);  // printed on runs without the warm-up too
}

void compress_flag_changed(const char *in, char *out, long n, bool perf, bool verbose) {
  if (perf) {
    encode<<<64, 256>>>(in, out, n);
  }
  Timer timer;
  timer.start();
  encode<<<64, 256>>>(in, out, n);  // want LL002 "encode"
  cudaDeviceSynchronize();
  double seconds = timer.stop();
  perf = perf || verbose;  // the reads' condition is not the warm-up's any more
  if (perf) printf("encoding: %f s\n", seconds);
}

void compress_other_flag(const char *in, char *out, long n, bool warm, bool perf) {
  if (warm) {
    encode<<<64, 256>>>(in, out, n);
  }
  Timer timer;
  timer.start();
  encode<<<64, 256>>>(in, out, n);  // want LL002 "encode"
  cudaDeviceSynchronize();
  double seconds = timer.stop();
  if (perf) printf("encoding: %f s\n", seconds);
}

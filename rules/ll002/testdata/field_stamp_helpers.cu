// Stopwatch helpers of the file that read the clock into a field of the
// watch they are handed (start into begin, stop into end); a third reads
// the interval from the watch. What runs between a stop and the next
// start is measured by neither interval.
#include <cstdio>
#include <sys/time.h>

struct watch {
  struct timeval begin, end;
};

void start_watch(watch *w) { gettimeofday(&w->begin, NULL); }
void stop_watch(watch *w) { gettimeofday(&w->end, NULL); }
float watch_ms(watch *w) { return (w->end.tv_sec - w->begin.tv_sec) * 1e3f + (w->end.tv_usec - w->begin.tv_usec) / 1e3f; }

__global__ void print_matches(int *m, int n) {}
__global__ void gather(int *m, int n) {}

void copies(int *d, int *h, int n) {
  watch w;
  start_watch(&w);
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  stop_watch(&w);
  float upload = watch_ms(&w);
  print_matches<<<n / 128, 128>>>(d, n);  // ok: between one interval's stop and the next one's start
  cudaDeviceSynchronize();
  start_watch(&w);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  stop_watch(&w);
  printf("copies: %f ms\n", upload + watch_ms(&w));
}

void kernel_timed(int *d, int n) {
  watch w;
  start_watch(&w);
  gather<<<n / 128, 128>>>(d, n);  // want LL002 "gather"
  cudaDeviceSynchronize();
  stop_watch(&w);
  printf("gather: %f ms\n", watch_ms(&w));
}

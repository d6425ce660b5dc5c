// Two definitions that disagree resolve to nothing: no finding on a guess.
// Two that agree (a copy under another folder) resolve to what they share.
#include <ctime>

void launch(float *p);
void launch_same(float *p);

double bench_ambiguous(float *p) {
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  launch(p);  // ok: two definitions launch different kernels
  clock_gettime(CLOCK_MONOTONIC, &b);
  return b.tv_nsec - a.tv_nsec;
}

double bench_agreeing(float *p) {
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  launch_same(p);  // want LL002 "copy_a.*launch_same"
  clock_gettime(CLOCK_MONOTONIC, &b);
  return b.tv_nsec - a.tv_nsec;
}

// The CPU reference: its forward pass calls helpers of its own that do
// plain loops, named as the CUDA version's launchers are.
typedef struct { float w[16]; float act[16]; } Model;

void scale_forward(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++) out[i] = 0.5f * in[i];
}

void bias_forward(float *out, int n) {
  for (int i = 0; i < n; i++) out[i] += 1.0f;
}

void model_forward(Model *m) {
  scale_forward(m->act, m->w, 16);
  bias_forward(m->act, 16);
}

#ifndef TESTING
#include <stdio.h>
#include <time.h>

// Its own timing, built when the file is the program.
int main(void) {
  Model m = {0};
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  model_forward(&m);
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%ld ns\n", (long)(b.tv_nsec - a.tv_nsec));
  return 0;
}
#endif

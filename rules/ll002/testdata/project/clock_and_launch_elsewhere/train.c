// A training loop in plain C: it spells no clock read and no launch, both
// are calls into the other files.
#include <stdio.h>

double seconds_now(void);
void model_forward(float *w, int n);
void model_update(float *w, int n);

void train(float *w, int n, int steps) {
  for (int i = 0; i < steps; ++i) {
    double start = seconds_now();
    model_forward(w, n);  // want LL002 "forward_kernel"
    printf("step %d: %f s\n", i, seconds_now() - start);
  }
}

void train_warm(float *w, int n, int steps) {
  model_update(w, n);  // ok: one step before the timed ones
  for (int i = 0; i < steps; ++i) {
    double start = seconds_now();
    model_update(w, n);  // ok: loaded above
    printf("step %d: %f s\n", i, seconds_now() - start);
  }
}

void report(int steps) {
  double start = seconds_now();  // ok: nothing launched in between
  printf("%d steps\n", steps);
  printf("%f s\n", seconds_now() - start);
}

// The benchmark spells neither a clock read nor a launch: it times
// another file's launchers with another file's timer class, through the
// class's static methods.
#include <cstdio>
#include "../common/Timer.h"

void forward(float2 *work, int n);
void inverse(float2 *work, int n);

void run(float2 *work, int n, int passes) {
  inverse(work, n);
  for (int k = 0; k < passes; k++) {
    int th = Timer::Start();
    forward(work, n);  // want LL002 "fft512"
    double t = Timer::Stop(th, "fft");
    th = Timer::Start();
    inverse(work, n);  // ok: run once before the passes
    double ti = Timer::Stop(th, "ifft");
    printf("%f %f\n", t, ti);
  }
}

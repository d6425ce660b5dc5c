// A solver step that times its smoothing pass. The pattern's kernel is
// loaded by whoever calls smooth() first: here, main's setup pass.
#include <Kokkos_Core.hpp>
#include <cstdio>

void smooth(Kokkos::View<double *> x, int n) {
  Kokkos::parallel_for("smooth", n, KOKKOS_LAMBDA(int i) { x(i) *= 0.5; });
}

void timed_step(Kokkos::View<double *> x, int n) {
  Kokkos::Timer timer;
  smooth(x, n);  // ok: its only caller ran smooth() before calling it
  Kokkos::fence();
  printf("smooth: %f s\n", timer.seconds());
}

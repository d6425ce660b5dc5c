// KokkosKernels routines launch the library's Kokkos kernels, instantiated
// in the calling file, at their first call (it is not an NVIDIA library:
// its loads are lazy loading's like any kernel's).
#include <Kokkos_Core.hpp>
#include <KokkosBlas1_dot.hpp>
#include <KokkosBlas1_axpby.hpp>
#include <KokkosSparse_spiluk.hpp>
#include <cstdio>

using View = Kokkos::View<double *>;

double dot_timed(View x, View y) {
  Kokkos::Timer timer;
  double r = KokkosBlas::dot(x, y);  // want LL002 "KokkosBlas::dot"
  Kokkos::fence();
  std::printf("dot: %g s\n", timer.seconds());
  return r;
}

template <class Handle, class Rowmap, class Entries>
void symbolic_timed(Handle *kh, int fill, Rowmap rows, Entries cols, Rowmap lrows, Entries lcols, Rowmap urows, Entries ucols) {
  Kokkos::Timer timer;
  // ok: the symbolic phase works on host mirrors of the graph
  KokkosSparse::Experimental::spiluk_symbolic(kh, fill, rows, cols, lrows, lcols, urows, ucols);
  std::printf("symbolic: %g s\n", timer.seconds());
}

void axpby_warmed(View x, View y) {
  KokkosBlas::axpby(1.0, x, 2.0, y);  // warm-up
  Kokkos::fence();
  Kokkos::Timer timer;
  KokkosBlas::axpby(1.0, x, 2.0, y);  // ok: called once before the timer
  Kokkos::fence();
  std::printf("axpby: %g s\n", timer.seconds());
}

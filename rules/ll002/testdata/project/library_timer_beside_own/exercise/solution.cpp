// An exercise times its first parallel_for with Kokkos's timer: the
// project's own Timer class is another class.
#include <Kokkos_Core.hpp>
#include <cstdio>

int main(int argc, char *argv[]) {
  Kokkos::initialize(argc, argv);
  {
    const int n = 1 << 20;
    Kokkos::View<double *> y("y", n);
    Kokkos::Timer timer;
    Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(int i) { y(i) = 1.0; });  // want LL002 "parallel_for"
    Kokkos::fence();
    double time = timer.seconds();
    std::printf("fill: %g s\n", time);
  }
  Kokkos::finalize();
  return 0;
}

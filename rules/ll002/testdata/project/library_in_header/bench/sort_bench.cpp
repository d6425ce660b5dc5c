// Times the library's algorithms from a benchmark beside it.
#include <cstdio>
#include "../include/particles_sort.hpp"

void time_binning(Kokkos::View<int *> keys, Kokkos::View<int *> bins, int n) {
  Kokkos::Timer timer;
  particles::bin_by_cell(keys, bins, n);  // want LL002 "bin_by_cell"
  Kokkos::fence();
  printf("binning: %f s\n", timer.seconds());
}

void time_permute_warm(Kokkos::View<int *> data, Kokkos::View<int *> order, int n) {
  particles::permute(data, order, n);  // warm-up
  Kokkos::fence();
  Kokkos::Timer timer;
  particles::permute(data, order, n);  // ok: warmed up above
  Kokkos::fence();
  printf("permute: %f s\n", timer.seconds());
}

void time_host_count(Kokkos::View<int *> data, int n) {
  Kokkos::Timer timer;
  particles::count_on_host(data, n);  // ok: a host policy launches no kernel
  printf("count: %f s\n", timer.seconds());
}

void time_tally(Kokkos::View<int *> data, int n) {
  Kokkos::Timer timer;
  particles::tally(data, n);  // ok: compiled only for a build without a GPU
  printf("tally: %f s\n", timer.seconds());
}

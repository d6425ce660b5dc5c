// A header-only particle library: its algorithms run Kokkos patterns, so
// each first call launches (and loads) the kernels of its lambdas.
#pragma once
#include <Kokkos_Core.hpp>

namespace particles {

template <class View>
void bin_by_cell(View keys, View bins, int n) {
  Kokkos::parallel_for("bin", n, KOKKOS_LAMBDA(int i) { bins(i) = keys(i) / 16; });
}

template <class View>
void permute(View data, View order, int n) {
  Kokkos::parallel_for(
      "permute", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace>(0, n),
      KOKKOS_LAMBDA(int i) { data(i) = order(i); });
}

// The host fallback runs on the host's execution space: no kernel.
template <class View>
void count_on_host(View data, int n) {
  Kokkos::parallel_for("count", Kokkos::RangePolicy<Kokkos::Serial>(0, n), [=](int i) { data(i) += 1; });
}

// Built only without a GPU: the pattern runs on the host.
template <class View>
void tally(View data, int n) {
#ifndef KOKKOS_ENABLE_CUDA
  Kokkos::parallel_for("tally", n, KOKKOS_LAMBDA(int i) { data(i) += 2; });
#endif
}

}  // namespace particles

// A solver keeps its phase times in a statistics struct: each phase starts
// by storing a clock read in its field and ends by replacing the field with
// the difference. Between the end of one phase and the start of the next,
// nothing is measured.
#include <mpi.h>
#include <stdio.h>

__global__ void setup_kernel(double *x) {}
__global__ void factor_kernel(double *x) {}
__global__ void scatter_kernel(double *x) {}

struct Stats {
  double setup, factor, solve;
};

void factorize(Stats *stats, double *x) {
  stats->setup = MPI_Wtime();
  printf("set-up\n");
  stats->setup = MPI_Wtime() - stats->setup;
  setup_kernel<<<1, 1>>>(x);  // ok: after the set-up's interval, before the factorization's
  stats->factor = MPI_Wtime();
  factor_kernel<<<1, 1>>>(x);  // want LL002 "factor_kernel"
  stats->factor = MPI_Wtime() - stats->factor;
  printf("%f %f\n", stats->setup, stats->factor);
}

void factorize_cumulative(Stats *stats, double *x) {
  double t0 = MPI_Wtime();
  printf("set-up\n");
  double setup_done = MPI_Wtime() - t0;  // t0 survives: the next read ends an interval from it too
  scatter_kernel<<<1, 1>>>(x);  // want LL002 "scatter_kernel"
  stats->solve = MPI_Wtime() - t0;
  printf("%f %f\n", setup_done, stats->solve);
}

void factorize_by_hand(Stats *stats, double *x) {
  stats->setup = MPI_Wtime();
  printf("set-up\n");
  stats->setup = MPI_Wtime() - stats->setup;
#if 1
  factor_kernel<<<1, 1>>>(x);  // ok: the timed variant below is switched off
#else
  stats->factor = MPI_Wtime();
  factor_kernel<<<1, 1>>>(x);
  stats->factor = MPI_Wtime() - stats->factor;
#endif
  printf("%f\n", stats->setup);
}

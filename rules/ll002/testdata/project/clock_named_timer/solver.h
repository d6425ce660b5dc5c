#ifndef SOLVER_H
#define SOLVER_H
#ifdef __cplusplus
extern "C" {
#endif
enum { SOLVE_TIME, FACTOR_TIME, N_TIMES };
double solver_timer_(void);
void lower_solve_gpu(double *x, const double *l, int n);
void upper_solve_gpu(double *x, const double *u, int n);
#ifdef __cplusplus
}
#endif
#endif

// An include guard whose name says CUDA guards code every build compiles.
#ifndef SOLVER_CUDA_TOOLS_H
#define SOLVER_CUDA_TOOLS_H
#include <chrono>
#include <type_traits>
#include "stages.h"

inline double time_smooth(float *q, int n) {
  auto begin = std::chrono::steady_clock::now();
  smooth(q, n);  // want LL002 "smooth_kernel"
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - begin).count();
}

struct CUDA {};
template <class Device> struct Task {};
template <class Device> struct SweepTask {};

// A dispatch on the task's type: every branch runs on the device, CUDA is
// only a template argument of the task types.
template <class F>
double run_task(F &f, float *q, int n) {
  auto begin = std::chrono::steady_clock::now();
  if constexpr (std::is_base_of<Task<CUDA>, F>::value) {
    f.go(q, n);
  } else if constexpr (std::is_base_of<SweepTask<CUDA>, F>::value) {
    sweep(q, n);  // want LL002 "sweep_kernel"
  }
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(end - begin).count();
}

#endif  // SOLVER_CUDA_TOOLS_H

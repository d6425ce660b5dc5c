// Kernels launched through performance-portability layers: each lambda or
// functor type given to a parallel pattern is a kernel of its own,
// instantiated in this file, that loads at its first launch.
#include <Kokkos_Core.hpp>
#include <RAJA/RAJA.hpp>
#include <AMReX.H>
#include <chrono>
#include <cstdio>

struct AxpyFunctor {
  double a;
  Kokkos::View<double *> x, y;
  KOKKOS_INLINE_FUNCTION void operator()(int i) const { y(i) += a * x(i); }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void kokkos_lambda(Kokkos::View<double *> x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for("scale", n, KOKKOS_LAMBDA(int i) { x(i) *= 2.0; });  // want LL002 "Kokkos::parallel_for [(]the lambda at line 22[)]"
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void kokkos_functor(Kokkos::View<double *> x, Kokkos::View<double *> y, int n) {
  AxpyFunctor f{2.0, x, y};
  Kokkos::parallel_for(n, f);  // warm-up: the same functor type
  Kokkos::fence();
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(n, f);  // ok: AxpyFunctor's kernel was launched before the timer
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void kokkos_other_lambda(Kokkos::View<double *> x, int n) {
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { x(i) = 0.0; });  // a warm-up of another kernel
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { x(i) = 1.0; });  // want LL002 "the lambda at line 42"
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void kokkos_host(double *x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::Serial>(0, n), [=](int i) { x[i] = 0.0; });  // ok: runs on the host
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

using DEVICE_POLICY = RAJA::cuda_exec<256>;

void raja_device(double *x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  RAJA::forall<DEVICE_POLICY>(RAJA::RangeSegment(0, n), [=] RAJA_DEVICE(int i) { x[i] += 1.0; });  // want LL002 "RAJA::forall"
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void raja_nested(double *a, int n) {
  using KERNEL_POLICY = RAJA::KernelPolicy<RAJA::statement::CudaKernel<RAJA::statement::Lambda<0>>>;
  RAJA::resources::Cuda res;
  auto t0 = std::chrono::steady_clock::now();
  RAJA::kernel_resource<KERNEL_POLICY>(RAJA::make_tuple(RAJA::RangeSegment(0, n)), res, [=] RAJA_DEVICE(int i) { a[i] = 0.0; });  // want LL002 "RAJA::kernel_resource"
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void raja_sequential(double *x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  RAJA::forall<RAJA::seq_exec>(RAJA::RangeSegment(0, n), [=](int i) { x[i] += 1.0; });  // ok: a sequential policy launches nothing
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void amrex_loop(amrex::Array4<double> const &a, amrex::Box const &bx) {
  auto t0 = std::chrono::steady_clock::now();
  amrex::ParallelFor(bx, [=] AMREX_GPU_DEVICE(int i, int j, int k) { a(i, j, k) = 0.0; });  // want LL002 "AMReX::ParallelFor"
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void kokkos_teams(Kokkos::View<double **> m, int rows, int cols) {
  using team_t = Kokkos::TeamPolicy<>::member_type;
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(Kokkos::TeamPolicy<>(rows, Kokkos::AUTO), KOKKOS_LAMBDA(const team_t &team) {  // want LL002 "Kokkos::parallel_for"
    const int r = team.league_rank();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, cols), [&](int c) { m(r, c) *= 2.0; });  // ok: a loop inside the kernel
  });
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

template <class Space>
void choose_by_space(Kokkos::View<double *> x, int n) {
  constexpr bool on_gpu = Kokkos::is_gpu_space<Space>::value;
  Kokkos::Timer timer;
  if (on_gpu) {
    Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { x(i) = 1.0; });  // want LL002 "Kokkos::parallel_for"
  } else {
    Kokkos::parallel_for(n, KOKKOS_LAMBDA(int i) { x(i) = 2.0; });  // ok: the host algorithm; on a CUDA build on_gpu is true
  }
  Kokkos::fence();
  printf("%f\n", timer.seconds());
}

struct Zero2D {
  Kokkos::View<double **> m;
  KOKKOS_INLINE_FUNCTION void operator()(int i, int j) const { m(i, j) = 0.0; }
};

void kokkos_md(Kokkos::View<double **> m, int r, int c) {
  Zero2D z{m};
  Kokkos::parallel_for(Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {r, c}), z);  // warm-up: the same functor type
  Kokkos::fence();
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(Kokkos::MDRangePolicy<Kokkos::Rank<2>>({0, 0}, {r, c}), z);  // ok: Zero2D's kernel ran before the timer
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void kokkos_constructed_functor(Kokkos::View<double *> x, Kokkos::View<double *> y, int n) {
  AxpyFunctor warm_instance(x, y);
  Kokkos::parallel_for("warm", n, warm_instance);  // warm-up: an AxpyFunctor
  Kokkos::fence();
  AxpyFunctor live_instance(x, y);
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for("live", n, live_instance);  // ok: the same functor type, under another name
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

void kokkos_auto_functor(Kokkos::View<double *> x, Kokkos::View<double *> y, int n) {
  auto warm = AxpyFunctor{1.0, x, y};
  Kokkos::parallel_for(n, warm);  // warm-up: an AxpyFunctor
  Kokkos::fence();
  auto timed = AxpyFunctor{2.0 * x.extent(0), x, y};
  auto t0 = std::chrono::steady_clock::now();
  Kokkos::parallel_for(n, timed);  // ok: the same functor type, under another name
  Kokkos::fence();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}

// A helper of the file that runs a parallel pattern launches its lambda's
// kernel wherever it is called: the first timed call loads it, a call
// after a warm-up call does not.
void smooth(Kokkos::View<double *> x, int n) {
  Kokkos::parallel_for("smooth", n, KOKKOS_LAMBDA(int i) { x(i) *= 0.5; });
}

void kokkos_helper(Kokkos::View<double *> x, int n) {
  Kokkos::Timer timer;
  smooth(x, n);  // want LL002 "Kokkos::parallel_for [(]the lambda at line 156[)] in this function happens in smooth"
  Kokkos::fence();
  printf("%f\n", timer.seconds());
}

void kokkos_helper_warm(Kokkos::View<double *> x, int n) {
  smooth(x, n);  // warm-up
  Kokkos::fence();
  Kokkos::Timer timer;
  smooth(x, n);  // ok: warmed
  Kokkos::fence();
  printf("%f\n", timer.seconds());
}

// AMReX's own clock: ParallelDescriptor::second() (and amrex::second()).
void amrex_timed_step(amrex::Array4<double> const &a, amrex::Box const &bx) {
  const double strt = amrex::ParallelDescriptor::second();
  amrex::ParallelFor(bx, [=] AMREX_GPU_DEVICE(int i, int j, int k) { a(i, j, k) += 1.0; });  // want LL002 "AMReX::ParallelFor"
  double run_time = amrex::ParallelDescriptor::second() - strt;
  amrex::Print() << "step took " << run_time << "\n";
}

// Not AMReX's: a pair's second is no clock.
void pair_second(amrex::Array4<double> const &a, amrex::Box const &bx, std::pair<double, double> p) {
  const double strt = p.second;
  amrex::ParallelFor(bx, [=] AMREX_GPU_DEVICE(int i, int j, int k) { a(i, j, k) -= 1.0; });
  double later = p.second - strt;
  amrex::Print() << later << "\n";
}

// Code the preprocessor keeps only for a build without a GPU runs its
// patterns on the host: no kernel loads there. The GPU branch still does.
void amrex_build_branches(amrex::Array4<double> const &a, amrex::Box const &bx) {
  const double strt = amrex::ParallelDescriptor::second();
#ifndef AMREX_USE_GPU
  amrex::ParallelFor(bx, [=](int i, int j, int k) { a(i, j, k) *= 2.0; });  // ok: only without a GPU
#endif
#ifdef AMREX_USE_GPU
  amrex::ParallelFor(bx, [=] AMREX_GPU_DEVICE(int i, int j, int k) { a(i, j, k) *= 3.0; });  // want LL002 "AMReX::ParallelFor"
#else
  amrex::ParallelFor(bx, [=](int i, int j, int k) { a(i, j, k) *= 4.0; });  // ok: the #else of a GPU build's test
#endif
  amrex::Print() << amrex::ParallelDescriptor::second() - strt << "\n";
}

// Ginkgo runs its kernels through a linear operator's apply and a
// factory's generate, reached by virtual calls and the executor's
// dispatch: on a CUDA executor each first one loads the library's kernels.
#include <ginkgo/ginkgo.hpp>
#include <chrono>
#include <iostream>
#include <map>

using mtx = gko::matrix::Csr<double, int>;
using vec = gko::matrix::Dense<double>;
using cg = gko::solver::Cg<double>;

std::shared_ptr<gko::Executor> pick(const std::string &name) {
    std::map<std::string, std::function<std::shared_ptr<gko::Executor>()>> table{
        {"reference", [] { return gko::ReferenceExecutor::create(); }},
        {"cuda", [] { return gko::CudaExecutor::create(0, gko::OmpExecutor::create()); }}};
    return table.at(name)();
}

double solve_once(std::shared_ptr<gko::Executor> exec, std::shared_ptr<mtx> A, vec *b, vec *x) {
    auto residual = gko::initialize<vec>({0.0}, exec);
    A->apply(b, x);  // a product: other kernels than the solver's
    auto factory = cg::build().with_criteria(gko::stop::Iteration::build().with_max_iters(100u)).on(exec);
    auto t0 = std::chrono::steady_clock::now();
    auto solver = factory->generate(A);  // want LL002 "factory->generate"
    auto t1 = std::chrono::steady_clock::now();
    solver->apply(b, x);  // want LL002 "Ginkgo.s factory->generate.*->apply"
    auto t2 = std::chrono::steady_clock::now();
    std::cout << std::chrono::duration<double>(t1 - t0).count() << " "
              << std::chrono::duration<double>(t2 - t1).count() << "\n";
    return 0.0;
}

void solve_warmed(std::shared_ptr<gko::Executor> exec, std::shared_ptr<mtx> A, vec *b, vec *x) {
    auto factory = cg::build().on(exec);
    // The warm-up: a solver made and applied at once.
    factory->generate(A)->apply(b, x);
    exec->synchronize();
    auto start = std::chrono::steady_clock::now();
    auto timed = factory->generate(A);  // ok: generated before the clock
    timed->apply(b, x);                 // ok: a solver of the same factory applied before
    exec->synchronize();
    auto stop = std::chrono::steady_clock::now();
    std::cout << std::chrono::duration<double>(stop - start).count() << "\n";
}

struct Table {
    double apply(double v) const { return v; }
};

void not_ginkgo(const Table &t) {
    auto start = std::chrono::steady_clock::now();
    double v = t.apply(2.0);  // ok: a member call through '.', no operator of the library
    auto stop = std::chrono::steady_clock::now();
    std::cout << v << std::chrono::duration<double>(stop - start).count() << "\n";
}

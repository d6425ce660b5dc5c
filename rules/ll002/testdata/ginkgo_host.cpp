// Ginkgo on host executors alone (the file creates no CUDA executor): its
// operations run no kernel.
#include <ginkgo/ginkgo.hpp>
#include <chrono>
#include <iostream>

void solve_on_host(std::shared_ptr<gko::matrix::Csr<double, int>> A, gko::matrix::Dense<double> *b,
                   gko::matrix::Dense<double> *x) {
    auto exec = gko::ReferenceExecutor::create();
    auto factory = gko::solver::Cg<double>::build().on(exec);
    auto start = std::chrono::steady_clock::now();
    factory->generate(A)->apply(b, x);  // ok: a host executor
    auto stop = std::chrono::steady_clock::now();
    std::cout << std::chrono::duration<double>(stop - start).count() << "\n";
}

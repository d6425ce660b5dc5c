// A harness times a launcher called with explicit template arguments; the
// launcher is another file's function template.
#include <chrono>
#include <cstdio>

struct Globals { float *data; int n; };
template <int N> void launch(Globals g);

void run_benchmark(Globals g) {
  const auto start = std::chrono::high_resolution_clock::now();
  launch<4096>(g);  // want LL002 "fft_kernel"
  const auto finish = std::chrono::high_resolution_clock::now();
  std::printf("%f us\n", std::chrono::duration<double, std::micro>(finish - start).count());
}

// main preloads every kernel, then runs the benchmarks.
void preload_all_kernels();
void run_benchmarks(int n);

int main(int argc, char **argv) {
  preload_all_kernels();
  run_benchmarks(1 << 20);
  return 0;
}

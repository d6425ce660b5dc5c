// The program fills its input with the standard library's random
// engines (function objects called by name) before its timer: no CUDA
// yet, so the timer holds the context's creation.
#include <chrono>
#include <cstdio>
#include <random>

__global__ void correlate(float *out, const float *in, int n) {}

static void compute(float *host, int n) {
  float *d;
  cudaMalloc((void **)&d, n * sizeof(float));
  cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  correlate<<<n / 256, 256>>>(d, d, n);
  cudaFree(d);
}

int main() {
  const int n = 1 << 20;
  std::default_random_engine g(123);
  std::uniform_real_distribution<float> uniform(-6.f, 6.f);
  float *data = new float[n];
  for (int i = 0; i < n; i++) data[i] = uniform(g);
  auto start = std::chrono::steady_clock::now();
  compute(data, n);  // ok: the first CUDA call is inside the timer
  auto end = std::chrono::steady_clock::now();
  printf("%f s\n", std::chrono::duration<double>(end - start).count());
  delete[] data;
  return 0;
}

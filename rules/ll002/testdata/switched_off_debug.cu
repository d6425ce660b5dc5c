// A debugging switch kept off by commenting out its #define: its timers
// are not compiled, so what they would time is measured by nobody. A
// switch that is on, or defined elsewhere in the file, is compiled.
#include <chrono>
#include <cstdio>

// #define DEBUG_PAIR_TIMES
#define TRACE_SWEEP

__global__ void build_pairs(int *pairs, int n) {}
__global__ void sweep(int *pairs, int n) {}

void make_pairs(int *pairs, int n) {
#ifdef DEBUG_PAIR_TIMES
    auto start = std::chrono::high_resolution_clock::now();
#endif
    build_pairs<<<(n + 127) / 128, 128>>>(pairs, n);  // ok: the timer around it is switched off
#ifdef DEBUG_PAIR_TIMES
    cudaDeviceSynchronize();
    auto stop = std::chrono::high_resolution_clock::now();
    std::printf("pairs: %lld us\n", (long long)std::chrono::duration_cast<std::chrono::microseconds>(stop - start).count());
#endif
}

void run_sweep(int *pairs, int n) {
#if defined(TRACE_SWEEP)
    auto start = std::chrono::high_resolution_clock::now();
#endif
    sweep<<<(n + 127) / 128, 128>>>(pairs, n);  // want LL002 "sweep"
#if defined(TRACE_SWEEP)
    cudaDeviceSynchronize();
    auto stop = std::chrono::high_resolution_clock::now();
    std::printf("sweep: %lld us\n", (long long)std::chrono::duration_cast<std::chrono::microseconds>(stop - start).count());
#endif
}

// Two clocks read in one function: steady_clock phases (setup, docking)
// and a clock() CPU time of the run that starts inside the first phase and
// ends inside the second. Each measurement runs from a read of its own
// clock to the read it is subtracted from, not to the other clock's read
// in between.
#include <chrono>
#include <cstdio>
#include <ctime>

__global__ void prepare_grid(float *grid, int n) {}
__global__ void search_poses(float *grid, float *poses, int n) {}
__global__ void score_poses(float *poses, int n) {}

void dock(float *grid, float *poses, int n) {
    auto setup_begin = std::chrono::steady_clock::now();
    prepare_grid<<<(n + 127) / 128, 128>>>(grid, n);  // want LL002 "prepare_grid"
    cudaDeviceSynchronize();
    clock_t cpu_begin = clock();
    auto search_begin = std::chrono::steady_clock::now();
    std::printf("setup %.3f s\n", std::chrono::duration<double>(search_begin - setup_begin).count());
    search_poses<<<(n + 127) / 128, 128>>>(grid, poses, n);  // want LL002 "search_poses"
    cudaDeviceSynchronize();
    clock_t cpu_end = clock();
    auto search_end = std::chrono::steady_clock::now();
    score_poses<<<(n + 127) / 128, 128>>>(poses, n);  // ok: after every measurement's end
    std::printf("search %.3f s, cpu %.3f s\n", std::chrono::duration<double>(search_end - search_begin).count(),
                double(cpu_end - cpu_begin) / CLOCKS_PER_SEC);
}

#include "booster.hpp"

__global__ void gradients_kernel(float *g, int n) {}
__global__ void histogram_kernel(float *g, int n) {}
__global__ void ranking_kernel(float *g, int n) {}

void Booster::LaunchGradients(float *grad, int n) { gradients_kernel<<<(n + 255) / 256, 256>>>(grad, n); }
void Booster::LaunchHistogram(float *grad, int n) { histogram_kernel<<<(n + 255) / 256, 256>>>(grad, n); }
void Booster::LaunchRanking(float *grad, int n) { ranking_kernel<<<(n + 255) / 256, 256>>>(grad, n); }

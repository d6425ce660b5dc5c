#include "../include/proxy/wait.h"

__global__ void send_step(ProxyCell *cell, unsigned long long step) { wait_for_proxy(cell, step); }
__global__ void copy_step(float *dst, const float *src) { dst[threadIdx.x] = src[threadIdx.x]; }

void *g_kernels[] = {(void *)send_step, (void *)copy_step};
int g_kernel_count = 2;

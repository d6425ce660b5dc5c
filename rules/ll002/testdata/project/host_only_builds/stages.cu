// The stages, each launching its own kernel.
__global__ void reconstruct_kernel(float *q, int n) {}
__global__ void reconstruct_cpu_kernel(float *q, int n) {}
__global__ void smooth_kernel(float *q, int n) {}
__global__ void sweep_kernel(float *q, int n) {}

void gpu_reconstruct(float *q, int n) { reconstruct_kernel<<<(n + 127) / 128, 128>>>(q, n); }
void cpu_reconstruct(float *q, int n) { reconstruct_cpu_kernel<<<1, 1>>>(q, n); }
void smooth(float *q, int n) { smooth_kernel<<<(n + 127) / 128, 128>>>(q, n); }
void sweep(float *q, int n) { sweep_kernel<<<(n + 127) / 128, 128>>>(q, n); }

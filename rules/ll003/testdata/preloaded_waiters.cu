// A waiting kernel whose every launch in the file comes after the kernels
// launched beside it were loaded is the fix the rule asks for.

__global__ void gate(volatile int *open) {
  while (*open == 0) {  // ok: opener, launched beside gate, is preloaded before gate's only launch
  }
}
__global__ void opener(volatile int *open) { *open = 1; }

void run_gate(int *open, cudaStream_t a, cudaStream_t b) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, gate);
  cudaFuncGetAttributes(&attr, opener);
  gate<<<1, 1, 0, a>>>(open);
  opener<<<1, 1, 0, b>>>(open);
  cudaDeviceSynchronize();
}

__global__ void barrier_wait(volatile int *go) {
  while (*go == 0) {  // want LL003 "kernel barrier_wait spins on go"
  }
}
__global__ void barrier_release(volatile int *go) { *go = 1; }

void barrier_ok(int *go, cudaStream_t a, cudaStream_t b) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, barrier_wait);
  cudaFuncGetAttributes(&attr, barrier_release);
  barrier_wait<<<1, 1, 0, a>>>(go);
  barrier_release<<<1, 1, 0, b>>>(go);  // ok: preloaded before the waiter
}

void barrier_again(int *go, cudaStream_t a, cudaStream_t b) {
  barrier_wait<<<1, 1, 0, a>>>(go);  // a second launch site without the preloads
  barrier_release<<<1, 1, 0, b>>>(go);  // want LL003 "barrier_release is launched for the first time"
}

__global__ void poll(volatile int *flag) {
  while (*flag == 0) {  // want LL003 "kernel poll spins on flag"
  }
}
__global__ void poke(volatile int *flag) { *flag = 1; }

void poll_late_preload(int *flag, cudaStream_t a, cudaStream_t b) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, poll);
  poll<<<1, 1, 0, a>>>(flag);
  cudaFuncGetAttributes(&attr, poke);  // too late: the waiter is already running
  poke<<<1, 1, 0, b>>>(flag);  // want LL003 "poke is launched for the first time while poll may be spinning"
}

__global__ void lonely_wait(volatile int *flag) {
  while (*flag == 0) {  // want LL003 "kernel lonely_wait spins on flag"
  }
}
// lonely_wait is launched in another file: nothing here shows the preloads.

__global__ void table_wait(volatile int *flag) {
  while (*flag == 0) {  // ok: a preload loop over the kernel table loads every kernel first
  }
}
__global__ void table_release(volatile int *flag) { *flag = 1; }

static const void *kAllKernels[] = {(const void *)table_wait, (const void *)table_release};

void run_table(int *flag, cudaStream_t a, cudaStream_t b) {
  for (int i = 0; i < 2; ++i) {
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, kAllKernels[i]);
  }
  table_wait<<<1, 1, 0, a>>>(flag);
  table_release<<<1, 1, 0, b>>>(flag);
}

__global__ void host_gate(volatile int *flag) {
  while (*flag == 0) {  // ok: the host releases it before anything else runs
  }
}

void run_host_gate(int *mapped_flag) {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, host_gate);
  host_gate<<<1, 1>>>(mapped_flag);
  *(volatile int *)mapped_flag = 1;  // the host's release: what follows runs after it
  helper_kernel_launch();
}

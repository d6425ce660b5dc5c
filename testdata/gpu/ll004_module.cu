// The module the LL004 programs load with cuModuleLoad: one kernel and
// 256 MiB of module data. Built with nvcc -cubin.
__device__ char lookup_table[256 << 20];

extern "C" __global__ void fill_table(int value) {
  lookup_table[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<char>(value);
}

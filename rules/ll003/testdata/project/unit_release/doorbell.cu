// The kernel that rings the doorbell the fused kernel waits for: it has
// to load while the fused kernel occupies the device.
#include <cuda_runtime.h>

struct Bell {
  unsigned *doorbell;
};

__global__ void ring_doorbell(Bell b) { atomicExch(b.doorbell, 1u); }

void ring(Bell b, cudaStream_t other) { ring_doorbell<<<1, 1, 0, other>>>(b); }

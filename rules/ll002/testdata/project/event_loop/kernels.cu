// The simulation's kernels and their launchers.
__global__ void wave(float4 *pos, float t) {}
__global__ void ripple(float4 *pos, float t) {}

void step_wave(float4 *pos, float t) { wave<<<64, 64>>>(pos, t); }
void step_ripple(float4 *pos, float t) { ripple<<<64, 64>>>(pos, t); }

// A public entry point whose launch is in a static helper of this file.
__global__ void tone(unsigned *pixels, int width) { pixels[threadIdx.x] *= 2; }

static void tone_core(unsigned *pixels, int width, cudaStream_t stream) {
  tone<<<1, width, 0, stream>>>(pixels, width);
}

void tone_map(unsigned *pixels, int width, cudaStream_t stream) { tone_core(pixels, width, stream); }

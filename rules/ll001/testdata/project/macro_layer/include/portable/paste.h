// Token pasting: GPU_API(Malloc) is cudaMalloc. Includes gpu.h back: an
// include cycle, guarded by #pragma once.
#pragma once
#include "portable/gpu.h"
#define GPU_PREFIX_CAT(a, b) a##b
#define GPU_API(name) GPU_PREFIX_CAT(cuda, name)

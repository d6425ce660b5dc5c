// A project's own launch shorthand, two letters long.
#pragma once
#include <cuda_runtime.h>

#define LC(kern, grid, block, ...) kern<<<grid, block>>>(__VA_ARGS__)

// LC_BLOCK is a value, not a launch.
#define LC_BLOCK 128

// Host arithmetic that names the shorthand's block size and launches
// nothing.
#include "../common/launch.h"

int padded(int n) { return (n + LC_BLOCK - 1) / LC_BLOCK * LC_BLOCK; }

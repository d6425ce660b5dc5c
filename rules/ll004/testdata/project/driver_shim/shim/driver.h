// A thin driver-API shim: the project calls the driver through these names
// (a build for another vendor maps them elsewhere).
#pragma once
#include <cuda.h>
#define drvMemGetInfo cuMemGetInfo
#define DRV(name) cu##name

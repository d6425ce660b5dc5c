// Measures a module's footprint through the shim of shim/driver.h: only
// that header says these are driver calls.
#include "../shim/driver.h"

size_t module_footprint(const char *path) {
  size_t before, after, total;
  drvMemGetInfo(&before, &total);
  CUmodule m;
  DRV(ModuleLoad)(&m, path);  // want LL004 "measured around cuModuleLoad"
  drvMemGetInfo(&after, &total);
  return before - after;
}

size_t launch_footprint(CUfunction f) {
  size_t before, after, total;
  drvMemGetInfo(&before, &total);
  DRV(LaunchKernel)(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr);  // ok: a launch, not a module load
  drvMemGetInfo(&after, &total);
  return before - after;
}

// Measuring what cuModuleLoad* costs.
#include <cuda.h>
#include <chrono>
#include <cstdio>
#include <vector>

#define CU_CHECK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { fprintf(stderr, "%d\n", r_); return 0; } } while (0)

size_t footprint_plain(const char *path) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUmodule m;
  cuModuleLoad(&m, path);  // want LL004 "device memory is measured around cuModuleLoad"
  cuMemGetInfo(&after, &total);
  return before - after;
}

size_t footprint_macros(const void *image) {
  size_t before, after, total;
  CU_CHECK(cuMemGetInfo_v2(&before, &total));
  CUmodule m;
  CU_CHECK(cuModuleLoadData(&m, image));  // want LL004 "cuModuleLoadData"
  CU_CHECK(cuMemGetInfo_v2(&after, &total));
  return before - after;
}

size_t footprint_runtime_query(const void *fatbin) {
  size_t before, after, total;
  cudaMemGetInfo(&before, &total);
  CUmodule m;
  cuModuleLoadFatBinary(&m, fatbin);  // want LL004 "measured around cuModuleLoadFatBinary"
  cudaMemGetInfo(&after, &total);
  return before - after;
}

size_t footprint_library(const void *image) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUlibrary lib;
  cuLibraryLoadData(&lib, image, nullptr, nullptr, 0, nullptr, nullptr, 0);  // want LL004 "cuLibraryLoadData"
  cuMemGetInfo(&after, &total);
  return before - after;
}

size_t footprint_resolved(const char *path) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: the kernel is resolved before the second query
  CUfunction f;
  cuModuleGetFunction(&f, m, "main_kernel");
  cuMemGetInfo(&after, &total);
  return before - after;
}

size_t footprint_func_load(const char *path, CUfunction f) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: cuFuncLoad loads before the second query
  cuFuncLoad(f);
  cuMemGetInfo(&after, &total);
  return before - after;
}

double load_time(const char *path) {
  auto t0 = std::chrono::steady_clock::now();
  CUmodule m;
  cuModuleLoad(&m, path);  // want LL004 "timed as if it loaded the module"
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

double load_time_events(const void *image, CUstream s) {
  CUevent a, b;
  cuEventCreate(&a, 0);
  cuEventCreate(&b, 0);
  cuEventRecord(a, s);
  CUmodule m;
  cuModuleLoadDataEx(&m, image, 0, nullptr, nullptr);  // want LL004 "cuModuleLoadDataEx is timed"
  cuEventRecord(b, s);
  float ms;
  cuEventElapsedTime(&ms, a, b);
  return ms;
}

double load_and_resolve_time(const char *path) {
  auto t0 = std::chrono::steady_clock::now();
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: the timed region resolves the kernel too
  CUfunction f;
  cuModuleGetFunction(&f, m, "k");
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

CUmodule just_load(const char *path) {
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: no measurement, no claim of residency
  return m;
}

size_t query_elsewhere() {
  size_t free_b, total;
  cuMemGetInfo(&free_b, &total);  // ok: a query with no load in this function
  return free_b;
}

extern void report_failure(const char *what, const char *why);
extern void compile_and_upload(const char *path);

// Error handling between the load and the second query runs only when the
// load failed: it hides nothing on the path that measures.
size_t footprint_with_error_branch(const char *path) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUmodule m;
  CUresult r = cuModuleLoad(&m, path);  // want LL004 "measured around cuModuleLoad"
  if (r != CUDA_SUCCESS) {
    report_failure(path, strerror(errno));
    return 0;
  }
  cuMemGetInfo(&after, &total);
  return before - after;
}

// Unknown work on the measured path itself may allocate: no finding.
size_t footprint_with_unknown_work(const char *path) {
  size_t before, after, total;
  cuMemGetInfo(&before, &total);
  CUmodule m;
  cuModuleLoad(&m, path);  // ok: compile_and_upload may take device memory itself
  compile_and_upload(path);
  cuMemGetInfo(&after, &total);
  return before - after;
}

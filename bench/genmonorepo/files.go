package main

// The files of the sample monorepo. NNNN is the group's number.

// cudaDefs stands for a CUDA rule set's cuda_library (rules_cuda's has the
// same srcs/hdrs/deps): it compiles nothing (there is no nvcc here) and
// gives its headers to dependents, which is all the lint needs.
const cudaDefs = `"""A stand-in for a CUDA rule set's cuda_library: headers only, no compilation."""

def _cuda_library_impl(ctx):
    headers = depset(
        ctx.files.hdrs,
        transitive = [dep[CcInfo].compilation_context.headers for dep in ctx.attr.deps],
    )
    return [
        DefaultInfo(files = depset(ctx.files.srcs + ctx.files.hdrs)),
        CcInfo(compilation_context = cc_common.create_compilation_context(headers = headers)),
    ]

cuda_library = rule(
    implementation = _cuda_library_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".cu", ".cuh", ".h"]),
        "hdrs": attr.label_list(allow_files = [".cuh", ".h"]),
        "deps": attr.label_list(providers = [CcInfo]),
    },
)
`

const offlineRepos = `
local_repository(
    name = "rules_cc",
    path = "tools/offline/rules_cc",
)

local_repository(
    name = "rules_java",
    path = "tools/offline/rules_java",
)

new_local_repository(
    name = "remote_coverage_tools",
    build_file_content = """
sh_binary(name = "lcov_merger", srcs = ["noop.sh"], visibility = ["//visibility:public"])
sh_binary(name = "coverage_report_generator", srcs = ["noop.sh"], visibility = ["//visibility:public"])
""",
    path = "tools/offline/coverage",
)
`

const lintBuild = `exports_files(
    ["lazylint"] + glob(["lazylint-vet"]),
    visibility = ["//visibility:public"],
)
`

const linters = `"""The monorepo's linters, as a team on rules_lint declares them."""

load("@lazylint_bazel//:lazylint.bzl", "lazylint_aspect", "lazylint_test")

lazylint = lazylint_aspect(
    binary = Label("//tools/lint:lazylint"),
    fail_on = "warning",
)

# The same, failing the build (a validation action) on findings.
lazylint_strict = lazylint_aspect(
    binary = Label("//tools/lint:lazylint"),
    fail_on = "warning",
    fail_on_violation = True,
)

# The same, with the suggested fixes as patches (rules_lint_patch).
lazylint_patches = lazylint_aspect(
    binary = Label("//tools/lint:lazylint"),
    patches = True,
)

lazylint_lint_test = lazylint_test(aspect = lazylint)
`

const testsBuild = `load("//tools/lint:linters.bzl", "lazylint_lint_test")

# Passes: the preloading library has no finding.
lazylint_lint_test(
    name = "warm_clean",
    srcs = ["//pkgs/g0000/warm"],
)

# Passes: the timing library's cold timing is found (exit code 1).
lazylint_lint_test(
    name = "timed_has_findings",
    srcs = ["//pkgs/g0000/app:timed"],
    expected_exit_code = 1,
)
`

const clockH = `// The monorepo's clock: a helper of another package that reads a host clock.
#pragma once
#include <chrono>

namespace util {

inline double now_ms() {
  auto since = std::chrono::steady_clock::now().time_since_epoch();
  return std::chrono::duration<double, std::milli>(since).count();
}

}  // namespace util
`

const gpuAPIH = `// Portable names for the CUDA calls the monorepo makes.
#pragma once
#include <cuda_runtime.h>

#define gpuMalloc cudaMalloc
#define gpuFree cudaFree
#define gpuMemGetInfo cudaMemGetInfo
`

const kernBuild = `load("//tools/cuda:defs.bzl", "cuda_library")

cuda_library(
    name = "kern",
    srcs = ["scale.cu"],
    hdrs = [
        "scale.cuh",
        "scale.h",
    ],
    visibility = ["//visibility:public"],
)
`

const scaleCuh = `// Group NNNN's kernels; bias_gNNNN's launcher is defined here.
#pragma once
#include <cuda_runtime.h>

__global__ void scale_gNNNN(float *x, float a, int n);
__global__ void bias_gNNNN(float *x, float b, int n);

inline void launch_bias_gNNNN(float *x, float b, int n) {
  bias_gNNNN<<<(n + 255) / 256, 256>>>(x, b, n);
}
`

const scaleH = `// Group NNNN's host entry points, for C++ callers.
#pragma once

void launch_scale_gNNNN(float *x, float a, int n);
`

const scaleCu = `#include "pkgs/gNNNN/kern/scale.cuh"
#include "pkgs/gNNNN/kern/scale.h"

__global__ void scale_gNNNN(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] *= a;
  }
}

__global__ void bias_gNNNN(float *x, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] += b;
  }
}

void launch_scale_gNNNN(float *x, float a, int n) {
  scale_gNNNN<<<(n + 255) / 256, 256>>>(x, a, n);
}
`

const benchBuild = `cc_test(
    name = "bench",
    srcs = ["bench.cpp"],
    deps = ["//pkgs/gNNNN/kern"],
)
`

const benchCpp = `// Times the launcher of the parent package (kern/scale.cu).
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

#include "pkgs/gNNNN/kern/scale.h"

// The first launch of scale_gNNNN is timed: loading it is measured.
double bench_scale_cold_gNNNN(float *x, int n) {
  auto t0 = std::chrono::steady_clock::now();
  launch_scale_gNNNN(x, 2.0f, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

// The twin: one untimed launch loads the kernel first.
double bench_scale_warm_gNNNN(float *x, int n) {
  launch_scale_gNNNN(x, 1.0f, n);
  cudaDeviceSynchronize();
  auto t0 = std::chrono::steady_clock::now();
  launch_scale_gNNNN(x, 2.0f, n);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

int main() {
  const int n = 1 << 20;
  float *x = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  std::printf("cold %.3f ms\n", bench_scale_cold_gNNNN(x, n));
  std::printf("warm %.3f ms\n", bench_scale_warm_gNNNN(x, n));
  cudaFree(x);
  return 0;
}
`

const warmBuild = `load("//tools/cuda:defs.bzl", "cuda_library")

cuda_library(
    name = "warm",
    hdrs = ["warm.cuh"],
    visibility = ["//visibility:public"],
    deps = ["//pkgs/gNNNN/kern"],
)
`

const warmCuh = `// Loads group NNNN's kernels without running them.
#pragma once
#include <cuda_runtime.h>

#include "pkgs/gNNNN/kern/scale.cuh"

inline void warm_gNNNN() {
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, bias_gNNNN);
  cudaFuncGetAttributes(&attr, scale_gNNNN);
}
`

const appBuild = `load("//tools/cuda:defs.bzl", "cuda_library")

cuda_library(
    name = "timed",
    srcs = [
        "driver.cu",
        "timed.cu",
    ],
    hdrs = ["timed.h"],
    visibility = ["//visibility:public"],
    deps = [
        "//pkgs/gNNNN/kern",
        "//pkgs/gNNNN/warm",
        "//util/clock",
    ],
)

cc_binary(
    name = "main",
    srcs = ["main.cpp"],
    deps = [":timed"],
)
`

const timedH = `#pragma once

// Each runs one timing of bias_gNNNN (the two below, cold and warm).
double run_cold_gNNNN(float *x, int n);
double run_warm_gNNNN(float *x, int n);
`

const timedCu = `// Times kern's header launcher with util's clock. The two functions are
// the same: what differs is what their callers load first (driver.cu).
#include "pkgs/gNNNN/kern/scale.cuh"
#include "util/clock/clock.h"

// Its caller loads nothing first: loading bias_gNNNN is measured.
double time_bias_cold_gNNNN(float *x, int n) {
  double t0 = util::now_ms();
  launch_bias_gNNNN(x, 1.0f, n);
  cudaDeviceSynchronize();
  return util::now_ms() - t0;
}

// The twin: its caller preloads bias_gNNNN first (warm_gNNNN).
double time_bias_warm_gNNNN(float *x, int n) {
  double t0 = util::now_ms();
  launch_bias_gNNNN(x, 1.0f, n);
  cudaDeviceSynchronize();
  return util::now_ms() - t0;
}
`

const driverCu = `// Calls the timings of timed.cu, the second after warm's preload.
#include "pkgs/gNNNN/app/timed.h"
#include "pkgs/gNNNN/warm/warm.cuh"

double time_bias_cold_gNNNN(float *x, int n);
double time_bias_warm_gNNNN(float *x, int n);

double run_cold_gNNNN(float *x, int n) {
  return time_bias_cold_gNNNN(x, n);
}

double run_warm_gNNNN(float *x, int n) {
  warm_gNNNN();
  return time_bias_warm_gNNNN(x, n);
}
`

const mainCpp = `#include <cstdio>
#include <cuda_runtime.h>

#include "pkgs/gNNNN/app/timed.h"

int main() {
  const int n = 1 << 20;
  float *x = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  std::printf("cold %.3f ms\n", run_cold_gNNNN(x, n));
  std::printf("warm %.3f ms\n", run_warm_gNNNN(x, n));
  cudaFree(x);
  return 0;
}
`

const memBuild = `cc_library(
    name = "arena",
    srcs = ["arena.cpp"],
    hdrs = ["arena.h"],
    visibility = ["//visibility:public"],
    deps = ["//gpu/api"],
)
`

const arenaH = `#pragma once
#include <cstddef>

void *arena_all_gNNNN(size_t *size);
void *arena_half_gNNNN(size_t *size);
`

const arenaCpp = `// Device arenas through gpu/api's portable names.
#include "gpu/api/gpu_api.h"
#include "pkgs/gNNNN/mem/arena.h"

// All free memory in one block: kernels loaded later find none.
void *arena_all_gNNNN(size_t *size) {
  size_t free_bytes = 0, total_bytes = 0;
  gpuMemGetInfo(&free_bytes, &total_bytes);
  void *p = nullptr;
  gpuMalloc(&p, free_bytes);
  *size = free_bytes;
  return p;
}

// The twin: half of it, the rest left for the modules loaded later.
void *arena_half_gNNNN(size_t *size) {
  size_t free_bytes = 0, total_bytes = 0;
  gpuMemGetInfo(&free_bytes, &total_bytes);
  void *p = nullptr;
  gpuMalloc(&p, free_bytes / 2);
  *size = free_bytes / 2;
  return p;
}
`

const goBuild = `load("@lazylint_bazel//:go_vet.bzl", "lazylint_go_vet_test")

_SRCS = [
    "arena/arena.go",
    "go.mod",
    "mode/mode.go",
]

# Passes: three quarters of free memory is under LL001's default threshold.
lazylint_go_vet_test(
    name = "vet_arena_default",
    srcs = _SRCS,
    lazylint = "//tools/lint:lazylint",
    packages = ["./arena"],
    vettool = "//tools/lint:lazylint-vet",
)

# Passes: with the analyzer's flag at 0.7 the same allocation is a finding.
lazylint_go_vet_test(
    name = "vet_arena_threshold",
    srcs = _SRCS,
    expect = ["LL001"],
    lazylint = "//tools/lint:lazylint",
    packages = ["./arena"],
    vet_flags = ["-LL001.threshold=0.7"],
    vettool = "//tools/lint:lazylint-vet",
)

# Passes: the loading mode is queried before cuInit.
lazylint_go_vet_test(
    name = "vet_mode",
    srcs = _SRCS,
    expect = ["LL006"],
    lazylint = "//tools/lint:lazylint",
    packages = ["./mode"],
    vettool = "//tools/lint:lazylint-vet",
)
`

const goArena = `// Package arena takes device memory through cgo.
package arena

/*
#cgo LDFLAGS: -lcudart
#include <cuda_runtime.h>
*/
import "C"

import "unsafe"

// ThreeQuarters takes three quarters of the free memory.
func ThreeQuarters() unsafe.Pointer {
	var free, total C.size_t
	C.cudaMemGetInfo(&free, &total)
	var p unsafe.Pointer
	C.cudaMalloc(&p, free/4*3)
	return p
}
`

const goMode = `// Package mode reads CUDA's module loading mode through cgo.
package mode

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
*/
import "C"

// Lazy says whether kernels load at their first launch; CUDA is not
// initialized yet when it asks.
func Lazy() bool {
	var m C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&m)
	return m == C.CU_MODULE_LAZY_LOADING
}

// LazyAfterInit asks after cuInit: the twin.
func LazyAfterInit() bool {
	C.cuInit(0)
	var m C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&m)
	return m == C.CU_MODULE_LAZY_LOADING
}
`

// Package corpus generates a deterministic corpus of realistic CUDA and C++
// sources for benchmarks: kernels with templates and qualifiers, launches,
// host code with error-check macros, memory queries and allocations (a few of
// them hazardous), and plain C++ files that no rule needs to parse.
package benchcorpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Write writes about mb megabytes of sources under dir and returns the
// number of bytes written. The same seed gives the same corpus.
func Write(dir string, mb int, seed uint64) (int, error) {
	rng := rand.New(rand.NewPCG(seed, 42))
	total := 0
	for i := 0; total < mb*1_000_000; i++ {
		var name, body string
		switch i % 5 {
		case 0, 1:
			name, body = fmt.Sprintf("kernels/k%05d.cu", i), kernelFile(rng, i)
		case 2:
			name, body = fmt.Sprintf("include/h%05d.cuh", i), headerFile(rng, i)
		case 3:
			name, body = fmt.Sprintf("host/h%05d.cpp", i), hostFile(rng, i)
		default:
			name, body = fmt.Sprintf("util/u%05d.cc", i), plainFile(rng, i)
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return total, err
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			return total, err
		}
		total += len(body)
	}
	return total, nil
}

var types = []string{"float", "double", "int", "half", "uint32_t"}

func kernelFile(rng *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// generated kernel file %d\n#include <cuda_runtime.h>\n#include \"common.cuh\"\n\n#define CUDA_CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) abort(); } while (0)\n\n", i)
	n := 8 + rng.IntN(12)
	for k := 0; k < n; k++ {
		t := types[rng.IntN(len(types))]
		fmt.Fprintf(&b, `template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) kernel_%d_%d(const T* __restrict__ in, T* __restrict__ out, int n) {
  __shared__ T tile[BLOCK];
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = idx; i < n; i += gridDim.x * blockDim.x) {
    tile[threadIdx.x] = in[i] * static_cast<T>(%d);
    __syncthreads();
    out[i] = tile[(threadIdx.x + 1) %% BLOCK] + helper_%d<T>(in[i]);
  }
}

__device__ __forceinline__ %s helper_%d_%d(%s x) { return x * x + %d; }

`, i, k, k+1, k, t, i, k, t, rng.IntN(100))
	}
	fmt.Fprintf(&b, "void launch_all_%d(cudaStream_t stream, const float* in, float* out, int n) {\n", i)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "  kernel_%d_%d<float, %d><<<(n + 255) / 256, 256, 0, stream>>>(in, out, n);\n  CUDA_CHECK(cudaGetLastError());\n", i, k, 64<<rng.IntN(3))
	}
	b.WriteString("}\n")
	if rng.IntN(10) == 0 {
		fmt.Fprintf(&b, `
void* reserve_workspace_%d() {
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  void* ws = nullptr;
  CUDA_CHECK(cudaMalloc(&ws, free_bytes * %d / 100));
  return ws;
}
`, i, 50+rng.IntN(50))
	}
	return b.String()
}

func headerFile(rng *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#pragma once\n// generated header %d\n#define HD __host__ __device__\n\nnamespace gen%d {\n", i, i)
	n := 10 + rng.IntN(20)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, `template <typename T>
struct Vec%d {
  T x, y, z;
  HD Vec%d() : x(0), y(0), z(0) {}
  HD Vec%d operator+(const Vec%d& o) const { return {x + o.x, y + o.y, z + o.z}; }
  HD T dot(const Vec%d& o) const { return x * o.x + y * o.y + z * o.z; }
};

`, k, k, k, k, k)
	}
	b.WriteString("}  // namespace\n")
	return b.String()
}

func hostFile(rng *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// generated host file %d\n#include <cuda.h>\n#include <vector>\n#include <stdexcept>\n\n", i)
	n := 6 + rng.IntN(8)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, `class Buffer%d {
 public:
  explicit Buffer%d(size_t bytes) : bytes_(bytes) {
    if (cuMemAlloc(&ptr_, bytes_) != CUDA_SUCCESS) throw std::runtime_error("alloc %d");
  }
  ~Buffer%d() { cuMemFree(ptr_); }
  size_t size() const { return bytes_; }
 private:
  CUdeviceptr ptr_ = 0;
  size_t bytes_;
};

`, k, k, k, k)
	}
	fmt.Fprintf(&b, "std::vector<size_t> sizes_%d() {\n  std::vector<size_t> s;\n  for (int i = 0; i < %d; ++i) s.push_back(size_t(1) << (20 + i %% 8));\n  return s;\n}\n", i, 16+rng.IntN(16))
	return b.String()
}

func plainFile(rng *rand.Rand, i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// generated utility file %d\n#include <string>\n#include <map>\n\nnamespace util%d {\n", i, i)
	n := 15 + rng.IntN(20)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "std::string format_%d(const std::map<std::string, int>& m) {\n  std::string out;\n  for (const auto& [key, value] : m) {\n    out += key + \"=\" + std::to_string(value * %d) + \";\";\n  }\n  return out;\n}\n\n", k, rng.IntN(1000))
	}
	b.WriteString("}  // namespace\n")
	return b.String()
}

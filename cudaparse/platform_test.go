package cudaparse

import "testing"

func TestHIPOnly(t *testing.T) {
	for _, tt := range []struct {
		name string
		src  string
		want bool
	}{
		{"HIP runtime", "#include <hip/hip_runtime.h>\n__global__ void k() {}\nint main() { hipLaunchKernelGGL(k, 1, 1, 0, 0); hipDeviceSynchronize(); }", true},
		{"HIP API without the header", "void f(float **p) { hipMalloc(p, 4); }", true},
		{"AMD builtin", "__device__ void nap() { __builtin_amdgcn_s_sleep(1); }", true},
		{"CUDA", "#include <cuda_runtime.h>\nvoid f(float **p) { cudaMalloc(p, 4); }", false},
		{"portable macro layer", "#ifdef USE_HIP\n#define gpuMalloc hipMalloc\n#else\n#define gpuMalloc cudaMalloc\n#endif\nvoid f(float **p) { gpuMalloc(p, 4); }", false},
		{"HIP on NVIDIA", "#ifdef __HIP_PLATFORM_NVIDIA__\n#endif\nvoid f(float **p) { hipMalloc(p, 4); }", false},
		{"driver API", "void f(CUdeviceptr *p) { hipFree(0); cuMemAlloc(p, 4); }", false},
		{"names in comments only", "// ported from cudaMalloc\nvoid f(float **p) { hipMalloc(p, 4); }", true},
		{"neither", "int main() { return 0; } // chip", false},
		{"CUDA and HIP builds by switch", "__global__ void k() {}\nvoid run() {\n#ifdef USE_CUDA\n  k<<<1, 1>>>();\n#elif defined USE_HIP\n  hipLaunchKernelGGL(k, 1, 1, 0, 0);\n#endif\n}", false},
		{"a library's CUDA switch", "#if defined(AMREX_USE_CUDA)\n#endif\nvoid f(float **p) { hipMalloc(p, 4); }", false},
	} {
		if got := HIPOnly([]byte(tt.src)); got != tt.want {
			t.Errorf("%s: HIPOnly = %v, want %v", tt.name, got, tt.want)
		}
	}
}

package knowledge

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// LaunchAPIs maps each runtime or driver function that launches a kernel
// to the index of its kernel argument (the <<<>>> syntax is the other way
// to launch), and the header libraries' launch functions that take the
// kernel the same way: CUTLASS's cluster launch
// (`cutlass::launch_kernel_on_cluster(params, kernel_ptr, args...)`, what
// its Hopper examples and kernels built on them call), which loads the
// kernel at that call like cudaLaunchKernelEx under it.
var LaunchAPIs = map[string]int{
	"launch_kernel_on_cluster":    1,
	"cudaLaunchKernel":            0,
	"cudaLaunchKernelExC":         1,
	"cudaLaunchKernelEx":          1,
	"cudaLaunchCooperativeKernel": 0,
	"cuLaunchKernel":              0,
	"cuLaunchKernelEx":            1,
	"cuLaunchCooperativeKernel":   0,
}

// LaunchAPIStream gives the index of the stream argument of the launch
// APIs that take one directly.
var LaunchAPIStream = map[string]int{
	"cudaLaunchKernel":            5,
	"cudaLaunchCooperativeKernel": 5,
	"cuLaunchKernel":              8,
	"cuLaunchCooperativeKernel":   8,
}

// PreloadAPIs maps each call that loads the kernel it names, without
// launching it, to the index of the argument naming the kernel (a kernel
// symbol, or a CUfunction handle). Measured on an H100 (driver 580, CUDA
// 13.0, 2026-11-25): after any of the runtime calls below, the kernel's
// first launch triggered no lazy load; the driver calls take a CUfunction,
// which is loaded already or is loaded by them (cuFuncLoad).
var PreloadAPIs = map[string]int{
	"cudaFuncGetAttributes":                                  1,
	"cudaFuncSetAttribute":                                   0,
	"cudaFuncSetCacheConfig":                                 0,
	"cudaFuncSetSharedMemConfig":                             0,
	"cudaGetFuncBySymbol":                                    1,
	"cudaOccupancyMaxActiveBlocksPerMultiprocessor":          1,
	"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags": 1,
	"cudaOccupancyMaxPotentialBlockSize":                     2,
	"cudaOccupancyMaxPotentialBlockSizeWithFlags":            2,
	"cudaOccupancyAvailableDynamicSMemPerBlock":              1,
	"cuFuncLoad":                                  0,
	"cuFuncGetAttribute":                          2,
	"cuFuncSetAttribute":                          0,
	"cuFuncSetCacheConfig":                        0,
	"cuOccupancyMaxActiveBlocksPerMultiprocessor": 1,
	"cuOccupancyMaxPotentialBlockSize":            2,
}

// PreloadAPINames returns the names of every call that loads a kernel
// without launching it (PreloadAPIs and HandleAPIs), sorted.
func PreloadAPINames() []string {
	out := append(slices.Sorted(maps.Keys(PreloadAPIs)), slices.Sorted(maps.Keys(HandleAPIs))...)
	sort.Strings(out)
	return out
}

// HandleAPIs return a loaded CUfunction through their first argument:
// cuModuleGetFunction(&f, module, "name") loads the kernel "name" (the
// vendor's guide names it as the way to load explicitly), and
// cuKernelGetFunction(&f, kernel) loads kernel. Measured: after either,
// cuFuncIsLoaded says loaded and the first launch loads nothing.
var HandleAPIs = map[string]bool{
	"cuModuleGetFunction": true,
	"cuKernelGetFunction": true,
}

// KernelResolvers load kernels onto the device: after one of them a
// measurement of memory or time does see the module's code.
// cuLibraryGetKernel alone does not load (measured: a CUkernel launched
// with cuLaunchKernel loads at that launch).
var KernelResolvers = map[string]bool{
	"cuModuleGetFunction": true, "cuFuncLoad": true, "cuKernelGetFunction": true,
}

// DriverLaunch reports whether a launch API of LaunchAPIs is the
// driver's, which takes a handle (CUfunction or CUkernel) where the
// others take the kernel's symbol.
func DriverLaunch(api string) bool {
	_, ok := LaunchAPIs[api]
	return ok && strings.HasPrefix(api, "cu") && !strings.HasPrefix(api, "cuda")
}

// LaunchSpellings are literals every launch contains: the launch syntax
// and the launch APIs' names (a file without any launches nothing itself).
func LaunchSpellings() []string {
	return append([]string{"<<<", "<< <"}, slices.Sorted(maps.Keys(LaunchAPIs))...)
}

// KernelLoadSpellings are literals that every launch or preload contains:
// the launch syntax, the launch APIs, the preload APIs and the portability
// layers' launches written with their namespace. A file without any of
// them can define no function that loads a kernel.
func KernelLoadSpellings() []string {
	out := LaunchSpellings()
	out = append(out, PreloadAPINames()...)
	out = append(out, LibraryLaunchCalls()...)
	sort.Strings(out)
	return out
}

package knowledge

import (
	"maps"
	"slices"
)

// Allocator says where an allocation function takes its size: the product
// of the arguments at SizeArgs.
type Allocator struct {
	SizeArgs []int
}

// Allocators are the device allocation functions of the runtime and driver
// APIs. Stream-ordered and pool allocations take memory like any other.
var Allocators = map[string]Allocator{
	"cudaMalloc":              {SizeArgs: []int{1}},
	"cudaMallocManaged":       {SizeArgs: []int{1}},
	"cudaMallocPitch":         {SizeArgs: []int{2, 3}},
	"cuMemAlloc":              {SizeArgs: []int{1}},
	"cuMemAlloc_v2":           {SizeArgs: []int{1}},
	"cuMemAllocPitch":         {SizeArgs: []int{2, 3}},
	"cuMemAllocPitch_v2":      {SizeArgs: []int{2, 3}},
	"cuMemAllocManaged":       {SizeArgs: []int{1}},
	"cuMemCreate":             {SizeArgs: []int{1}},
	"cudaMallocAsync":         {SizeArgs: []int{1}},
	"cudaMallocFromPoolAsync": {SizeArgs: []int{1}},
	"cuMemAllocAsync":         {SizeArgs: []int{1}},
	"cuMemAllocFromPoolAsync": {SizeArgs: []int{1}},
}

// AllocatorNames returns the names of Allocators, sorted.
func AllocatorNames() []string { return slices.Sorted(maps.Keys(Allocators)) }

// AllocatorSpellings are literals every call of an allocator contains (what
// a prefilter looks for).
var AllocatorSpellings = []string{"cudaMalloc", "cuMemAlloc", "cuMemCreate"}

// DeviceMemoryQueries report the device's free and total memory through
// their first two arguments (free, total), in the CUDA APIs.
var DeviceMemoryQueries = map[string]bool{
	"cudaMemGetInfo": true, "cudaMemGetInfo_v2": true, "cuMemGetInfo": true, "cuMemGetInfo_v2": true,
}

// NVMLMemoryQueries report device memory through NVML (a struct with
// free, total and used).
var NVMLMemoryQueries = map[string]bool{
	"nvmlDeviceGetMemoryInfo": true, "nvmlDeviceGetMemoryInfo_v2": true,
}

// IsMemoryQuery reports whether a call reports free device memory, through
// CUDA or NVML.
func IsMemoryQuery(name string) bool { return DeviceMemoryQueries[name] || NVMLMemoryQueries[name] }

// DeviceContainers allocate device memory when constructed (thrust, RMM).
var DeviceContainers = map[string]bool{"device_vector": true, "device_buffer": true, "device_uvector": true}

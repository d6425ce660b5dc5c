// Command ll001 sizes device memory from free memory through the binding.
package main

import (
	"example.com/app/gpu"
	"example.com/cubind"
)

const margin = 64 << 20

func grabAlmostAll(ptx string) cubind.DevicePtr {
	free, _, _ := cubind.MemInfo()
	p, _ := cubind.MemAlloc(free - margin) // want `^LL001 cubind.MemAlloc \(cuMemAlloc\) takes 100% of the free memory reported by cuMemGetInfo, leaving only 64 MiB`
	cubind.LoadData(ptx)
	return p
}

func grabThroughWrapper() cubind.DevicePtr {
	p, _ := gpu.Reserve(gpu.FreeBytes() * 95 / 100) // want `LL001 gpu.Reserve \(cuMemAlloc\) takes 95% of the free memory`
	return p
}

func grabTotal() cubind.DevicePtr {
	_, total, _ := cubind.MemInfo()
	p, _ := cubind.MemAlloc(total / 10 * 9) // want `LL001 cubind.MemAlloc \(cuMemAlloc\) takes 90% of the total memory`
	return p
}

func keepHeadroom(ptx string) cubind.DevicePtr {
	free, _, _ := cubind.MemInfo()
	p, _ := cubind.MemAlloc(free - 1<<30) // ok: 1 GiB left for modules
	cubind.LoadData(ptx)
	return p
}

func takeHalf() cubind.DevicePtr {
	p, _ := gpu.Reserve(gpu.FreeBytes() / 2) // ok: half of free memory
	return p
}

func fixedSize() cubind.DevicePtr {
	p, _ := cubind.MemAlloc(256 << 20) // ok: a fixed size
	return p
}

func main() {
	grabAlmostAll("")
	grabThroughWrapper()
	grabTotal()
	keepHeadroom("")
	takeHalf()
	fixedSize()
}

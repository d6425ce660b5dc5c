// Command ll004 measures module loads through the binding.
package main

import (
	"fmt"
	"time"

	"example.com/app/gpu"
	"example.com/cubind"
)

func moduleFootprint(ptx string) int64 {
	before, _, _ := cubind.MemInfo()
	mod, _ := cubind.LoadData(ptx) // want `^LL004 device memory is measured around cubind.LoadData \(cuModuleLoadData\)`
	after, _, _ := cubind.MemInfo()
	_ = mod
	return before - after
}

func moduleFootprintResolved(ptx string) int64 {
	before, _, _ := cubind.MemInfo()
	mod, _ := cubind.LoadData(ptx) // ok: the kernel is looked up, and so loaded, before measuring again
	mod.Function("scale")
	after, _, _ := cubind.MemInfo()
	return before - after
}

func libraryLoadTime(image string) {
	t := time.Now()
	lib, _ := cubind.LoadLibrary(image) // want `LL004 cubind.LoadLibrary \(cuLibraryLoadData\) is timed as if it loaded the module`
	lib.Kernel("scale")
	fmt.Println("load:", time.Since(t))
}

func loadOnly(path string) cubind.Module {
	mod, _ := cubind.Load(path) // ok: nothing measured
	return mod
}

func engineFootprint(e *gpu.Engine, ptx string) int64 {
	before, _, _ := cubind.MemInfo()
	e.LoadPTX("m", ptx, []string{"scale"}) // ok: LoadPTX looks every kernel up, which loads them
	after, _, _ := cubind.MemInfo()
	return before - after
}

func main() {}

// Command ll005 loads one module into every device's context by hand.
package main

import (
	"example.com/app/gpu"
	"example.com/cubind"
)

type library struct {
	name, ptx string
	kernels   []string
}

// machine holds its engines in an embedded struct declared in devices.go
// (gorgonia's machines embed their engines' metadata the same way).
type machine struct {
	devices
	libs []library
}

func (m *machine) loadStdLib() {
	for _, lib := range m.libs {
		for i := range m.engines {
			e := &m.engines[i]
			e.LoadPTX(lib.name, lib.ptx, lib.kernels) // want `^LL005 the same module is loaded into each context by hand \(e.LoadPTX, which makes its context current and calls cuModuleLoadData, in a loop over contexts\)`
		}
	}
}

func loadPerContext(ctxs []cubind.Context, ptx string) {
	for _, c := range ctxs {
		cubind.SetCurrent(c)
		cubind.LoadData(ptx) // want `LL005 the same module is loaded into each context by hand \(cubind.LoadData \(cuModuleLoadData\) in a loop that switches with cubind.SetCurrent\)`
	}
}

func imagePerContext(ctxs []cubind.Context, ptxs []string) {
	for i, c := range ctxs {
		cubind.SetCurrent(c)
		cubind.LoadData(ptxs[i]) // ok: a different image in each context
	}
}

func oneLibrary(engines []gpu.Engine, ptx string) {
	lib, _ := cubind.LoadLibrary(ptx) // ok: loaded once for every context
	_ = lib
}

func firstThatWorks(ctxs []cubind.Context, ptx string) {
	for _, c := range ctxs {
		cubind.SetCurrent(c)
		if _, err := cubind.LoadData(ptx); err == nil { // ok: stops at the first context that loads it
			break
		}
	}
}

func main() {}

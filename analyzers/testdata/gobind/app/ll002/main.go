// Command ll002 times kernels launched through the binding.
package main

import (
	"fmt"
	"time"
	"unsafe"

	"example.com/app/gpu"
	"example.com/cubind"
)

func libraryKernelCold(lib cubind.Library, p cubind.DevicePtr) {
	fn, _ := lib.Kernel("scale")
	start := time.Now()
	fn.Launch(1, 256, unsafe.Pointer(&p)) // want `^LL002 the first launch of fn \(kernel "scale"\) in this function is timed, and lib.Kernel does not load it \(cuLibraryGetKernel`
	fmt.Println(time.Since(start))
}

func libraryKernelWarm(lib cubind.Library, p cubind.DevicePtr) {
	fn, _ := lib.Kernel("scale")
	fn.Launch(1, 256, unsafe.Pointer(&p)) // ok: a warm-up before the timer
	start := time.Now()
	fn.Launch(1, 256, unsafe.Pointer(&p)) // ok: warmed up
	fmt.Println(time.Since(start))
}

func moduleKernel(mod cubind.Module, p cubind.DevicePtr) {
	fn, _ := mod.Function("scale")
	start := time.Now()
	cubind.LaunchKernel(fn, 1, 256, unsafe.Pointer(&p)) // ok: cuModuleGetFunction loaded it
	fmt.Println(time.Since(start))
}

func lookupInsideTimer(mod cubind.Module, p cubind.DevicePtr) time.Duration {
	start := time.Now()
	fn, _ := mod.Function("scale")
	cubind.LaunchKernel(fn, 1, 256, unsafe.Pointer(&p)) // want `LL002 fn \(kernel "scale"\) is looked up inside the timed region by mod.Function, which loads it`
	return time.Since(start)
}

func wrapperLauncher(n int, x, y cubind.DevicePtr) time.Duration {
	start := time.Now()
	gpu.Axpy(n, 2, x, y) // want `LL002 the first launch of gpu.Axpy in this function is timed`
	return time.Since(start)
}

func warmedThroughBinding(n int, x, y cubind.DevicePtr) time.Duration {
	cubind.Saxpy(n, 2, x, y) // ok: the same kernel, launched through the binding itself
	start := time.Now()
	gpu.Axpy(n, 2, x, y) // ok: warmed up
	return time.Since(start)
}

func scalerCold(lib cubind.Library, n int, p cubind.DevicePtr) {
	sc, _ := gpu.NewScaler(lib)
	t0 := time.Now()
	sc.Run(n, p) // want `LL002 the first launch of sc in this function is timed, and gpu.NewScaler does not load it`
	fmt.Println("scale:", time.Since(t0))
}

func scalerWarm(lib cubind.Library, n int, p cubind.DevicePtr) {
	sc, _ := gpu.NewScaler(lib)
	sc.Run(n, p) // ok: a warm-up
	t0 := time.Now()
	for i := 0; i < 10; i++ {
		sc.Run(n, p) // ok: warmed up
	}
	fmt.Println("scale:", time.Since(t0)/10)
}

func eventsAroundLibraryKernel(lib cubind.Library, start, stop cubind.Event, p cubind.DevicePtr) {
	blur, _ := lib.Entry("blur")
	start.Record()
	blur.Launch(64, 256, unsafe.Pointer(&p)) // want `LL002 the first launch of blur \(kernel "blur"\)`
	stop.Record()
}

func engineKernels(e *gpu.Engine, ptx string) time.Duration {
	e.LoadPTX("m", ptx, []string{"scale"})
	start := time.Now()
	e.Launch("m.scale", 1, 256) // ok: LoadPTX looked every kernel up, which loads them
	return time.Since(start)
}

func unknownHandle(handles map[string]cubind.Function) time.Duration {
	start := time.Now()
	handles["scale"].Launch(1, 256) // ok: where the handle came from is not known
	return time.Since(start)
}

func launcherDefinedInCUDASource(p cubind.DevicePtr, n int) {
	start := time.Now()
	cubind.Scale(p, 2, n) // want `LL002 the first launch of cubind.Scale in this function is timed`
	fmt.Println(time.Since(start))
}

func noKernelInCUDASource() {
	start := time.Now()
	cubind.DeviceCount() // ok: device_count, in the same .cu file, launches nothing
	fmt.Println(time.Since(start))
}

func kernelLoadedAtFirstCall(n int, p cubind.DevicePtr) time.Duration {
	start := time.Now()
	gpu.Shift(n, p) // want `LL002 the first launch of gpu.Shift in this function is timed`
	return time.Since(start)
}

// entries is a table of lookups of types the analyzers do not know.
var entries []interface {
	Entry(name string) (cubind.Function, error)
}

func ambiguousName(p cubind.DevicePtr) time.Duration {
	k, _ := entries[0].Entry("blur")
	start := time.Now()
	k.Launch(1, 256, unsafe.Pointer(&p)) // ok: Entry of a value of unknown type could be Module.Entry (loads) or Library.Entry (does not)
	return time.Since(start)
}

func currentLibrary() cubind.Library { return cubind.Library{} }

func uniqueName(p cubind.DevicePtr) time.Duration {
	k, _ := currentLibrary().Kernel("shift") // the result's type is another package's: Kernel is matched by its name, which one method has
	start := time.Now()
	k.Launch(1, 256, unsafe.Pointer(&p)) // want `LL002 the first launch of k \(kernel "shift"\)`
	return time.Since(start)
}

func main() {}

package cubind

import "unsafe"

// LaunchKernel launches f: the function form of Function.Launch.
func LaunchKernel(f Function, grid, block int, args ...unsafe.Pointer) error {
	return f.Launch(grid, block, args...)
}

// MustInit initializes the driver or panics.
func MustInit() {
	if err := Init(); err != nil {
		panic(err)
	}
}

// unsafePointer is p as a pointer, for C.
func unsafePointer(p DevicePtr) unsafe.Pointer { return unsafe.Pointer(uintptr(p)) }

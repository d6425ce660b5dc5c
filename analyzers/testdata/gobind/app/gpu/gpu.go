// Package gpu wraps the cubind binding the way applications do: an engine
// per device that keeps its context, modules and kernels.
package gpu

import (
	"unsafe"

	"example.com/cubind"
)

// FreeBytes reports the current device's free memory.
func FreeBytes() int64 {
	free, _, err := cubind.MemInfo()
	if err != nil {
		return 0
	}
	return free
}

// Reserve allocates n bytes of device memory.
func Reserve(n int64) (cubind.DevicePtr, error) { return cubind.MemAlloc(n) }

// Start initializes CUDA.
func Start() { cubind.MustInit() }

// Engine is one device's context and the kernels loaded into it.
type Engine struct {
	ctx cubind.Context
	fns map[string]cubind.Function
}

// NewEngine creates a context on device ordinal.
func NewEngine(ordinal int) (*Engine, error) {
	d, err := cubind.GetDevice(ordinal)
	if err != nil {
		return nil, err
	}
	ctx, err := d.MakeContext()
	if err != nil {
		return nil, err
	}
	return &Engine{ctx: ctx, fns: map[string]cubind.Function{}}, nil
}

// LoadPTX loads a module into the engine's context and looks every kernel
// of it up.
func (e *Engine) LoadPTX(name, ptx string, kernels []string) error {
	if err := cubind.SetCurrent(e.ctx); err != nil {
		return err
	}
	mod, err := cubind.LoadData(ptx)
	if err != nil {
		return err
	}
	for _, k := range kernels {
		fn, err := mod.Function(k)
		if err != nil {
			return err
		}
		e.fns[name+"."+k] = fn
	}
	return nil
}

// Launch launches a kernel LoadPTX looked up.
func (e *Engine) Launch(kernel string, grid, block int, args ...unsafe.Pointer) error {
	fn := e.fns[kernel]
	return fn.Launch(grid, block, args...)
}

// Axpy computes y = a*x + y.
func Axpy(n int, a float32, x, y cubind.DevicePtr) error { return cubind.Saxpy(n, a, x, y) }

// Scaler scales vectors with a library kernel.
type Scaler struct{ fn cubind.Function }

// NewScaler looks the library's scale kernel up.
func NewScaler(lib cubind.Library) (*Scaler, error) {
	fn, err := lib.Kernel("scale")
	return &Scaler{fn: fn}, err
}

// Run scales n floats at p.
func (s *Scaler) Run(n int, p cubind.DevicePtr) error {
	return s.fn.Launch((n+255)/256, 256, unsafe.Pointer(&p))
}

// probe reports whether a kernel of the image can be looked up (the
// handle is dropped).
func probe(image string) bool {
	m, err := cubind.LoadData(image)
	if err != nil {
		return false
	}
	_, err = m.Function("probe")
	return err == nil
}

// kernelFrom loads an image and looks a kernel of it up, once the probe
// passed.
func kernelFrom(image, name string) cubind.Function {
	if !probe(image) {
		panic("no image for this device")
	}
	m, _ := cubind.LoadData(image)
	f, _ := m.Function(name)
	return f
}

var (
	shiftPTX  string
	shiftCode cubind.Function
)

// Shift launches the shift kernel, which it loads at its first call.
func Shift(n int, p cubind.DevicePtr) error {
	if shiftCode == (cubind.Function{}) {
		shiftCode = kernelFrom(shiftPTX, "shift")
	}
	return shiftCode.Launch((n+255)/256, 256, unsafe.Pointer(&p))
}

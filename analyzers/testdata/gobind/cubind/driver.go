// Package cubind is a small CUDA driver binding written for lazylint's
// fixtures, shaped like the public Go bindings: Go types around the
// driver's handles, errors instead of result codes, one Go call per C call.
package cubind

/*
#include <stddef.h>
#include <stdlib.h>

typedef int CUresult;
typedef int CUdevice;
typedef int CUmoduleLoadingMode;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUlib_st *CUlibrary;
typedef struct CUkern_st *CUkernel;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

CUresult cuInit(unsigned int flags);
CUresult cuDeviceGet(CUdevice *dev, int ordinal);
CUresult cuCtxCreate(CUcontext *ctx, unsigned int flags, CUdevice dev);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuMemGetInfo(size_t *free, size_t *total);
CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes);
CUresult cuModuleLoad(CUmodule *mod, const char *path);
CUresult cuModuleLoadData(CUmodule *mod, const void *image);
CUresult cuModuleUnload(CUmodule mod);
CUresult cuModuleGetFunction(CUfunction *fn, CUmodule mod, const char *name);
CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode);
CUresult cuLibraryLoadData(CUlibrary *lib, const void *image, void *jitOptions, void **jitValues, unsigned int nJit, void *libOptions, void **libValues, unsigned int nLib);
CUresult cuLibraryGetKernel(CUkernel *kernel, CUlibrary lib, const char *name);
CUresult cuLaunchKernel(CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz, unsigned int smem, CUstream stream, void **params, void **extra);
CUresult cuEventCreate(CUevent *ev, unsigned int flags);
CUresult cuEventRecord(CUevent ev, CUstream stream);

// Defined in saxpy.cu (built by nvcc): launches the saxpy kernel.
int launch_saxpy(int n, float a, CUdeviceptr x, CUdeviceptr y);
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Device is a device ordinal.
type Device int

// Context is a driver context.
type Context struct{ ctx C.CUcontext }

// DevicePtr is an address in device memory.
type DevicePtr uintptr

// Module is a module loaded into one context.
type Module struct{ mod C.CUmodule }

// Library is a context-independent library (CUDA 12.0).
type Library struct{ lib C.CUlibrary }

// Function is a kernel handle.
type Function struct{ fn C.CUfunction }

// Event is a GPU timestamp.
type Event struct{ ev C.CUevent }

func check(r C.CUresult) error {
	if r != 0 {
		return fmt.Errorf("cuda error %d", int(r))
	}
	return nil
}

// Init initializes the driver.
func Init() error { return check(C.cuInit(0)) }

// GetDevice returns the device of an ordinal.
func GetDevice(ordinal int) (Device, error) {
	var d C.CUdevice
	err := check(C.cuDeviceGet(&d, C.int(ordinal)))
	return Device(d), err
}

// MakeContext creates a context on the device and makes it current.
func (d Device) MakeContext() (Context, error) {
	var c Context
	err := check(C.cuCtxCreate(&c.ctx, 0, C.CUdevice(d)))
	return c, err
}

// SetCurrent makes a context current on this thread.
func SetCurrent(c Context) error { return check(C.cuCtxSetCurrent(c.ctx)) }

// MemInfo returns the free and total memory of the current device.
func MemInfo() (free, total int64, err error) {
	var f, t C.size_t
	err = check(C.cuMemGetInfo(&f, &t))
	free = int64(f)
	total = int64(t)
	return
}

// MemAlloc allocates device memory.
func MemAlloc(bytes int64) (DevicePtr, error) {
	size := C.size_t(bytes)
	var p C.CUdeviceptr
	err := check(C.cuMemAlloc(&p, size))
	return DevicePtr(p), err
}

// Load loads a module file into the current context.
func Load(path string) (Module, error) {
	var m Module
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	err := check(C.cuModuleLoad(&m.mod, cpath))
	return m, err
}

// LoadData loads a module image (PTX, cubin, fatbin) into the current
// context.
func LoadData(image string) (Module, error) {
	var m Module
	cimg := C.CString(image)
	defer C.free(unsafe.Pointer(cimg))
	err := check(C.cuModuleLoadData(&m.mod, unsafe.Pointer(cimg)))
	return m, err
}

// Function looks a kernel of the module up (which loads it).
func (m Module) Function(name string) (Function, error) {
	var f Function
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	err := check(C.cuModuleGetFunction(&f.fn, m.mod, cname))
	return f, err
}

// Entry is Function under the name Library shares.
func (m Module) Entry(name string) (Function, error) { return m.Function(name) }

// Unload unloads the module.
func (m Module) Unload() error { return check(C.cuModuleUnload(m.mod)) }

// LoadLibrary loads a library image for every context.
func LoadLibrary(image string) (Library, error) {
	var l Library
	cimg := C.CString(image)
	defer C.free(unsafe.Pointer(cimg))
	err := check(C.cuLibraryLoadData(&l.lib, unsafe.Pointer(cimg), nil, nil, 0, nil, nil, 0))
	return l, err
}

// Kernel looks a kernel of the library up (which does not load it).
func (l Library) Kernel(name string) (Function, error) {
	var k C.CUkernel
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	err := check(C.cuLibraryGetKernel(&k, l.lib, cname))
	return Function{fn: C.CUfunction(unsafe.Pointer(k))}, err
}

// Entry is Kernel under the name Module shares.
func (l Library) Entry(name string) (Function, error) { return l.Kernel(name) }

// Launch launches the kernel on a 1-D grid.
func (f Function) Launch(grid, block int, args ...unsafe.Pointer) error {
	var params *unsafe.Pointer
	if len(args) > 0 {
		params = &args[0]
	}
	return check(C.cuLaunchKernel(f.fn, C.uint(grid), 1, 1, C.uint(block), 1, 1, 0, nil, params, nil))
}

// LoadingMode reports the loading mode (CUDA must be initialized).
func LoadingMode() (int, error) {
	var m C.CUmoduleLoadingMode
	err := check(C.cuModuleGetLoadingMode(&m)) // want `^LL006 cuModuleGetLoadingMode before cuInit`
	return int(m), err
}

// NewEvent creates an event.
func NewEvent() (Event, error) {
	var e Event
	err := check(C.cuEventCreate(&e.ev, 0))
	return e, err
}

// Record records the event on the default stream.
func (e Event) Record() error { return check(C.cuEventRecord(e.ev, nil)) }

// Saxpy computes y = a*x + y on the device (the kernel is in saxpy.cu).
func Saxpy(n int, a float32, x, y DevicePtr) error {
	if C.launch_saxpy(C.int(n), C.float(a), C.CUdeviceptr(x), C.CUdeviceptr(y)) != 0 {
		return fmt.Errorf("saxpy failed")
	}
	return nil
}

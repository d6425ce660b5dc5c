package driver

// #include "cudadl.h"
import "C"

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unsafe"
)

// Loading modes as cuModuleGetLoadingMode reports them.
const (
	ModeEager   = "eager"
	ModeLazy    = "lazy"
	ModeUnknown = "unknown"
)

// EnvVars are the variables that steer module loading; CUDA reads them once,
// in cuInit.
var EnvVars = []string{"CUDA_MODULE_LOADING", "CUDA_MODULE_DATA_LOADING"}

// KnownLoadingValue reports whether v is a value the driver acts on for
// CUDA_MODULE_LOADING or CUDA_MODULE_DATA_LOADING: LAZY or EAGER (in any
// case). Others, such as AUTO, are ignored by the driver, which then uses
// its default (LAZY since CUDA 12.2).
func KnownLoadingValue(v string) bool {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "LAZY", "EAGER":
		return true
	}
	return false
}

// Device describes one GPU.
type Device struct {
	Index             int    `json:"index"`
	Name              string `json:"name"`
	ComputeCapability string `json:"compute_capability"`
	TotalBytes        uint64 `json:"total_bytes"`
	// FreeBytes is free memory as a program sees it once its context exists
	// (0 when the context could not be made).
	FreeBytes uint64 `json:"free_bytes,omitempty"`
}

// Env is what `lazylint probe env` reports.
type Env struct {
	Library       string `json:"library"`
	DriverVersion string `json:"driver_version"` // CUDA version the driver supports, e.g. "13.0"
	// LoadingMode is what cuModuleGetLoadingMode says after cuInit in this
	// process, i.e. under the variables below.
	LoadingMode      string             `json:"loading_mode"`
	LoadingModeError string             `json:"loading_mode_error,omitempty"`
	Variables        map[string]*string `json:"variables"` // nil: unset
	Devices          []Device           `json:"devices"`
	// Warnings name variables set to values the driver ignores.
	Warnings []string `json:"warnings,omitempty"`
}

// Init calls cuInit(0). Failure wraps ErrNoDriver: without it the driver
// can do nothing a probe needs.
func (d *Driver) Init() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.check("cuInit", C.ll_init(d.c)); err != nil {
		return fmt.Errorf("%w: %w", ErrNoDriver, err)
	}
	return nil
}

// Version is the CUDA version the driver supports, e.g. "13.0".
func (d *Driver) Version() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var v C.int
	if err := d.check("cuDriverGetVersion", C.ll_driver_version(d.c, &v)); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d.%d", v/1000, v%1000/10), nil
}

// LoadingMode asks cuModuleGetLoadingMode; call Init first.
func (d *Driver) LoadingMode() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if C.ll_has_loading_mode(d.c) == 0 {
		return ModeUnknown, errors.New("the driver has no cuModuleGetLoadingMode (before CUDA 11.7): it loads eagerly")
	}
	var m C.int
	if err := d.check("cuModuleGetLoadingMode", C.ll_loading_mode(d.c, &m)); err != nil {
		return ModeUnknown, err
	}
	switch m {
	case 1:
		return ModeEager, nil
	case 2:
		return ModeLazy, nil
	}
	return ModeUnknown, fmt.Errorf("cuModuleGetLoadingMode returned mode %d", int(m))
}

// Devices lists the GPUs; call Init first.
func (d *Driver) Devices() ([]Device, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var n C.int
	if err := d.check("cuDeviceGetCount", C.ll_device_count(d.c, &n)); err != nil {
		return nil, err
	}
	out := make([]Device, 0, int(n))
	for i := 0; i < int(n); i++ {
		dev, err := d.deviceLocked(i)
		if err != nil {
			return out, err
		}
		out = append(out, dev)
	}
	return out, nil
}

// Device describes GPU i without making a context on it.
func (d *Driver) Device(i int) (Device, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.deviceLocked(i)
}

func (d *Driver) deviceLocked(i int) (Device, error) {
	var dev C.CUdevice
	if err := d.check("cuDeviceGet", C.ll_device_get(d.c, &dev, C.int(i))); err != nil {
		return Device{}, err
	}
	var name [256]C.char
	if err := d.check("cuDeviceGetName", C.ll_device_name(d.c, &name[0], C.int(len(name)), dev)); err != nil {
		return Device{}, err
	}
	var total C.size_t
	if err := d.check("cuDeviceTotalMem_v2", C.ll_device_total_mem(d.c, &total, dev)); err != nil {
		return Device{}, err
	}
	// CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR.
	var major, minor C.int
	if err := d.check("cuDeviceGetAttribute", C.ll_device_attribute(d.c, &major, 75, dev)); err != nil {
		return Device{}, err
	}
	if err := d.check("cuDeviceGetAttribute", C.ll_device_attribute(d.c, &minor, 76, dev)); err != nil {
		return Device{}, err
	}
	return Device{
		Index:             i,
		Name:              C.GoString((*C.char)(unsafe.Pointer(&name[0]))),
		ComputeCapability: fmt.Sprintf("%d.%d", major, minor),
		TotalBytes:        uint64(total),
	}, nil
}

// Context is a device's primary context, made current on the calling
// thread. Callers must stay on one OS thread (runtime.LockOSThread) while
// they use it.
type Context struct {
	d   *Driver
	dev C.CUdevice
}

// Retain makes device i's primary context current.
func (d *Driver) Retain(i int) (*Context, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var dev C.CUdevice
	if err := d.check("cuDeviceGet", C.ll_device_get(d.c, &dev, C.int(i))); err != nil {
		return nil, err
	}
	var ctx C.CUcontext
	if err := d.check("cuDevicePrimaryCtxRetain", C.ll_ctx_retain(d.c, &ctx, dev)); err != nil {
		return nil, err
	}
	if err := d.check("cuCtxSetCurrent", C.ll_ctx_set(d.c, ctx)); err != nil {
		C.ll_ctx_release(d.c, dev)
		return nil, err
	}
	return &Context{d: d, dev: dev}, nil
}

// Release gives the primary context back.
func (c *Context) Release() error {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	C.ll_ctx_set(c.d.c, nil)
	return c.d.check("cuDevicePrimaryCtxRelease_v2", C.ll_ctx_release(c.d.c, c.dev))
}

// FreeMemory synchronizes the context and returns free and total device
// memory.
func (c *Context) FreeMemory() (free, total uint64, err error) {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	return c.d.freeMemoryLocked()
}

func (d *Driver) freeMemoryLocked() (free, total uint64, err error) {
	if err := d.check("cuCtxSynchronize", C.ll_ctx_sync(d.c)); err != nil {
		return 0, 0, err
	}
	var f, t C.size_t
	if err := d.check("cuMemGetInfo_v2", C.ll_mem_info(d.c, &f, &t)); err != nil {
		return 0, 0, err
	}
	return uint64(f), uint64(t), nil
}

// ProbeEnv opens the driver at path, initializes it and reports the
// environment. withFree also makes a context on each device to report its
// free memory (that costs the context's own memory while it lives).
// The returned error wraps ErrNoDriver when there is no usable driver; env
// then holds what could be learnt before that.
func ProbeEnv(path string, withFree bool) (Env, error) {
	env := Env{Library: path, LoadingMode: ModeUnknown, Variables: map[string]*string{}, Devices: []Device{}}
	if env.Library == "" {
		env.Library = LibraryPath()
	}
	for _, name := range EnvVars {
		if v, ok := os.LookupEnv(name); ok {
			env.Variables[name] = &v
			if !KnownLoadingValue(v) {
				env.Warnings = append(env.Warnings, fmt.Sprintf("%s=%q is not a value the driver knows (LAZY or EAGER): the driver ignores it and uses its default", name, v))
			}
		} else {
			env.Variables[name] = nil
		}
	}
	d, err := Open(path)
	if err != nil {
		return env, err
	}
	defer d.Close()
	if v, err := d.Version(); err == nil {
		env.DriverVersion = v
	}
	if err := d.Init(); err != nil {
		return env, err
	}
	mode, err := d.LoadingMode()
	env.LoadingMode = mode
	if err != nil {
		env.LoadingModeError = err.Error()
	}
	devs, err := d.Devices()
	env.Devices = devs
	if err != nil {
		return env, err
	}
	if withFree {
		for i := range env.Devices {
			free, err := deviceFree(d, i)
			if err != nil {
				return env, err
			}
			env.Devices[i].FreeBytes = free
		}
	}
	return env, nil
}

func deviceFree(d *Driver, i int) (uint64, error) {
	unlock := lockThread()
	defer unlock()
	ctx, err := d.Retain(i)
	if err != nil {
		return 0, err
	}
	free, _, err := ctx.FreeMemory()
	if rerr := ctx.Release(); err == nil {
		err = rerr
	}
	return free, err
}

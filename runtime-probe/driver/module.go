package driver

// #include "cudadl.h"
import "C"

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Image formats a module file can have.
const (
	FormatCubin  = "cubin"
	FormatFatbin = "fatbin"
	FormatPTX    = "ptx"
)

// fatbinMagic starts a fatbin file (little endian).
const fatbinMagic = 0xBA55ED50

// emCUDA is the ELF machine of a cubin (EM_CUDA).
const emCUDA = 190

// DetectFormat tells a cubin (a CUDA ELF), a fatbin or PTX text apart. A
// host ELF is none of them: HostFatbins reads the images it embeds.
func DetectFormat(image []byte) (string, error) {
	switch {
	case bytes.HasPrefix(image, []byte("\x7fELF")):
		f, err := elf.NewFile(bytes.NewReader(image))
		if err != nil {
			return "", fmt.Errorf("ELF file that cannot be read: %w", err)
		}
		if f.Machine != emCUDA {
			if f.Section(".nv_fatbin") != nil {
				return "", fmt.Errorf("a host %s ELF (%s), not a cubin; it embeds device code in .nv_fatbin (read it with HostFatbins)", f.Machine, f.Type)
			}
			return "", fmt.Errorf("a host %s ELF (%s) without device code (no .nv_fatbin section), not a cubin", f.Machine, f.Type)
		}
		return FormatCubin, nil
	case len(image) >= 4 && binary.LittleEndian.Uint32(image) == fatbinMagic:
		return FormatFatbin, nil
	case bytes.Contains(image[:min(len(image), 64<<10)], []byte(".target")) && bytes.Contains(image[:min(len(image), 64<<10)], []byte(".version")):
		return FormatPTX, nil
	}
	return "", errors.New("not a cubin (ELF), fatbin or PTX file")
}

// ErrNotCUDA is wrapped by HostFatbins when the ELF embeds no device code.
var ErrNotCUDA = errors.New("no device code")

// HostFatbins returns the fatbin containers that a host executable or
// shared library embeds in its .nv_fatbin section, each a loadable image.
// A container starts with the fatbin magic, a 2-byte version, a 2-byte
// header size and an 8-byte size of what follows the header.
func HostFatbins(image []byte) ([][]byte, error) {
	f, err := elf.NewFile(bytes.NewReader(image))
	if err != nil {
		return nil, fmt.Errorf("not an ELF file: %w", err)
	}
	sec := f.Section(".nv_fatbin")
	if sec == nil || f.Machine == emCUDA {
		return nil, fmt.Errorf("%w: no .nv_fatbin section in a host ELF", ErrNotCUDA)
	}
	data, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf(".nv_fatbin: %w", err)
	}
	var out [][]byte
	for off := 0; off+16 <= len(data); {
		if binary.LittleEndian.Uint32(data[off:]) != fatbinMagic {
			off += 8 // containers are 8-byte aligned; skip padding
			continue
		}
		hdr := int(binary.LittleEndian.Uint16(data[off+6:]))
		size := binary.LittleEndian.Uint64(data[off+8:])
		end := uint64(off) + uint64(hdr) + size
		if hdr < 16 || end > uint64(len(data)) {
			return out, fmt.Errorf(".nv_fatbin: container at offset %d runs past the section", off)
		}
		out = append(out, data[off:end])
		off = int(end)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: .nv_fatbin holds no fatbin container", ErrNotCUDA)
	}
	return out, nil
}

// KernelLoad is one kernel's lazy load.
type KernelLoad struct {
	Name string `json:"name"`
	// LoadedBy is the call after which it was loaded: the handle's
	// ("cuKernelGetFunction" or "cuModuleEnumerateFunctions"; under eager
	// loading the image load had loaded it already), or "cuFuncLoad" when
	// the handle came back unloaded and the explicit load loaded it.
	LoadedBy string  `json:"loaded_by"`
	LoadMS   float64 `json:"load_ms"`
	// DeviceBytes is the drop in free device memory across the load. The
	// driver allocates in chunks (2 MiB on current GPUs), so one kernel may
	// show a whole chunk and the next none.
	DeviceBytes int64 `json:"device_bytes"`
}

// ModuleReport is what `lazylint probe module` reports.
type ModuleReport struct {
	File        string `json:"file"`
	Format      string `json:"format"`
	ImageBytes  int    `json:"image_bytes"`
	Device      Device `json:"device"`
	LoadingMode string `json:"loading_mode"`
	// API is the call that loaded the image: cuLibraryLoadData, or
	// cuModuleLoadData on drivers without the library API.
	API string `json:"api"`
	// LoadMS and LoadBytes are the time of the image load call and the drop
	// in free memory across it: near zero under lazy loading.
	LoadMS    float64      `json:"load_ms"`
	LoadBytes int64        `json:"load_bytes"`
	Kernels   []KernelLoad `json:"kernels"`
	// TotalBytes is the drop in free memory from before the image load to
	// after every kernel was loaded: the headroom a program that takes
	// (nearly) all free memory before its first launch must leave for this
	// image.
	TotalBytes int64   `json:"total_bytes"`
	TotalMS    float64 `json:"total_ms"`
}

// lockThread pins the goroutine to its OS thread, where the CUDA context is
// current, and returns the unpin.
func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}

// ProbeModule loads image on device dev and then each of its kernels, one by
// one, measuring time and the drop in free memory. The process's loading
// mode is whatever CUDA_MODULE_LOADING said when the driver initialized.
func (d *Driver) ProbeModule(image []byte, dev int) (ModuleReport, error) {
	var rep ModuleReport
	format, err := DetectFormat(image)
	if err != nil {
		return rep, err
	}
	rep.Format, rep.ImageBytes = format, len(image)
	// The driver reads PTX as a NUL-terminated string; a copy in C memory
	// also keeps Go's collector away from what the driver holds on to.
	cimage := C.CBytes(append(append([]byte(nil), image...), 0))
	defer C.free(cimage)

	if rep.Device, err = d.Device(dev); err != nil {
		return rep, err
	}
	if rep.LoadingMode, err = d.LoadingMode(); err != nil && rep.LoadingMode == "" {
		rep.LoadingMode = ModeUnknown
	}
	unlock := lockThread()
	defer unlock()
	ctx, err := d.Retain(dev)
	if err != nil {
		return rep, err
	}
	defer func() { _ = ctx.Release() }()

	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case C.ll_has_library(d.c) != 0:
		rep.API = "cuLibraryLoadData"
		err = d.probeLibrary(cimage, &rep)
	case C.ll_has_module_enum(d.c) != 0:
		rep.API = "cuModuleLoadData"
		err = d.probeModule(cimage, &rep)
	default:
		err = errors.New("the driver can enumerate no kernels (cuLibraryEnumerateKernels needs CUDA 12.4 or later)")
	}
	if rep.Kernels == nil {
		rep.Kernels = []KernelLoad{}
	}
	return rep, err
}

// measure runs step and returns its duration and the drop in free memory.
func (d *Driver) measure(step func() error) (ms float64, drop int64, err error) {
	before, _, err := d.freeMemoryLocked()
	if err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	if err := step(); err != nil {
		return 0, 0, err
	}
	if err := d.check("cuCtxSynchronize", C.ll_ctx_sync(d.c)); err != nil {
		return 0, 0, err
	}
	ms = float64(time.Since(t0).Nanoseconds()) / 1e6
	after, _, err := d.freeMemoryLocked()
	return ms, int64(before) - int64(after), err
}

// kernelHandle is one kernel of a loaded image: its name, and the call that
// gets its CUfunction (which may load it).
type kernelHandle struct {
	name     string
	function func() (C.CUfunction, error)
}

// probeImage measures load, then each kernel that list returns, one by one,
// and the total; handleCall names the call that gets a kernel's handle.
func (d *Driver) probeImage(rep *ModuleReport, load func() error, unload func(), list func() ([]kernelHandle, error), handleCall string) error {
	start, _, err := d.freeMemoryLocked()
	if err != nil {
		return err
	}
	t0 := time.Now()
	if rep.LoadMS, rep.LoadBytes, err = d.measure(load); err != nil {
		return err
	}
	defer unload()
	kernels, err := list()
	if err != nil {
		return err
	}
	for _, k := range kernels {
		kl := KernelLoad{Name: k.name}
		kl.LoadMS, kl.DeviceBytes, err = d.measure(func() error {
			f, err := k.function()
			if err != nil {
				return err
			}
			kl.LoadedBy, err = d.loadFunction(f, handleCall)
			return err
		})
		if err != nil {
			return fmt.Errorf("kernel %s: %w", kl.Name, err)
		}
		rep.Kernels = append(rep.Kernels, kl)
	}
	return d.finish(rep, start, t0)
}

// probeLibrary goes through cuLibraryLoadData and cuLibraryEnumerateKernels.
func (d *Driver) probeLibrary(image unsafe.Pointer, rep *ModuleReport) error {
	var lib C.CUlibrary
	load := func() error { return d.check("cuLibraryLoadData", C.ll_library_load(d.c, &lib, image)) }
	unload := func() { C.ll_library_unload(d.c, lib) }
	list := func() ([]kernelHandle, error) {
		var n C.uint
		if err := d.check("cuLibraryGetKernelCount", C.ll_library_kernel_count(d.c, &n, lib)); err != nil || n == 0 {
			return nil, err
		}
		kernels := make([]C.CUkernel, int(n))
		if err := d.check("cuLibraryEnumerateKernels", C.ll_library_kernels(d.c, &kernels[0], n, lib)); err != nil {
			return nil, err
		}
		out := make([]kernelHandle, 0, len(kernels))
		for _, k := range kernels {
			var name *C.char
			if err := d.check("cuKernelGetName", C.ll_kernel_name(d.c, &name, k)); err != nil {
				return nil, err
			}
			out = append(out, kernelHandle{name: C.GoString(name), function: func() (C.CUfunction, error) {
				var f C.CUfunction
				err := d.check("cuKernelGetFunction", C.ll_kernel_function(d.c, &f, k))
				return f, err
			}})
		}
		return out, nil
	}
	return d.probeImage(rep, load, unload, list, "cuKernelGetFunction")
}

// probeModule goes through cuModuleLoadData and cuModuleEnumerateFunctions.
func (d *Driver) probeModule(image unsafe.Pointer, rep *ModuleReport) error {
	var mod C.CUmodule
	load := func() error { return d.check("cuModuleLoadData", C.ll_module_load(d.c, &mod, image)) }
	unload := func() { C.ll_module_unload(d.c, mod) }
	list := func() ([]kernelHandle, error) {
		var n C.uint
		if err := d.check("cuModuleGetFunctionCount", C.ll_module_function_count(d.c, &n, mod)); err != nil || n == 0 {
			return nil, err
		}
		funcs := make([]C.CUfunction, int(n))
		if err := d.check("cuModuleEnumerateFunctions", C.ll_module_functions(d.c, &funcs[0], n, mod)); err != nil {
			return nil, err
		}
		out := make([]kernelHandle, 0, len(funcs))
		for _, f := range funcs {
			var name *C.char
			if err := d.check("cuFuncGetName", C.ll_func_name(d.c, &name, f)); err != nil {
				return nil, err
			}
			out = append(out, kernelHandle{name: C.GoString(name), function: func() (C.CUfunction, error) { return f, nil }})
		}
		return out, nil
	}
	return d.probeImage(rep, load, unload, list, "cuModuleEnumerateFunctions")
}

// loadFunction loads f if it is not loaded yet and says which call did.
// Without cuFuncIsLoaded/cuFuncLoad (before CUDA 12.4) getting the handle is
// the load.
func (d *Driver) loadFunction(f C.CUfunction, handleCall string) (string, error) {
	if C.ll_has_func_load(d.c) == 0 {
		return handleCall, nil
	}
	var state C.int
	if err := d.check("cuFuncIsLoaded", C.ll_func_is_loaded(d.c, &state, f)); err != nil {
		return "", err
	}
	if state == 1 { // CU_FUNCTION_LOADING_STATE_LOADED
		return handleCall, nil
	}
	if err := d.check("cuFuncLoad", C.ll_func_load(d.c, f)); err != nil {
		return "", err
	}
	return "cuFuncLoad", nil
}

func (d *Driver) finish(rep *ModuleReport, start uint64, t0 time.Time) error {
	rep.TotalMS = float64(time.Since(t0).Nanoseconds()) / 1e6
	end, _, err := d.freeMemoryLocked()
	rep.TotalBytes = int64(start) - int64(end)
	return err
}

// Package driver talks to the CUDA driver (libcuda.so.1) through dlopen, so
// that lazylint builds and runs on machines without CUDA headers, a toolkit or
// a GPU: only the functions a probe needs are looked up, by the names the
// driver exports (the _v2 names that cuda.h maps the plain ones to).
package driver

/*
#cgo LDFLAGS: -ldl
#include "cudadl.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"
)

// DefaultLibrary is the name dlopen resolves through the usual search path.
const DefaultLibrary = "libcuda.so.1"

// LibraryEnv names the environment variable that overrides DefaultLibrary.
const LibraryEnv = "LAZYLINT_LIBCUDA"

// ErrNoDriver is wrapped by every error that means "no usable CUDA driver
// here": the library is missing, lacks an entry point, or cuInit fails.
var ErrNoDriver = errors.New("no usable CUDA driver")

// Result is a CUresult that is not CUDA_SUCCESS.
type Result struct {
	Call   string // the driver function that returned it
	Code   int
	Name   string // e.g. CUDA_ERROR_OUT_OF_MEMORY
	String string // the driver's description
}

func (r *Result) Error() string {
	if r.Name == "" {
		return fmt.Sprintf("%s: CUresult %d", r.Call, r.Code)
	}
	return fmt.Sprintf("%s: %s (%s)", r.Call, r.Name, r.String)
}

// Driver is an opened libcuda. Its methods are safe for one goroutine at a
// time; a Driver serializes them.
type Driver struct {
	mu   sync.Mutex
	c    *C.ll_cuda
	path string
}

// LibraryPath is the library Open uses when given "": $LAZYLINT_LIBCUDA, or
// DefaultLibrary.
func LibraryPath() string {
	if p := os.Getenv(LibraryEnv); p != "" {
		return p
	}
	return DefaultLibrary
}

// Open dlopens the driver library at path ("" for LibraryPath()).
func Open(path string) (*Driver, error) {
	if path == "" {
		path = LibraryPath()
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var cerr, missing *C.char
	c := C.ll_open(cpath, &cerr, &missing)
	if c == nil {
		if missing != nil {
			return nil, fmt.Errorf("%w: %s has no entry point %s (driver too old?)", ErrNoDriver, path, C.GoString(missing))
		}
		return nil, fmt.Errorf("%w: cannot load %s: %s", ErrNoDriver, path, C.GoString(cerr))
	}
	return &Driver{c: c, path: path}, nil
}

// Path is the library path the driver was opened from.
func (d *Driver) Path() string { return d.path }

// Close unloads the library.
func (d *Driver) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.c != nil {
		C.ll_close(d.c)
		d.c = nil
	}
}

// check turns a CUresult into an error naming the call.
func (d *Driver) check(call string, r C.CUresult) error {
	if r == 0 {
		return nil
	}
	return &Result{
		Call:   call,
		Code:   int(r),
		Name:   C.GoString(C.ll_error_name(d.c, r)),
		String: C.GoString(C.ll_error_string(d.c, r)),
	}
}

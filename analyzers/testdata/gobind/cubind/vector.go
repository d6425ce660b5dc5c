package cubind

/*
#cgo CFLAGS: -I${SRCDIR}/kernels

// Defined in kernels/vector.cu.
int vector_scale(float *v, float a, int n);
int device_count(void);
*/
import "C"

import "fmt"

// Scale multiplies n floats at p by a (kernels/vector.cu launches the
// kernel).
func Scale(p DevicePtr, a float32, n int) error {
	if C.vector_scale((*C.float)(unsafePointer(p)), C.float(a), C.int(n)) != 0 {
		return fmt.Errorf("scale failed")
	}
	return nil
}

// DeviceCount returns the number of devices (no kernel).
func DeviceCount() int { return int(C.device_count()) }

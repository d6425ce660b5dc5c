package ll002

/*
typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;
static cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **args, unsigned long smem, void *s) { return 0; }
static void relu_kernel(void) {}

// Defined in saxpy.cu (compiled by nvcc), declared here.
void launch_saxpy(int n, float a);

static void launch_relu(int n) {
	dim3 g = {1, 1, 1}, b = {256, 1, 1};
	void *args[] = {&n};
	cudaLaunchKernel((const void *)relu_kernel, g, b, args, 0, 0);
}

static int helper_not_launching(int x) { return x + 1; }
*/
import "C"

import (
	"fmt"
	"time"
)

func Cold(n int) time.Duration {
	start := time.Now()
	C.launch_saxpy(C.int(n), 2) // want `^LL002 the first launch of launch_saxpy in this function is timed`
	return time.Since(start)
}

func Warm(n int) time.Duration {
	C.launch_saxpy(C.int(n), 2) // ok: warm-up before the timer
	start := time.Now()
	C.launch_saxpy(C.int(n), 2) // ok: warmed up
	return time.Since(start)
}

func WarmupLoop(n int) time.Duration {
	for i := 0; i < 3; i++ {
		C.launch_relu(C.int(n)) // ok: warm-up loop
	}
	t0 := time.Now()
	for i := 0; i < 10; i++ {
		C.launch_relu(C.int(n)) // ok: warmed up by the loop
	}
	return time.Since(t0)
}

func TimedLoop(n int) {
	t0 := time.Now()
	for i := 0; i < 10; i++ {
		C.launch_relu(C.int(n)) // want `LL002 the first launch of launch_relu`
	}
	fmt.Println(time.Since(t0))
}

func NotALaunch(n int) time.Duration {
	start := time.Now()
	C.helper_not_launching(C.int(n)) // ok: the preamble function launches nothing
	return time.Since(start)
}

type bench struct{ n int }

func (b *bench) Cold() time.Duration {
	start := time.Now()
	C.launch_saxpy(C.int(b.n), 1) // want `LL002 the first launch of launch_saxpy`
	return time.Since(start)
}

func (b *bench) warm() { C.launch_saxpy(C.int(b.n), 1) }

func (b *bench) Warmed() time.Duration {
	C.launch_saxpy(C.int(b.n), 1) // ok: warm-up in the method itself
	start := time.Now()
	C.launch_saxpy(C.int(b.n), 1) // ok: warmed up
	return time.Since(start)
}

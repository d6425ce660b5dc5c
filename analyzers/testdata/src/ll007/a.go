package ll007

/*
#include <stdlib.h>
static int cudaFree(void *p) { return 0; }
static int cuInit(unsigned int f) { return 0; }
*/
import "C"

import (
	"os"
	sys "syscall"
)

const loadingVar = "CUDA_MODULE_LOADING"

func lateAfterRuntime() {
	C.cudaFree(nil)
	os.Setenv("CUDA_MODULE_LOADING", "EAGER") // want `^LL007 CUDA_MODULE_LOADING is set after CUDA was initialized`
}

func early() {
	os.Setenv("CUDA_MODULE_LOADING", "EAGER") // ok: before any CUDA call
	C.cuInit(0)
}

func lateWithConstant() {
	C.cuInit(0)
	sys.Setenv(loadingVar, "EAGER") // want `LL007 CUDA_MODULE_LOADING is set after`
}

func lateThroughC() {
	C.cuInit(0)
	C.setenv(C.CString("CUDA_MODULE_DATA_LOADING"), C.CString("EAGER"), 1) // want `CUDA_MODULE_DATA_LOADING is set after`
}

func initCUDA() { C.cuInit(0) }

func lateThroughHelper() {
	initCUDA()
	os.Setenv("CUDA_MODULE_LOADING", "LAZY") // want `after CUDA was initialized`
}

func badValue() {
	os.Setenv("CUDA_MODULE_LOADING", "eager")   // want `LL007 CUDA_MODULE_LOADING is set to "eager"`
	os.Setenv("CUDA_MODULE_LOADING", "DEFAULT") // ok: a known value
}

func putenvForm() {
	C.putenv(C.CString("CUDA_MODULE_LOADING=EGAER")) // want `"EGAER"`
}

func otherVariable() {
	C.cudaFree(nil)
	os.Setenv("CUDA_VISIBLE_DEVICES", "0") // ok: not a loading variable
}

func branchInit(gpu bool) {
	if gpu {
		C.cuInit(0)
	}
	os.Setenv("CUDA_MODULE_LOADING", "EAGER") // ok: CUDA is not initialized on every path
}

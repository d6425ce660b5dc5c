package ll006

/*
typedef int CUresult;
typedef int CUmoduleLoadingMode;
static CUresult cuInit(unsigned int flags) { return 0; }
static CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode) { *mode = 1; return 0; }
static int cudaFree(void *p) { return 0; }
*/
import "C"

func queryFirst() C.CUmoduleLoadingMode {
	var mode C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&mode) // want `^LL006 cuModuleGetLoadingMode before cuInit`
	return mode
}

func initFirst() C.CUmoduleLoadingMode {
	C.cuInit(0)
	var mode C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&mode) // ok: cuInit ran first
	return mode
}

func runtimeFirst() C.CUmoduleLoadingMode {
	C.cudaFree(nil)
	var mode C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&mode) // ok: a runtime call initialized CUDA
	return mode
}

func initInBranch(gpu bool) C.CUmoduleLoadingMode {
	if gpu {
		C.cuInit(0)
	}
	var mode C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&mode) // want `LL006`
	return mode
}

func initDriver() { C.cuInit(0) }

type loader struct{ mode C.CUmoduleLoadingMode }

func (l *loader) setup() { initDriver() }

func throughHelpers(l *loader) {
	l.setup()
	C.cuModuleGetLoadingMode(&l.mode) // ok: setup calls initDriver, which calls cuInit
}

func inClosure() {
	f := func() {
		var mode C.CUmoduleLoadingMode
		C.cuModuleGetLoadingMode(&mode) // want `LL006`
	}
	f()
}

func checked() bool {
	var mode C.CUmoduleLoadingMode
	if C.cuModuleGetLoadingMode(&mode) != 0 { // want `LL006`
		return false
	}
	return mode == 1
}

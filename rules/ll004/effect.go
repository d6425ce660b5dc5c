package ll004

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// What running a piece of code does, as far as a measurement of device
// memory or time around a module load can tell.

// effect is what running some code does.
type effect struct {
	// loads are module loads that no kernel resolution follows in the same
	// code.
	loads []loadSite
	// resolves: the code resolves or launches a kernel.
	resolves bool
	// memoryWork: the code changes free device memory in another way
	// (allocations, contexts, library handles).
	memoryWork bool
	// timeWork: the code takes time in another way (copies, compilation,
	// library work, sleeps).
	timeWork bool
	// unknownWork: the code calls functions defined elsewhere that may do
	// either.
	unknownWork bool
	// readsMemory and readsClock: the code queries free memory or reads a
	// host clock (a helper such as `size_t free_bytes()` or `double now_ms()`).
	readsMemory, readsClock bool
	// usesData: the code reaches into a module's variables
	// (cuModuleGetGlobal): it loads the module for its data, not its kernels.
	usesData bool
}

// loadSite is a module load, and the call of the measured code that runs it
// when that is not the load itself: a helper, a lambda, a constructor.
type loadSite struct {
	load    *cudaparse.Call
	via     cudaparse.Node
	viaName string
}

// add merges what x does into e, in order: loads of e that x resolves are
// no longer pending.
func (e *effect) add(x effect) {
	if x.resolves {
		e.loads = nil
		e.resolves = true
	}
	e.loads = append(e.loads, x.loads...)
	e.memoryWork = e.memoryWork || x.memoryWork
	e.timeWork = e.timeWork || x.timeWork
	e.unknownWork = e.unknownWork || x.unknownWork
	e.readsMemory = e.readsMemory || x.readsMemory
	e.readsClock = e.readsClock || x.readsClock
	e.usesData = e.usesData || x.usesData
}

// through returns x run by the call (or construction) at via, named name.
func (e effect) through(via cudaparse.Node, name string) effect {
	loads := make([]loadSite, len(e.loads))
	for i, l := range e.loads {
		loads[i] = loadSite{load: l.load, via: via, viaName: name}
	}
	e.loads = loads
	return e
}

// changesDeviceMemory reports whether a CUDA call takes or gives back
// device memory, or loads runtime kernels.
func changesDeviceMemory(name string) bool {
	switch {
	case strings.HasPrefix(name, "cudaMalloc") && !strings.HasPrefix(name, "cudaMallocHost"),
		strings.HasPrefix(name, "cuMemAlloc") && !strings.HasPrefix(name, "cuMemAllocHost"),
		strings.HasPrefix(name, "cudaFree") && name != "cudaFreeHost",
		strings.HasPrefix(name, "cuMemFree") && !strings.HasPrefix(name, "cuMemFreeHost"),
		strings.HasPrefix(name, "cuMemCreate"), strings.HasPrefix(name, "cuMemMap"), strings.HasPrefix(name, "cuMemRelease"),
		strings.HasPrefix(name, "cuMemPoolCreate"), strings.HasPrefix(name, "cudaMemPoolCreate"),
		strings.HasPrefix(name, "cuCtxCreate"), strings.HasPrefix(name, "cuCtxDestroy"),
		strings.HasPrefix(name, "cuDevicePrimaryCtx"),
		strings.HasPrefix(name, "cuGraphInstantiate"), strings.HasPrefix(name, "cudaGraphInstantiate"),
		cudaparse.LibraryInitializer.MatchString(name):
		return true
	}
	switch name {
	case "cuInit", "cudaSetDevice", "cudaInitDevice", "cudaDeviceReset", "cudaDeviceSetLimit", "cuCtxSetLimit",
		// These load runtime kernels.
		"cudaFuncGetAttributes", "cudaFuncSetAttribute":
		return true
	}
	return false
}

// timeWorkPrefixes name calls that take time of their own: copies,
// compilation, the work of CUDA libraries, graph launches.
var timeWorkPrefixes = []string{
	"cudaMemcpy", "cuMemcpy", "cudaMemset", "cuMemset", "cudaMemPrefetch", "cuMemPrefetch",
	"nvrtc", "nvJitLink", "cuLinkAdd", "cuLinkComplete",
	"cublas", "cudnn", "cufft", "curand", "cusparse", "cusolver", "cutensor", "nccl", "nvjpeg",
	"cudaGraphLaunch", "cuGraphLaunch",
}

func takesTime(name string) bool {
	for _, p := range timeWorkPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	switch name {
	case "sleep", "usleep", "nanosleep", "Sleep", "sleep_for", "sleep_until":
		return true
	}
	return false
}

// cheapCall matches calls of the C and C++ libraries that neither touch
// the device nor take long: strings, containers, file reading, logging.
var cheapCall = regexp.MustCompile(`^(printf|fprintf|sprintf|snprintf|vprintf|vfprintf|puts|fputs|putchar|perror|fflush|assert|abort|exit|_exit|` +
	`strerror|strlen|strcmp|strncmp|strcpy|strncpy|strcat|strdup|memcpy|memmove|memset|memcmp|malloc|calloc|realloc|free|` +
	`fopen|fclose|fread|fwrite|fseek|ftell|rewind|feof|ferror|fgets|open|close|read|write|stat|fstat|mmap|munmap|` +
	`seekg|tellg|getline|rdbuf|is_open|good|fail|c_str|data|size|length|empty|begin|end|cbegin|cend|push_back|emplace_back|` +
	`reserve|resize|clear|insert|emplace|find|count|at|str|substr|append|to_string|move|forward|get|reset|release|` +
	`make_pair|make_tuple|tie|swap|min|max|lock|unlock|what|format|duration_cast|time_since_epoch|now|string|` +
	`runtime_error|logic_error|invalid_argument|cuGetErrorString|cuGetErrorName|cudaGetErrorString|cudaGetErrorName)$`)

// loggingCall matches logging functions: log_info, LogDebug, fmt::print,
// spdlog::warn, report_error.
var loggingCall = regexp.MustCompile(`(?i)^(log|print|debug|trace|info|warn|error|fatal|verbose|report)|(log|print|printf)$`)

// macroName matches names written like macros: CU_CHECK, CHECK_CUDA, LOG.
var macroName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// isNeutral reports whether a call of a function the file does not define
// is known not to matter to a measurement: CUDA API calls not listed as
// work (getters, error strings, synchronization), error-check wrappers,
// macros, logging and the standard library's cheap calls.
func isNeutral(name string) bool {
	return cudaparse.IsDriverAPI(name) || cudaparse.IsRuntimeAPI(name) ||
		strings.HasPrefix(name, "nvml") || cudaparse.CheckWrapper.MatchString(name) ||
		macroName.MatchString(name) || cheapCall.MatchString(name) || loggingCall.MatchString(name)
}

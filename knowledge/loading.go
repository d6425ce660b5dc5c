package knowledge

// LoadingVariables are the environment variables that choose how CUDA
// loads modules; CUDA reads them once, when it initializes.
var LoadingVariables = map[string]bool{"CUDA_MODULE_LOADING": true, "CUDA_MODULE_DATA_LOADING": true}

// LoadingModes are the values CUDA accepts for LoadingVariables (in upper
// case; another value is ignored).
var LoadingModes = map[string]bool{"LAZY": true, "EAGER": true, "DEFAULT": true}

// ContextCreators create or retain a context: they can only succeed once
// the driver is initialized.
var ContextCreators = map[string]bool{
	"cuDevicePrimaryCtxRetain": true,
	"cuCtxCreate":              true, "cuCtxCreate_v2": true, "cuCtxCreate_v3": true, "cuCtxCreate_v4": true,
}

// ContextSetters make an existing context current.
var ContextSetters = map[string]bool{"cuCtxSetCurrent": true, "cuCtxPushCurrent": true, "cuCtxPushCurrent_v2": true}

// IsDeviceSwitch reports whether a call makes another device or context
// current.
func IsDeviceSwitch(name string) bool {
	return name == "cudaSetDevice" || ContextCreators[name] || ContextSetters[name]
}

// ReportingAPIs are CUDA calls that work without initializing CUDA: they
// report on the library or an error code.
var ReportingAPIs = map[string]bool{
	"cudaGetErrorString": true, "cudaGetErrorName": true, "cudaGetLastError": true, "cudaPeekAtLastError": true,
	"cudaDriverGetVersion": true, "cudaRuntimeGetVersion": true,
	"cuGetErrorString": true, "cuGetErrorName": true, "cuDriverGetVersion": true,
	"cuGetProcAddress": true, "cuGetProcAddress_v2": true,
}

// HostLibraryCalls are functions of the C library (and POSIX) that a
// program's main calls before it touches CUDA, none of which can: reading
// arguments and input, printing, allocating host memory. A timer started
// after only these holds the creation of the CUDA context (LL002).
var HostLibraryCalls = map[string]bool{
	"printf": true, "fprintf": true, "sprintf": true, "snprintf": true, "puts": true, "fputs": true, "putchar": true,
	"scanf": true, "sscanf": true, "fscanf": true, "fgets": true, "fread": true, "fwrite": true, "fflush": true,
	"fopen": true, "fclose": true, "fseek": true, "ftell": true, "rewind": true, "perror": true,
	"atoi": true, "atol": true, "atof": true, "strtol": true, "strtoul": true, "strtod": true, "strtof": true,
	"strcmp": true, "strncmp": true, "strcpy": true, "strncpy": true, "strcat": true, "strlen": true, "strstr": true, "strchr": true, "strdup": true,
	"memset": true, "memcpy": true, "memmove": true, "malloc": true, "calloc": true, "realloc": true, "free": true,
	"exit": true, "abort": true, "srand": true, "rand": true, "srand48": true, "drand48": true, "getopt": true, "getopt_long": true,
	"getenv": true, "setenv": true, "assert": true, "time": true, "clock": true, "gettimeofday": true, "clock_gettime": true,
	"sleep": true, "usleep": true,
}

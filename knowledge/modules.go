package knowledge

import "strings"

// ContextModuleLoads load a module image into the current context. Under
// lazy loading none of them loads a kernel: the kernels load at their first
// launch or when a CUfunction is asked for (HandleAPIs).
var ContextModuleLoads = map[string]bool{
	"cuModuleLoad": true, "cuModuleLoadData": true, "cuModuleLoadDataEx": true, "cuModuleLoadFatBinary": true,
}

// LibraryLoads load a library image independent of contexts (CUDA 12.0):
// once for every context, which is LL005's fix. They load no kernel either.
var LibraryLoads = map[string]bool{"cuLibraryLoadData": true, "cuLibraryLoadFromFile": true}

// IsModuleLoad reports whether a call loads a module or a library image.
func IsModuleLoad(name string) bool { return ContextModuleLoads[name] || LibraryLoads[name] }

// IsModuleLoadName reports whether a call's name is that of a module or
// library load: one of ModuleLoadPrefixes.
func IsModuleLoadName(name string) bool {
	for _, p := range ModuleLoadPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// ModuleLoadPrefixes are the prefixes of every module or library load of
// the runtime and driver APIs, including ones not in the lists above
// (cudaLibraryLoadData, future variants).
var ModuleLoadPrefixes = []string{"cuModuleLoad", "cuLibraryLoad", "cudaLibraryLoad"}

// ModuleDataAccessors reach a module's or library's variables: they load
// the module for its data, not its kernels.
var ModuleDataAccessors = map[string]bool{
	"cuModuleGetGlobal": true, "cuModuleGetGlobal_v2": true, "cuLibraryGetGlobal": true, "cuLibraryGetManaged": true,
	"cuModuleGetTexRef": true, "cuModuleGetSurfRef": true,
}

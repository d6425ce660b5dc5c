package analyzers

// seeds are the facts of well-known binding packages, used when the
// package itself was not analyzed: lazylint check of a project whose
// binding lives in the module cache, not in the tree. go vet and
// golangci-lint analyze the binding from source, so a seed never replaces
// a fact computed from the code.
//
// gorgonia.org/cu (the binding gorgonia uses) is what Bindings computes
// from its source at 3cd40db (2024): its exported functions and methods
// that call CUDA, with the methods of other types that share their names
// (a method of a value of unknown type is matched by its name only when
// the name is unique). Methods that only touch CUDA (for LL007) are left
// out unless they share such a name; exported functions are all there.
var seeds = map[string]*BindingFact{
	"gorgonia.org/cu": {Name: "cu", Funcs: []Func{
		{"AllocAndCopy", touch(2, "DevicePtr", "")},
		{"BatchedContext.LaunchKernel", Effects{Params: 10}},
		{"BatchedContext.MemAlloc", Effects{Results: []string{"DevicePtr", ""}, Params: 1}},
		{"BatchedContext.MemAllocManaged", Effects{Results: []string{"DevicePtr", ""}, Params: 2}},
		{"BatchedContext.Run", touch(1)},
		{"CUContext.Lock", Effects{API: "cuCtxSetCurrent", Switch: true, Switched: Recv, Touch: true, Params: 0}},
		{"Ctx.FunctionAttribute", Effects{API: "cuFuncGetAttribute", Preload: true, Touch: true, Params: 2}},
		{"Ctx.LaunchKernel", Effects{API: "cuLaunchKernel", Launch: Param(0), Touch: true, Params: 10}},
		{"Ctx.Load", Effects{API: "cuModuleLoad", Load: 1, Image: Param(0), LoadAPI: "cuModuleLoad", Touch: true, Results: []string{"Module", ""}, Params: 1}},
		{"Ctx.MemAlloc", Effects{API: "cuMemAlloc", Alloc: Param(0), AllocAPI: "cuMemAlloc", Touch: true, Results: []string{"DevicePtr", ""}, Params: 1}},
		{"Ctx.MemAllocManaged", Effects{API: "cuMemAllocManaged", Alloc: Param(0), AllocAPI: "cuMemAllocManaged", Touch: true, Results: []string{"DevicePtr", ""}, Params: 2}},
		{"Ctx.MemInfo", Effects{API: "cuMemGetInfo", Memory: []Share{{Slot: Result(0), Total: false, Frac: 1, Minus: 0, API: "cuMemGetInfo"}, {Slot: Result(1), Total: true, Frac: 1, Minus: 0, API: "cuMemGetInfo"}}, Touch: true, Params: 0}},
		{"Ctx.ModuleFunction", Effects{API: "cuModuleGetFunction", Lookup: 1, Handle: Result(0), LookupAPI: "cuModuleGetFunction", Touch: true, Results: []string{"Function", ""}, Params: 2}},
		{"Ctx.Record", Effects{API: "cuEventRecord", Touch: true, Clock: true, Params: 2}},
		{"Ctx.Run", Effects{API: "cuCtxSetCurrent", Switch: true, Switched: Recv, Touch: true, Params: 1}},
		{"Ctx.SetCacheConfig", Effects{API: "cuFuncSetCacheConfig", Preload: true, Touch: true, Params: 2}},
		{"Ctx.Unload", Effects{API: "cuModuleUnload", Touch: true, Unload: true, Params: 1}},
		{"CurrentCacheConfig", touch(0, "FuncCacheConfig", "")},
		{"CurrentContext", touch(0, "CUContext", "")},
		{"CurrentDevice", touch(0, "Device", "")},
		{"CurrentFlags", touch(0, "ContextFlags", "")},
		{"DestroyEvent", touch(1)},
		{"Device.Attribute", touch(1)},
		{"Device.MakeContext", Effects{API: "cuCtxCreate", Switch: true, Switched: Recv, Init: true, Touch: true, Results: []string{"CUContext", ""}, Params: 1}},
		{"Device.RetainPrimaryCtx", Effects{API: "cuDevicePrimaryCtxRetain", Switch: true, Switched: Recv, Init: true, Touch: true, Results: []string{"CUContext", ""}, Params: 0}},
		{"Event.Record", Effects{API: "cuEventRecord", Touch: true, Clock: true, Params: 1}},
		{"Function.Attribute", Effects{API: "cuFuncGetAttribute", Preload: true, Touch: true, Params: 1}},
		{"Function.Launch", Effects{API: "cuLaunchKernel", Launch: Recv, Touch: true, Params: 9}},
		{"Function.MaxActiveBlocksPerMultiProcessor", Effects{API: "cuOccupancyMaxActiveBlocksPerMultiprocessor", Preload: true, Touch: true, Params: 2}},
		{"Function.SetCacheConfig", Effects{API: "cuFuncSetCacheConfig", Preload: true, Touch: true, Params: 1}},
		{"GetDevice", touch(1, "Device", "")},
		{"Limits", touch(1)},
		{"Load", Effects{API: "cuModuleLoad", Load: 1, Image: Param(0), LoadAPI: "cuModuleLoad", Touch: true, Results: []string{"Module", ""}, Params: 1}},
		{"LoadData", Effects{API: "cuModuleLoadData", Load: 1, Image: Param(0), LoadAPI: "cuModuleLoadData", Touch: true, Results: []string{"Module", ""}, Params: 1}},
		{"LoadDataEx", Effects{API: "cuModuleLoadDataEx", Load: 1, Image: Param(0), LoadAPI: "cuModuleLoadDataEx", Touch: true, Variadic: true, Results: []string{"Module", ""}, Params: 2}},
		{"LoadFatBinary", Effects{API: "cuModuleLoadFatBinary", Load: 1, Image: Param(0), LoadAPI: "cuModuleLoadFatBinary", Touch: true, Results: []string{"Module", ""}, Params: 1}},
		{"Make3DArray", touch(1, "Array", "")},
		{"MakeArray", touch(1, "Array", "")},
		{"MakeEvent", touch(1, "Event", "")},
		{"MakeGraph", touch(0, "Graph", "")},
		{"MakeStream", touch(1, "Stream", "")},
		{"MakeStreamWithPriority", touch(2, "Stream", "")},
		{"MemAlloc", Effects{API: "cuMemAlloc", Alloc: Param(0), AllocAPI: "cuMemAlloc", Touch: true, Results: []string{"DevicePtr", ""}, Params: 1}},
		{"MemAllocManaged", Effects{API: "cuMemAllocManaged", Alloc: Param(0), AllocAPI: "cuMemAllocManaged", Touch: true, Results: []string{"DevicePtr", ""}, Params: 2}},
		{"MemAllocPitch", touch(3, "DevicePtr", "", "")},
		{"MemFree", touch(1)},
		{"MemFreeHost", touch(1)},
		{"MemInfo", Effects{API: "cuMemGetInfo", Memory: []Share{{Slot: Result(0), Total: false, Frac: 1, Minus: 0, API: "cuMemGetInfo"}, {Slot: Result(1), Total: true, Frac: 1, Minus: 0, API: "cuMemGetInfo"}}, Touch: true, Params: 0}},
		{"Memcpy", touch(3)},
		{"Memcpy2D", touch(1)},
		{"Memcpy2DAsync", touch(2)},
		{"Memcpy2DUnaligned", touch(1)},
		{"Memcpy3D", touch(1)},
		{"Memcpy3DAsync", touch(2)},
		{"Memcpy3DPeer", touch(1)},
		{"Memcpy3DPeerAsync", touch(2)},
		{"MemcpyAsync", touch(4)},
		{"MemcpyAtoA", touch(5)},
		{"MemcpyAtoD", touch(4)},
		{"MemcpyAtoH", touch(4)},
		{"MemcpyAtoHAsync", touch(5)},
		{"MemcpyDtoA", touch(4)},
		{"MemcpyDtoD", touch(3)},
		{"MemcpyDtoDAsync", touch(4)},
		{"MemcpyDtoH", touch(3)},
		{"MemcpyDtoHAsync", touch(4)},
		{"MemcpyHtoA", touch(4)},
		{"MemcpyHtoAAsync", touch(5)},
		{"MemcpyHtoD", touch(3)},
		{"MemcpyHtoDAsync", touch(4)},
		{"MemcpyPeer", touch(5)},
		{"MemcpyPeerAsync", touch(6)},
		{"MemsetD16", touch(3)},
		{"MemsetD16Async", touch(4)},
		{"MemsetD2D16", touch(5)},
		{"MemsetD2D16Async", touch(6)},
		{"MemsetD2D32", touch(5)},
		{"MemsetD2D32Async", touch(6)},
		{"MemsetD2D8", touch(5)},
		{"MemsetD2D8Async", touch(6)},
		{"MemsetD32", touch(3)},
		{"MemsetD32Async", touch(4)},
		{"MemsetD8", touch(3)},
		{"MemsetD8Async", touch(4)},
		{"Module.Function", Effects{API: "cuModuleGetFunction", Lookup: 1, Handle: Result(0), LookupAPI: "cuModuleGetFunction", Touch: true, Results: []string{"Function", ""}, Params: 1}},
		{"Module.Unload", Effects{API: "cuModuleUnload", Touch: true, Unload: true, Params: 0}},
		{"NewContext", Effects{API: "cuCtxCreate", Switch: true, Switched: Param(0), Init: true, Touch: true, Results: []string{"Ctx"}, Params: 2}},
		{"NewLink", touchV(1, "LinkState", "")},
		{"NewManuallyManagedContext", Effects{API: "cuCtxCreate", Switch: true, Switched: Param(0), Init: true, Touch: true, Results: []string{"Ctx"}, Params: 2}},
		{"NumDevices", touch(0)},
		{"PopCurrentCtx", touch(0, "CUContext", "")},
		{"PushCurrentCtx", Effects{API: "cuCtxPushCurrent", Switch: true, Switched: Param(0), Touch: true, Params: 1}},
		{"SetCurrentCacheConfig", touch(1)},
		{"SetCurrentContext", Effects{API: "cuCtxSetCurrent", Switch: true, Switched: Param(0), Touch: true, Params: 1}},
		{"SetLimit", touch(2)},
		{"SetSharedMemConfig", touch(1)},
		{"SharedMemConfig", touch(0, "SharedConfig", "")},
		{"StreamPriorityRange", touch(0)},
		{"Synchronize", touch(0)},
		{"Version", touch(0)},
	}},
}

// The seeds' indexes are built once, before any pass reads them from
// several goroutines.
func init() {
	for _, f := range seeds {
		f.table()
	}
}

// touch is the effects of a function that only calls CUDA (for LL007),
// with its parameter count and the package's types it returns.
func touch(params int, results ...string) Effects {
	return Effects{Touch: true, Params: params, Results: results}
}

// touchV is touch for a variadic function.
func touchV(params int, results ...string) Effects {
	e := touch(params, results...)
	e.Variadic = true
	return e
}

// KnownBinding reports whether the analyzers know the package at an import
// path without its source (a seed): drivers that choose which packages to
// analyze analyze its importers.
func KnownBinding(path string) bool {
	_, ok := seeds[path]
	return ok
}

package analyzers

import (
	"fmt"
	"go/ast"
	"slices"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// Effects is what calling one function does, as far as the rules care: the
// CUDA calls it makes, directly through cgo or through other functions, in
// terms of its own parameters and results. A binding package's functions
// get their Effects from their bodies; its callers, in any package, are
// judged by them (BindingFact carries them across packages).
//
// Values are named by slots: Recv, Param(i) and Result(i) (see slot).
type Effects struct {
	// API is the CUDA function at the bottom, for messages (cuMemAlloc).
	API string `json:",omitempty"`
	// Memory lists the values that report device memory: a result, or a
	// parameter the function writes through (cuMemGetInfo(&free, &total)).
	Memory []Share `json:",omitempty"`
	// Alloc is the parameter that sizes a device allocation, made by
	// AllocAPI.
	Alloc    int    `json:",omitempty"`
	AllocAPI string `json:",omitempty"`
	// Load is LoadModule or LoadLibrary, made by LoadAPI; Image the
	// parameter holding the image or path (0: fixed inside the function).
	Load, Image int    `json:",omitempty"`
	LoadAPI     string `json:",omitempty"`
	// Lookup is LookupLoads (cuModuleGetFunction: the kernel is resident
	// afterwards) or LookupCold (cuLibraryGetKernel: it loads at its first
	// launch); Handle is where the kernel handle goes (a result, an
	// out-parameter or the receiver); LookupAPI is the CUDA call.
	Lookup, Handle int    `json:",omitempty"`
	LookupAPI      string `json:",omitempty"`
	// Launch is the slot of a kernel handle the function launches.
	Launch int `json:",omitempty"`
	// Kernels are kernels of its own the function launches, each loading at
	// its first launch (a C function of the preamble that launches, a
	// handle it looked up itself): qualified names, so that a warm-up
	// through another wrapper of the same kernel counts.
	Kernels []string `json:",omitempty"`
	// Preload: the function loads a kernel without launching it.
	Preload bool `json:",omitempty"`
	// Switch: the function makes another context or device current, chosen
	// by the slot Switched (0: not one of its parameters).
	Switch   bool `json:",omitempty"`
	Switched int  `json:",omitempty"`
	// Init: it initializes CUDA; Touch: it calls CUDA at all; ModeQuery: it
	// asks for the loading mode before any initialization of its own.
	Init, Touch, ModeQuery bool `json:",omitempty"`
	// Unload: it unloads a module.
	Unload bool `json:",omitempty"`
	// Clock: calling it reads a clock (an event record, a time.Now wrapper).
	Clock bool `json:",omitempty"`
	// Results are the named types of the results declared in the same
	// package ("Module"), for callers that infer a variable's type.
	Results []string `json:",omitempty"`
	// Params is the number of parameters (without the receiver), to match
	// a method whose receiver type is unknown by its name and arity.
	Params   int  `json:",omitempty"`
	Variadic bool `json:",omitempty"`
}

// Share is device memory a slot reports: Frac of the free (or total)
// memory minus Minus bytes.
type Share struct {
	Slot        int
	Total       bool    `json:",omitempty"`
	Frac, Minus float64 `json:",omitempty"`
	API         string  `json:",omitempty"`
}

// The kinds of module loads and kernel lookups.
const (
	LoadModule  = 1 // into the current context only
	LoadLibrary = 2 // context-independent (CUDA 12.0)
	LookupLoads = 1
	LookupCold  = 2
)

// Slots name a value at a call. The zero slot is none.
const Recv = -1

// Param is the slot of parameter i (from 0, without the receiver).
func Param(i int) int { return i + 1 }

// Result is the slot of result i (from 0).
func Result(i int) int { return -(i + 2) }

func isParam(s int) bool  { return s > 0 }
func isResult(s int) bool { return s <= -2 }
func paramIndex(s int) int {
	return s - 1
}
func resultIndex(s int) int { return -s - 2 }

// cuda reports whether the effects say anything.
func (e *Effects) cuda() bool {
	return e != nil && (e.API != "" || len(e.Memory) > 0 || e.Alloc != 0 || e.Load != 0 || e.Lookup != 0 || e.Launch != 0 ||
		len(e.Kernels) > 0 || e.Preload || e.Switch || e.Init || e.Touch || e.ModeQuery || e.Unload || e.Clock)
}

// launches reports whether a call of the function launches a kernel.
func (e *Effects) launches() bool { return e != nil && (e.Launch != 0 || len(e.Kernels) > 0) }

// resolves reports whether after a call of the function a kernel is
// resident: it launches one, preloads one or looks one up with a lookup
// that loads.
func (e *Effects) resolves() bool {
	return e != nil && (e.launches() || e.Preload || e.Lookup == LookupLoads)
}

// String renders the effects for facts' tests and debugging.
func (e *Effects) String() string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	for _, m := range e.Memory {
		what := "free"
		if m.Total {
			what = "total"
		}
		add("%s=%s", slotString(m.Slot), what)
	}
	if e.Alloc != 0 {
		add("alloc(%s)", slotString(e.Alloc))
	}
	switch e.Load {
	case LoadModule:
		add("load(%s)", slotString(e.Image))
	case LoadLibrary:
		add("library(%s)", slotString(e.Image))
	}
	switch e.Lookup {
	case LookupLoads:
		add("lookup->%s", slotString(e.Handle))
	case LookupCold:
		add("coldlookup->%s", slotString(e.Handle))
	}
	if e.Launch != 0 {
		add("launch(%s)", slotString(e.Launch))
	}
	for _, k := range e.Kernels {
		add("kernel(%s)", k)
	}
	if e.Switch {
		add("switch(%s)", slotString(e.Switched))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{e.Preload, "preload"}, {e.Init, "init"}, {e.ModeQuery, "modequery"}, {e.Unload, "unload"}, {e.Clock, "clock"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	return strings.Join(parts, " ")
}

func slotString(s int) string {
	switch {
	case s == Recv:
		return "recv"
	case isParam(s):
		return fmt.Sprintf("p%d", paramIndex(s))
	case isResult(s):
		return fmt.Sprintf("r%d", resultIndex(s))
	}
	return "-"
}

// merge adds the effects of one call to e (the first of each kind wins
// where only one is kept).
func (e *Effects) merge(o Effects) {
	if e.API == "" {
		e.API = o.API
	}
	for _, m := range o.Memory {
		if !slices.ContainsFunc(e.Memory, func(x Share) bool { return x.Slot == m.Slot }) {
			e.Memory = append(e.Memory, m)
		}
	}
	if e.Alloc == 0 && o.Alloc != 0 {
		e.Alloc, e.AllocAPI = o.Alloc, o.AllocAPI
	}
	// Of several loads, lookups or switches, the one whose image, handle or
	// context is a slot of the function's (the one its callers can see)
	// is kept; a library load before a module load.
	if o.Load != 0 && (e.Load == 0 || o.Load == LoadLibrary && e.Load != LoadLibrary || e.Image == 0 && o.Image != 0 && o.Load == e.Load) {
		e.Load, e.Image, e.LoadAPI = o.Load, o.Image, o.LoadAPI
	}
	if o.Lookup != 0 && (e.Lookup == 0 || e.Handle == 0 && o.Handle != 0) {
		e.Lookup, e.Handle, e.LookupAPI = o.Lookup, o.Handle, o.LookupAPI
	}
	e.Launch = firstSlot(e.Launch, o.Launch)
	for _, k := range o.Kernels {
		if !slices.Contains(e.Kernels, k) {
			e.Kernels = append(e.Kernels, k)
		}
	}
	sort.Strings(e.Kernels)
	if o.Switch && (!e.Switch || e.Switched == 0) {
		e.Switch, e.Switched = true, firstSlot(o.Switched, e.Switched)
	}
	e.Preload = e.Preload || o.Preload
	e.Init = e.Init || o.Init
	e.Touch = e.Touch || o.Touch
	e.ModeQuery = e.ModeQuery || o.ModeQuery
	e.Unload = e.Unload || o.Unload
	e.Clock = e.Clock || o.Clock
}

func firstSlot(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

// coldLookups return a kernel handle that is not loaded yet, through the
// argument given: cuLibraryGetKernel (measured: a CUkernel loads at its
// first launch; knowledge.KernelResolvers leaves it out for that reason).
var coldLookups = map[string]int{"cuLibraryGetKernel": 0}

// switchArgs give the argument that chooses the context or device of the
// calls that make one current (knowledge.IsDeviceSwitch).
var switchArgs = map[string]int{
	"cudaSetDevice": 0, "cuCtxSetCurrent": 0, "cuCtxPushCurrent": 0, "cuCtxPushCurrent_v2": 0,
	"cuCtxCreate": 2, "cuCtxCreate_v2": 2, "cuCtxCreate_v3": 4, "cuCtxCreate_v4": 3, "cuDevicePrimaryCtxRetain": 1,
}

// eventRecords read the GPU's clock.
var eventRecords = map[string]bool{"cudaEventRecord": true, "cuEventRecord": true, "cudaEventRecordWithFlags": true, "cuEventRecordWithFlags": true}

// cEffects returns what a call of the C function name does; launcher is
// true for the preamble's functions that launch kernels, qualified the
// kernel key to use for them.
func cEffects(name string, launcher bool, qualified string) Effects {
	var e Effects
	if strings.HasSuffix(name, "_t") {
		return e // a conversion to a C type (C.cudaStream_t(s)), not a call
	}
	if knowledge.DeviceMemoryQueries[name] {
		e.Memory = []Share{{Slot: Param(0), Frac: 1, API: name}, {Slot: Param(1), Total: true, Frac: 1, API: name}}
	}
	if k, ok := goAllocators[name]; ok {
		e.Alloc = Param(k)
	}
	switch {
	case knowledge.ContextModuleLoads[name]:
		e.Load, e.Image = LoadModule, Param(1)
	case knowledge.LibraryLoads[name]:
		e.Load, e.Image = LoadLibrary, Param(1)
	}
	if knowledge.HandleAPIs[name] {
		e.Lookup, e.Handle = LookupLoads, Param(0)
	}
	if k, ok := coldLookups[name]; ok {
		e.Lookup, e.Handle = LookupCold, Param(k)
	}
	if k := knowledge.LaunchAPIs[name]; knowledge.DriverLaunch(name) {
		e.Launch = Param(k) // a driver launch of a CUfunction or CUkernel handle
	}
	if launcher {
		e.Kernels = []string{qualified}
	}
	if isPreload(name) || knowledge.KernelResolvers[name] && !knowledge.HandleAPIs[name] {
		e.Preload = true
	}
	if knowledge.IsDeviceSwitch(name) {
		e.Switch = true
		if k, ok := switchArgs[name]; ok {
			e.Switched = Param(k)
		}
	}
	e.Init = initializesCUDA(name)
	e.Touch = touchesCUDA(name)
	e.ModeQuery = name == "cuModuleGetLoadingMode"
	e.Unload = name == "cuModuleUnload" || name == "cuLibraryUnload"
	e.Clock = eventRecords[name]
	if e.cuda() {
		e.API = name
	}
	if e.Alloc != 0 {
		e.AllocAPI = name
	}
	if e.Load != 0 {
		e.LoadAPI = name
	}
	if e.Lookup != 0 {
		e.LookupAPI = name
	}
	return e
}

// runtimeLaunch reports whether a C call is a runtime launch API, which
// names its kernel by symbol (cudaLaunchKernel(k, ...)): the kernel loads
// at its first launch.
func runtimeLaunch(name string) (int, bool) {
	k, ok := knowledge.LaunchAPIs[name]
	return k, ok && strings.HasPrefix(name, "cuda")
}

// rootIdent returns the variable an expression reads or writes through:
// x for x, &x, x.f.g, x[i], *x, (x), T(x) conversions of one argument,
// and accessors without arguments (x.c(), x.f.Handle()).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.UnaryExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.CallExpr:
			switch fun, isSel := x.Fun.(*ast.SelectorExpr); {
			case len(x.Args) == 1:
				e = x.Args[0] // a conversion: C.size_t(n), unsafe.Pointer(p), C.CString(s)
			case len(x.Args) == 0 && isSel:
				e = fun.X // an accessor: ctx.c(), e.c.Context.CUDAContext()
			default:
				return nil
			}
		default:
			return nil
		}
	}
}

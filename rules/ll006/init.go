package ll006

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// What initializes CUDA: cuInit, the calls that need it and make it happen
// (runtime API calls initialize the driver on first use; creating a context
// needs an initialized driver), functions of the file that do so, and
// objects whose constructors do.

// driverInitializers initialize the driver, or can only succeed once it is.
var driverInitializers = map[string]bool{
	"cuInit":                   true,
	"cuDevicePrimaryCtxRetain": true,
	"cuCtxCreate":              true,
	"cuCtxCreate_v2":           true,
	"cuCtxCreate_v3":           true,
	"cuCtxCreate_v4":           true,
	// A context to make current exists only after cuInit.
	"cuCtxSetCurrent":     true,
	"cuCtxPushCurrent":    true,
	"cuCtxPushCurrent_v2": true,
}

// runtimeAPI matches CUDA runtime API names: cudaFree, cudaSetDevice,
// cudaGetDeviceProperties_v2. Every runtime call initializes CUDA, except
// the few below that only report on the library itself.
var runtimeAPI = regexp.MustCompile(`^cuda[A-Z][A-Za-z0-9]*(_v[0-9]+)?$`)

var runtimeNonInitializing = map[string]bool{
	"cudaGetErrorString":    true,
	"cudaGetErrorName":      true,
	"cudaGetLastError":      true,
	"cudaPeekAtLastError":   true,
	"cudaDriverGetVersion":  true,
	"cudaRuntimeGetVersion": true,
}

// checkWrapper matches names that look like the runtime API but are the
// error-checking macros and helpers projects define around it
// (cudaCheck(cuModuleGetLoadingMode(&m)), cudaSafeCall, cudaErrCheck).
var checkWrapper = regexp.MustCompile(`Check|Chk|Assert|Safe|Verify|^cuda(Err|Try|Call|Ok|Die|Handle)`)

// libraryInitializer matches the handle constructors of CUDA libraries,
// which initialize the runtime: cublasCreate, cudnnCreate, cufftPlan1d,
// ncclCommInitRank.
var libraryInitializer = regexp.MustCompile(`^((cublas|cublasLt|cudnn|cusparse|cusolverDn|cusolverSp|cufft|curand|cutensor|nvjpeg)(Create|Plan)|ncclCommInit)`)

// deviceContainers allocate device memory when constructed, which
// initializes the runtime.
var deviceContainers = map[string]bool{"device_vector": true, "device_buffer": true, "device_uvector": true}

// onceRunners run the function they are given before they return.
var onceRunners = map[string]bool{"call_once": true, "pthread_once": true}

// step is something a function does at one place that may initialize CUDA:
// a call of an initializing API, or code of the file that runs there.
type step struct {
	node cudaparse.Node
	api  string // the initializing API called here, or ""
	// callees are functions of the file that run here: a called helper, a
	// constructor, a function handed to std::call_once.
	callees []*cudaparse.Function
}

type analysis struct {
	file *cudaparse.File
	// defined are the names of the file's functions and macros: calls of
	// them are not calls of CUDA itself.
	defined map[string]bool
	byName  map[string][]*cudaparse.Function
	// callsIn and launchesIn group the file's calls and launches by the
	// function they are in.
	callsIn    map[*cudaparse.Function][]*cudaparse.Call
	launchesIn map[*cudaparse.Function][]*cudaparse.Launch
	steps      map[*cudaparse.Function][]step
	inits      map[*cudaparse.Function]bool
}

func newAnalysis(f *cudaparse.File) *analysis {
	a := &analysis{
		file:       f,
		defined:    map[string]bool{},
		byName:     map[string][]*cudaparse.Function{},
		callsIn:    map[*cudaparse.Function][]*cudaparse.Call{},
		launchesIn: map[*cudaparse.Function][]*cudaparse.Launch{},
		steps:      map[*cudaparse.Function][]step{},
		inits:      map[*cudaparse.Function]bool{},
	}
	for _, fn := range f.Functions {
		a.defined[fn.Name] = true
		if fn.Space&cudaparse.SpaceHost != 0 {
			a.byName[fn.Name] = append(a.byName[fn.Name], fn)
		}
	}
	for _, c := range f.Calls {
		a.callsIn[c.Func] = append(a.callsIn[c.Func], c)
	}
	for _, l := range f.Launches {
		a.launchesIn[l.Func] = append(a.launchesIn[l.Func], l)
	}
	for _, m := range f.NodesOfKind("preproc_def", "preproc_function_def") {
		a.defined[m.ChildByField("name").Text()] = true
	}
	return a
}

// isInitializingAPI reports whether a call of the named function, not
// defined in the file, initializes CUDA.
func (a *analysis) isInitializingAPI(name string) bool {
	switch {
	case driverInitializers[name]:
		return true // even when the file defines it: a mock driver in a test
	case a.defined[name]:
		return false
	case runtimeAPI.MatchString(name):
		return !runtimeNonInitializing[name] && !checkWrapper.MatchString(name)
	}
	return libraryInitializer.MatchString(name)
}

// stepsOf lists, in source order, the places in fn that may initialize CUDA
// or run code of the file that may.
func (a *analysis) stepsOf(fn *cudaparse.Function) []step {
	if s, ok := a.steps[fn]; ok {
		return s
	}
	var out []step
	for _, c := range a.callsIn[fn] {
		switch {
		case a.isInitializingAPI(c.Name):
			out = append(out, step{node: c.Node, api: c.Name})
		case len(a.byName[c.Name]) > 0:
			out = append(out, step{node: c.Node, callees: a.byName[c.Name]})
		case onceRunners[c.Name]:
			// std::call_once(flag, init_cuda): a lambda argument's calls
			// are calls of fn already.
			for _, arg := range c.Args {
				if fs := a.byName[arg.Unparen().Name()]; len(fs) > 0 && arg.Unparen().Is("identifier", "qualified_identifier") {
					out = append(out, step{node: c.Node, callees: fs})
				}
			}
		}
	}
	for _, l := range a.launchesIn[fn] {
		if l.API == "" { // launch APIs are calls, and counted above
			out = append(out, step{node: l.Node, api: "a kernel launch"})
		}
	}
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if !n.Is("declaration", "new_expression") {
			return true
		}
		typ := n.ChildByField("type").Name()
		if deviceContainers[typ] {
			out = append(out, step{node: n, api: typ})
		} else if ctors := a.constructors(typ); len(ctors) > 0 {
			out = append(out, step{node: n, callees: ctors})
		}
		return true
	})
	sortSteps(out)
	a.steps[fn] = out
	return out
}

// constructors returns the constructors the file defines for a type name.
func (a *analysis) constructors(typ string) []*cudaparse.Function {
	var out []*cudaparse.Function
	for _, fn := range a.byName[typ] {
		if !fn.Node.ChildByField("type").Valid() { // constructors have no return type
			out = append(out, fn)
		}
	}
	return out
}

func isConstructor(fn *cudaparse.Function) bool {
	return !fn.Node.ChildByField("type").Valid() && fn.Name == classOf(fn)
}

// classOf returns the name of the class a member function belongs to: the
// qualifier of an out-of-class definition (Loader::refresh), or the class
// around an in-class one; "" for free functions.
func classOf(fn *cudaparse.Function) string {
	if i := strings.LastIndex(fn.QualifiedName, "::"); i >= 0 {
		scope := fn.QualifiedName[:i]
		if j := strings.LastIndex(scope, "::"); j >= 0 {
			scope = scope[j+2:]
		}
		if k := strings.IndexByte(scope, '<'); k >= 0 {
			scope = scope[:k] // Pool<T>::Pool
		}
		return scope
	}
	class := fn.Node.Ancestor("class_specifier", "struct_specifier", "function_definition")
	if class.Is("class_specifier", "struct_specifier") {
		return class.ChildByField("name").Name()
	}
	return ""
}

func sortSteps(s []step) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].node.Start() < s[j-1].node.Start(); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// initializes reports whether a call of fn may initialize CUDA: it (or code
// of the file it runs) makes an initializing call anywhere. Inside a helper
// every such call counts, not just those on every path: helpers guard
// one-time initialization with flags (if (!initialized) { cuInit(0); ... })
// that the rule cannot follow.
func (a *analysis) initializes(fn *cudaparse.Function) bool {
	if v, ok := a.inits[fn]; ok {
		return v
	}
	a.inits[fn] = false // breaks recursion
	for _, s := range a.stepsOf(fn) {
		if a.stepInitializes(s, fn) {
			a.inits[fn] = true
			return true
		}
	}
	return false
}

func (a *analysis) stepInitializes(s step, in *cudaparse.Function) bool {
	if s.api != "" {
		return true
	}
	for _, callee := range s.callees {
		if callee != in && a.initializes(callee) {
			return true
		}
	}
	return false
}

// coverage is whether CUDA is initialized on the way to a query.
type coverage struct {
	initialized bool
	// caller is a call of the query's function made before CUDA is
	// initialized, when that is why it is not.
	caller *cudaparse.Call
}

// maxCallerDepth bounds how far up the callers of a function the rule looks;
// beyond it, it gives the code the benefit of the doubt.
const maxCallerDepth = 4

// coverage reports whether CUDA is initialized on the way to at, in fn:
// earlier in fn on every path, or before every call of fn in the file.
// chain holds the functions already on the way down to the query.
func (a *analysis) coverage(fn *cudaparse.Function, at cudaparse.Node, chain []*cudaparse.Function) coverage {
	if fn == nil {
		return coverage{} // a static initializer runs before main
	}
	for _, s := range a.stepsOf(fn) {
		if s.node.End() <= at.Start() && surelyRunsBefore(s.node, at) && a.stepInitializes(s, fn) {
			return coverage{initialized: true}
		}
	}
	for _, c := range chain {
		if c == fn {
			return coverage{initialized: true} // recursion: the outer call decides
		}
	}
	if len(chain) >= maxCallerDepth {
		return coverage{initialized: true}
	}
	chain = append(chain, fn)
	callers := a.callsOf(fn)
	if len(callers) == 0 {
		// Called from another file, or the program's entry. main runs
		// first; for any other function, an initialization elsewhere in the
		// file may have run before its unseen caller calls it.
		return coverage{initialized: fn.Name != "main" && a.initializedOutside(chain)}
	}
	for _, c := range callers {
		if !a.coverage(c.Func, c.Node, chain).initialized {
			return coverage{caller: c}
		}
	}
	return coverage{initialized: true}
}

// callsOf returns the calls of fn by name from other functions of the file
// (and from static initializers).
func (a *analysis) callsOf(fn *cudaparse.Function) []*cudaparse.Call {
	var out []*cudaparse.Call
	for _, c := range a.file.Calls {
		if c.Name == fn.Name && c.Func != fn {
			out = append(out, c)
		}
	}
	return out
}

// initializedOutside reports whether the file initializes CUDA somewhere
// that the functions of chain do not reach: code that may run before
// chain's unseen caller.
func (a *analysis) initializedOutside(chain []*cudaparse.Function) bool {
	reach := map[*cudaparse.Function]bool{}
	var visit func(fn *cudaparse.Function)
	visit = func(fn *cudaparse.Function) {
		if reach[fn] {
			return
		}
		reach[fn] = true
		for _, s := range a.stepsOf(fn) {
			for _, callee := range s.callees {
				visit(callee)
			}
		}
	}
	for _, fn := range chain {
		visit(fn)
	}
	// No other method of an object, another constructor included, runs
	// before its constructor.
	entry := chain[len(chain)-1]
	ownClass := ""
	if isConstructor(entry) {
		ownClass = classOf(entry)
	}
	for _, fn := range a.file.Functions {
		if reach[fn] || fn.Space&cudaparse.SpaceHost == 0 || ownClass != "" && classOf(fn) == ownClass {
			continue
		}
		for _, s := range a.stepsOf(fn) {
			if s.api != "" {
				return true
			}
		}
	}
	for _, c := range a.callsIn[nil] {
		if a.isInitializingAPI(c.Name) {
			return true // a static initializer
		}
	}
	return false
}

// missedInit returns a place in fn that initializes CUDA but does not count
// for at: the last one before it (on a path that may skip it), else the
// first one after it.
func (a *analysis) missedInit(fn *cudaparse.Function, at cudaparse.Node) (step, bool) {
	if fn == nil {
		return step{}, false
	}
	var before step
	hasBefore := false
	for _, s := range a.stepsOf(fn) {
		if s.node.Contains(at) || !a.stepInitializes(s, fn) {
			continue
		}
		if s.node.Start() >= at.End() {
			if hasBefore {
				return before, true
			}
			return s, true
		}
		before, hasBefore = s, true
	}
	return before, hasBefore
}

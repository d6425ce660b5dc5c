package cudaparse

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// Where a function may touch CUDA: calls of the CUDA APIs, kernel launches,
// CUDA library handles, device containers, and code of the file that does
// one of these (helpers, constructors, std::call_once). LL006 asks whether
// CUDA is initialized on the way to a call, LL007 whether it may be; both
// walk the same steps.

// IsRuntimeAPI reports whether name is spelled like a CUDA runtime API
// function: cudaFree, cudaSetDevice, cudaGetDeviceProperties_v2 (cuda, a
// capital, letters and digits, an optional _vN).
func IsRuntimeAPI(name string) bool { return isAPIName(name, "cuda") }

// IsDriverAPI reports whether name is spelled like a CUDA driver API
// function: cuInit, cuMemAlloc_v2.
func IsDriverAPI(name string) bool { return isAPIName(name, "cu") }

// isAPIName matches name against ^prefix[A-Z][A-Za-z0-9]*(_v[0-9]+)?$ by
// hand: it is asked of every call's name, and the expression took a
// measurable share of a run.
func isAPIName(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" || rest[0] < 'A' || rest[0] > 'Z' {
		return false
	}
	if i := strings.LastIndex(rest, "_v"); i > 0 {
		version := rest[i+2:]
		if version == "" || strings.IndexFunc(version, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			return false
		}
		rest = rest[:i]
	}
	for i := 1; i < len(rest); i++ {
		if c := rest[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Patterns of other names.
var (
	// CheckWrapper matches the error-checking macros and helpers projects
	// name like the API (cudaCheck, cudaSafeCall, cuCheck, cudaErrCheck).
	CheckWrapper = regexp.MustCompile(`Check|Chk|Assert|Safe|Verify|^cuda?(Err|Try|Call|Ok|Die|Handle)`)
	// TestAssertion matches the assertion macros of C++ test frameworks
	// (GoogleTest's EXPECT_EQ and ASSERT_NE, Catch2's REQUIRE and CHECK,
	// doctest's), whose arguments a test expects to hold.
	TestAssertion = regexp.MustCompile(`^(EXPECT|ASSERT|REQUIRE|CHECK)(_|$)`)
	// LibraryInitializer matches the handle constructors of CUDA
	// libraries, which initialize the runtime: cublasCreate, cufftPlan1d,
	// ncclCommInitRank.
	LibraryInitializer = regexp.MustCompile(`^((cublas|cublasLt|cudnn|cusparse|cusolverDn|cusolverSp|cufft|curand|cutensor|nvjpeg)(Create|Plan)|ncclCommInit)`)
)

// InitializesCUDA reports whether a call of name, a function the program
// does not define itself, initializes CUDA (and so creates the primary
// context, where eager loading loads every module): cuInit and the driver
// calls that need a context, every runtime call but those that only
// report on the library (knowledge.ReportingAPIs) and the error-checking
// helpers named like the API, and the CUDA libraries' handle
// constructors.
func InitializesCUDA(name string) bool {
	switch {
	case name == "cuInit" || knowledge.ContextCreators[name] || knowledge.ContextSetters[name]:
		return true
	case IsRuntimeAPI(name):
		return !knowledge.ReportingAPIs[name] && !CheckWrapper.MatchString(name)
	}
	return LibraryInitializer.MatchString(name)
}

// OnceRunners run the function they are given before they return.
var OnceRunners = map[string]bool{"call_once": true, "pthread_once": true}

// Step is a place in a function that may touch CUDA: an API call or launch
// (API names it), or code of the file that runs there (Callees).
type Step struct {
	Node    Node
	API     string
	Callees []*Function
}

// Activity finds the steps of a file's functions. IsAPI says which calls,
// of functions the file does not define, touch CUDA.
type Activity struct {
	file    *File
	isAPI   func(name string) bool
	byName  map[string][]*Function
	steps   map[*Function][]Step
	reaches map[*Function]bool
}

// NewActivity indexes f for steps. isAPI decides first; it should say no
// to names the file defines (File.Defines), unless a file mocks the API.
func NewActivity(f *File, isAPI func(name string) bool) *Activity {
	a := &Activity{
		file:    f,
		isAPI:   isAPI,
		byName:  map[string][]*Function{},
		steps:   map[*Function][]Step{},
		reaches: map[*Function]bool{},
	}
	for _, fn := range f.Functions {
		if fn.Space&SpaceHost != 0 {
			a.byName[fn.Name] = append(a.byName[fn.Name], fn)
		}
	}
	return a
}

// Steps lists, in source order, the places in fn that may touch CUDA.
func (a *Activity) Steps(fn *Function) []Step {
	if s, ok := a.steps[fn]; ok {
		return s
	}
	var out []Step
	for _, c := range a.file.CallsIn(fn) {
		switch {
		case a.isAPI(c.Name):
			out = append(out, Step{Node: c.Node, API: c.Name})
		case len(a.byName[c.Name]) > 0:
			out = append(out, Step{Node: c.Node, Callees: a.byName[c.Name]})
		case OnceRunners[c.Name]:
			// std::call_once(flag, init_cuda): a lambda argument's calls
			// are calls of fn already.
			for _, arg := range c.Args {
				if arg = arg.Unparen(); arg.Is("identifier", "qualified_identifier") && len(a.byName[arg.Name()]) > 0 {
					out = append(out, Step{Node: c.Node, Callees: a.byName[arg.Name()]})
				}
			}
		}
	}
	for _, l := range a.file.LaunchesIn(fn) {
		if l.API == "" || l.Own { // launch APIs are calls, and counted above
			out = append(out, Step{Node: l.Node, API: "a kernel launch"})
		}
	}
	fn.Body.Descendants(func(n Node) bool {
		if !n.Is("declaration", "new_expression") {
			return true
		}
		typ := n.ChildByField("type").Name()
		if knowledge.DeviceContainers[typ] {
			out = append(out, Step{Node: n, API: typ})
		} else if ctors := a.constructors(typ); len(ctors) > 0 {
			out = append(out, Step{Node: n, Callees: ctors})
		}
		return true
	})
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Node.Start() < out[j-1].Node.Start(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	a.steps[fn] = out
	return out
}

// constructors returns the constructors the file defines for a type name.
func (a *Activity) constructors(typ string) []*Function {
	var out []*Function
	for _, fn := range a.byName[typ] {
		if !fn.Node.ChildByField("type").Valid() { // constructors have no return type
			out = append(out, fn)
		}
	}
	return out
}

// touchesCUDA reports whether a call of fn may touch CUDA: a step anywhere in
// it, or in code of the file it runs, does. Inside a helper every step
// counts, not only those on every path: helpers guard one-time
// initialization with flags that a static check cannot follow.
func (a *Activity) touchesCUDA(fn *Function) bool {
	if v, ok := a.reaches[fn]; ok {
		return v
	}
	a.reaches[fn] = false // breaks recursion
	for _, s := range a.Steps(fn) {
		if _, ok := a.StepReaches(s, fn); ok {
			a.reaches[fn] = true
			return true
		}
	}
	return false
}

// StepReaches reports whether step s, in function in, touches CUDA, and
// names what does.
func (a *Activity) StepReaches(s Step, in *Function) (string, bool) {
	if s.API != "" {
		return s.API, true
	}
	for _, callee := range s.Callees {
		if callee != in && a.touchesCUDA(callee) {
			return callee.Name + " (which calls CUDA)", true
		}
	}
	return "", false
}

// Defines reports whether the file defines a function or a macro of the
// name: calls of it are not calls of CUDA itself.
func (f *File) Defines(name string) bool {
	if f.FunctionNamed(name) != nil {
		return true
	}
	if f.macroNames == nil {
		f.macroNames = map[string]bool{}
		for _, m := range f.NodesOfKind("preproc_def", "preproc_function_def") {
			f.macroNames[m.ChildByField("name").Text()] = true
		}
	}
	return f.macroNames[name]
}

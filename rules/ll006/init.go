package ll006

import (
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
)

// What initializes CUDA: cuInit, the calls that need it and make it happen
// (runtime API calls initialize the driver on first use; creating a context
// needs an initialized driver), functions of the file that do so, and
// objects whose constructors do.

// driverInitializer reports whether a call initializes the driver, or can
// only succeed once it is (a context to make current exists only after
// cuInit).
func driverInitializer(name string) bool {
	return name == "cuInit" || knowledge.ContextCreators[name] || knowledge.ContextSetters[name]
}

type analysis struct {
	file *cudaparse.File
	act  *cudaparse.Activity
}

func newAnalysis(f *cudaparse.File) *analysis {
	a := &analysis{file: f}
	a.act = cudaparse.NewActivity(f, a.isInitializingAPI)
	return a
}

// isInitializingAPI reports whether a call of the named function, not
// defined in the file, initializes CUDA. Every runtime call does, except
// the few that only report on the library itself.
func (a *analysis) isInitializingAPI(name string) bool {
	switch {
	case driverInitializer(name):
		return true // even when the file defines it: a mock driver in a test
	case a.file.Defines(name):
		return false
	}
	return cudaparse.InitializesCUDA(name)
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
	for _, s := range a.act.Steps(fn) {
		if _, ok := a.act.StepReaches(s, fn); ok && s.Node.End() <= at.Start() && surelyRunsBefore(s.Node, at) {
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
		for _, s := range a.act.Steps(fn) {
			for _, callee := range s.Callees {
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
		for _, s := range a.act.Steps(fn) {
			if s.API != "" {
				return true
			}
		}
	}
	for _, c := range a.file.CallsIn(nil) {
		if a.isInitializingAPI(c.Name) {
			return true // a static initializer
		}
	}
	return false
}

// missedInit returns a place in fn that initializes CUDA but does not count
// for at: the last one before it (on a path that may skip it), else the
// first one after it.
func (a *analysis) missedInit(fn *cudaparse.Function, at cudaparse.Node) (cudaparse.Step, bool) {
	if fn == nil {
		return cudaparse.Step{}, false
	}
	var before cudaparse.Step
	hasBefore := false
	for _, s := range a.act.Steps(fn) {
		if _, ok := a.act.StepReaches(s, fn); s.Node.Contains(at) || !ok {
			continue
		}
		if s.Node.Start() >= at.End() {
			if hasBefore {
				return before, true
			}
			return s, true
		}
		before, hasBefore = s, true
	}
	return before, hasBefore
}

package ll007

import (
	"regexp"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/rule"
)

// What tells that CUDA is initialized: a CUDA call (the runtime initializes
// on its first call; driver calls other than cuInit succeed only after it),
// a kernel launch, a CUDA library handle, a device container, or code of
// the file that does one of these.

// driverAPI and runtimeAPI match the CUDA driver and runtime API names.
var (
	driverAPI  = regexp.MustCompile(`^cu[A-Z][A-Za-z0-9]*(_v[0-9]+)?$`)
	runtimeAPI = regexp.MustCompile(`^cuda[A-Z][A-Za-z0-9]*(_v[0-9]+)?$`)
)

// uninitializedAPIs work without initializing CUDA: they report on the
// library or an error code.
var uninitializedAPIs = map[string]bool{
	"cudaGetErrorString": true, "cudaGetErrorName": true, "cudaGetLastError": true, "cudaPeekAtLastError": true,
	"cudaDriverGetVersion": true, "cudaRuntimeGetVersion": true,
	"cuGetErrorString": true, "cuGetErrorName": true, "cuDriverGetVersion": true,
	"cuGetProcAddress": true, "cuGetProcAddress_v2": true,
}

// checkWrapper matches the error-checking macros and helpers projects name
// like the API (cudaCheck, cudaSafeCall, cuCheck, cudaErrCheck).
var checkWrapper = regexp.MustCompile(`Check|Chk|Assert|Safe|Verify|^cuda?(Err|Try|Call|Ok|Die|Handle)`)

// libraryInitializer matches the handle constructors of CUDA libraries,
// which initialize the runtime.
var libraryInitializer = regexp.MustCompile(`^((cublas|cublasLt|cudnn|cusparse|cusolverDn|cusolverSp|cufft|curand|cutensor|nvjpeg)(Create|Plan)|ncclCommInit)`)

// deviceContainers allocate device memory when constructed.
var deviceContainers = map[string]bool{"device_vector": true, "device_buffer": true, "device_uvector": true}

// onceRunners run the function they are given before they return.
var onceRunners = map[string]bool{"call_once": true, "pthread_once": true}

// spawners start another program, which inherits the environment: setting
// the variable for a child after this process initialized CUDA is right.
var spawners = regexp.MustCompile(`^(_w?)?(exec|spawn)[lv]p?e?$|^(fexecve|posix_spawnp?|system|popen|_w?popen|fork|vfork|CreateProcess(AsUser)?[AW]?|ShellExecute(Ex)?[AW]?)$`)

// exits end the process.
var exits = map[string]bool{"exit": true, "_exit": true, "_Exit": true, "abort": true, "quick_exit": true, "ExitProcess": true, "terminate": true, "longjmp": true}

// step is a place where a function may touch CUDA: a CUDA call, or code of
// the file that runs there and may.
type step struct {
	node    cudaparse.Node
	api     string                // the CUDA API called here, or ""
	callees []*cudaparse.Function // functions of the file that run here
}

type analysis struct {
	file   *cudaparse.File
	macros map[string]bool
	byName map[string][]*cudaparse.Function
	// callsIn and launchesIn group the file's calls and launches by the
	// function they are in.
	callsIn    map[*cudaparse.Function][]*cudaparse.Call
	launchesIn map[*cudaparse.Function][]*cudaparse.Launch
	steps      map[*cudaparse.Function][]step
	touches    map[*cudaparse.Function]bool
}

func newAnalysis(f *cudaparse.File) *analysis {
	a := &analysis{
		file:       f,
		macros:     map[string]bool{},
		byName:     map[string][]*cudaparse.Function{},
		callsIn:    map[*cudaparse.Function][]*cudaparse.Call{},
		launchesIn: map[*cudaparse.Function][]*cudaparse.Launch{},
		steps:      map[*cudaparse.Function][]step{},
		touches:    map[*cudaparse.Function]bool{},
	}
	for _, fn := range f.Functions {
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
		a.macros[m.ChildByField("name").Text()] = true
	}
	return a
}

// isCUDAAPI reports whether a call of the named function, not defined in
// the file, shows that CUDA is initialized once it returns.
func (a *analysis) isCUDAAPI(name string) bool {
	if a.macros[name] || len(a.byName[name]) > 0 || uninitializedAPIs[name] {
		return false
	}
	if driverAPI.MatchString(name) || runtimeAPI.MatchString(name) {
		return !checkWrapper.MatchString(name)
	}
	return libraryInitializer.MatchString(name)
}

// stepsOf lists, in source order, the places in fn that may touch CUDA.
func (a *analysis) stepsOf(fn *cudaparse.Function) []step {
	if s, ok := a.steps[fn]; ok {
		return s
	}
	var out []step
	for _, c := range a.callsIn[fn] {
		switch {
		case a.isCUDAAPI(c.Name):
			out = append(out, step{node: c.Node, api: c.Name})
		case len(a.byName[c.Name]) > 0:
			out = append(out, step{node: c.Node, callees: a.byName[c.Name]})
		case onceRunners[c.Name]:
			for _, arg := range c.Args {
				if arg = arg.Unparen(); arg.Is("identifier", "qualified_identifier") && len(a.byName[arg.Name()]) > 0 {
					out = append(out, step{node: c.Node, callees: a.byName[arg.Name()]})
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
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].node.Start() < out[j-1].node.Start(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	a.steps[fn] = out
	return out
}

func (a *analysis) constructors(typ string) []*cudaparse.Function {
	var out []*cudaparse.Function
	for _, fn := range a.byName[typ] {
		if !fn.Node.ChildByField("type").Valid() { // constructors have no return type
			out = append(out, fn)
		}
	}
	return out
}

// touchesCUDA reports whether a call of fn may touch CUDA, anywhere in it
// or in code of the file it runs.
func (a *analysis) touchesCUDA(fn *cudaparse.Function) bool {
	if v, ok := a.touches[fn]; ok {
		return v
	}
	a.touches[fn] = false // breaks recursion
	for _, s := range a.stepsOf(fn) {
		if _, ok := a.stepTouches(s, fn); ok {
			a.touches[fn] = true
			return true
		}
	}
	return false
}

// stepTouches reports whether step s, in function in, may touch CUDA, and
// names what does.
func (a *analysis) stepTouches(s step, in *cudaparse.Function) (string, bool) {
	if s.api != "" {
		return s.api, true
	}
	for _, callee := range s.callees {
		if callee != in && a.touchesCUDA(callee) {
			return callee.Name + " (which calls CUDA)", true
		}
	}
	return "", false
}

// reason says why a setting comes too late.
type reason struct {
	what   string         // the CUDA call, or the function making one
	at     cudaparse.Node // where it happens
	caller *cudaparse.Call
}

func (r reason) related() []rule.FindingOption {
	opts := []rule.FindingOption{rule.Related(r.at, "CUDA is initialized here")}
	if r.caller != nil {
		opts = append(opts, rule.Related(r.caller.Node, "the setting function is called here"))
	}
	return opts
}

const maxCallerDepth = 4

// lateSetting reports whether CUDA may have been initialized when the
// setter call c runs: a CUDA call earlier in its function that may run
// before it, or a call of its function that may come after one. A setting
// followed by starting a child process is for the child and is not late.
func (a *analysis) lateSetting(c *cudaparse.Call) (reason, bool) {
	if c.Func == nil || a.spawnsAfter(c.Func, c.Node) {
		return reason{}, false
	}
	r, ok := a.touchedBefore(c.Func, c.Node, nil)
	return r, ok
}

func (a *analysis) touchedBefore(fn *cudaparse.Function, at cudaparse.Node, chain []*cudaparse.Function) (reason, bool) {
	for _, s := range a.stepsOf(fn) {
		if s.node.End() > at.Start() || !mayRunBefore(s.node, at) {
			continue
		}
		if what, ok := a.stepTouches(s, fn); ok {
			return reason{what: what, at: s.node}, true
		}
	}
	if len(chain) >= maxCallerDepth {
		return reason{}, false
	}
	for _, f := range chain {
		if f == fn {
			return reason{}, false
		}
	}
	chain = append(chain, fn)
	for _, call := range a.file.Calls {
		if call.Name != fn.Name || call.Func == nil || call.Func == fn || a.spawnsAfter(call.Func, call.Node) {
			continue
		}
		if r, ok := a.touchedBefore(call.Func, call.Node, chain); ok {
			if r.caller == nil {
				r.caller = call
			}
			return r, true
		}
	}
	return reason{}, false
}

// spawnsAfter reports whether fn starts another program after at.
func (a *analysis) spawnsAfter(fn *cudaparse.Function, at cudaparse.Node) bool {
	for _, c := range a.callsIn[fn] {
		if c.Node.Start() >= at.End() && spawners.MatchString(c.Name) {
			return true
		}
	}
	return false
}

// mayRunBefore reports whether d, which ends before use in the same
// function, may run before it on some path: it does not sit in a branch
// that leaves the function (if (!ok) { cudaGetLastError(); return; }), in
// the other arm of an if or ?: that holds use, or in a lambda that does not
// run where it is written.
func mayRunBefore(d, use cudaparse.Node) bool {
	from := d
	for p := d.Parent(); p.Valid(); from, p = p, p.Parent() {
		if p.Contains(use) {
			switch {
			case p.Is("if_statement", "conditional_expression") && from.Field() != "condition":
				return false // the other arm
			case from.Is("case_statement") && leavesFunction(lastStatement(from)):
				return false
			}
			return true
		}
		switch {
		case p.Is("function_definition"):
			return false
		case p.Is("lambda_expression") && !runsWhereWritten(p):
			return false
		case p.Is("return_statement", "throw_statement"):
			return false
		case p.Is("compound_statement", "case_statement") && leavesFunction(lastStatement(p)):
			return false
		}
	}
	return false
}

func lastStatement(block cudaparse.Node) cudaparse.Node {
	kids := block.NamedChildren()
	if len(kids) == 0 {
		return cudaparse.Node{}
	}
	return kids[len(kids)-1]
}

// leavesFunction reports whether a statement ends the function or the
// process: return, throw, exit(1), abort().
func leavesFunction(s cudaparse.Node) bool {
	switch {
	case s.Is("return_statement", "throw_statement"):
		return true
	case s.Is("expression_statement"):
		e := s.NamedChildren()
		if len(e) != 1 {
			return false
		}
		x := e[0].Unparen()
		if x.Is("throw_expression") {
			return true
		}
		return x.Is("call_expression") && exits[x.ChildByField("function").Name()]
	}
	return false
}

// runsWhereWritten reports whether a lambda runs where it is written:
// [] { ... }() or std::call_once(flag, [] { ... }).
func runsWhereWritten(lambda cudaparse.Node) bool {
	parent := lambda.Parent()
	if parent.Is("call_expression") && lambda.Field() == "function" {
		return true
	}
	if parent.Is("argument_list") {
		return onceRunners[parent.Parent().ChildByField("function").Name()]
	}
	return false
}

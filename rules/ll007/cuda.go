package ll007

import (
	"regexp"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// What tells that CUDA is initialized: a CUDA call (the runtime initializes
// on its first call; driver calls other than cuInit succeed only after it),
// a kernel launch, a CUDA library handle, a device container, or code of
// the file that does one of these.

// spawners start another program, which inherits the environment: setting
// the variable for a child after this process initialized CUDA is right.
var spawners = regexp.MustCompile(`^(_w?)?(exec|spawn)[lv]p?e?$|^(fexecve|posix_spawnp?|system|popen|_w?popen|fork|vfork|CreateProcess(AsUser)?[AW]?|ShellExecute(Ex)?[AW]?)$`)

// exits end the process.
var exits = map[string]bool{"exit": true, "_exit": true, "_Exit": true, "abort": true, "quick_exit": true, "ExitProcess": true, "terminate": true, "longjmp": true}

type analysis struct {
	file *cudaparse.File
	act  *cudaparse.Activity
}

func newAnalysis(f *cudaparse.File) *analysis {
	a := &analysis{file: f}
	a.act = cudaparse.NewActivity(f, a.isCUDAAPI)
	return a
}

// isCUDAAPI reports whether a call of the named function, not defined in
// the file, shows that CUDA is initialized once it returns.
func (a *analysis) isCUDAAPI(name string) bool {
	if a.file.Defines(name) || knowledge.ReportingAPIs[name] {
		return false
	}
	if cudaparse.IsDriverAPI(name) || cudaparse.IsRuntimeAPI(name) {
		return !cudaparse.CheckWrapper.MatchString(name)
	}
	return cudaparse.LibraryInitializer.MatchString(name)
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
	for _, s := range a.act.Steps(fn) {
		if s.Node.End() > at.Start() || !mayRunBefore(s.Node, at) {
			continue
		}
		if what, ok := a.act.StepReaches(s, fn); ok {
			return reason{what: what, at: s.Node}, true
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
	for _, c := range a.file.CallsIn(fn) {
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
		case p.Is("lambda_expression") && !cudaparse.RunsInPlace(p):
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

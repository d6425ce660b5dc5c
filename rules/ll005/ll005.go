// Package ll005 reports the same module loaded into each context or device
// by hand, which CUDA 12's context-independent loading does for you.
package ll005

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

//go:embed doc.md
var doc string

// Rule is LL005.
var Rule = &rule.Rule{
	ID:       "LL005",
	Name:     "per-context-module-load",
	Severity: rule.Info,
	Since:    "0.1.0",
	Summary:  "the same module is loaded into each context by hand; cuLibraryLoad* does it once for all",
	Doc:      doc,
	Triggers: []string{"cuModuleLoad"},
	Run:      run,
}

// moduleLoads load a module into the current context only;
// libraryLoads are context-independent loads (CUDA 12.0).
var (
	moduleLoads  = knowledge.ContextModuleLoads
	libraryLoads = knowledge.LibraryLoads
)

// loopRunners run a lambda argument once per element, like a loop body.
var loopRunners = map[string]bool{"for_each": true, "for_each_n": true, "parallel_for": true, "parallel_for_each": true}

func run(p *rule.Pass) {
	a := newAnalysis(p.File)
	reported := map[int]bool{}
	for _, loop := range a.loops() {
		switches := a.contextSwitches(loop)
		if len(switches) == 0 || a.stopsOnSuccess(loop) {
			continue
		}
		unloads := a.find(loop, func(c *cudaparse.Call) bool { return c.Name == "cuModuleUnload" })
		for _, load := range a.find(loop, func(c *cudaparse.Call) bool { return moduleLoads[c.Name] }) {
			at := load.call.Node.Start()
			if reported[at] || len(load.call.Args) < 2 {
				continue
			}
			if load.scope.varies(load.call.Args[1]) {
				continue // a different image per context: not the same module
			}
			if a.selectsIterations(load) || unloadedInPlace(load, unloads) {
				continue
			}
			if a.hasLibraryAlternative(loop.node, loop.fn) || a.hasLibraryAlternative(load.call.Node, load.call.Func) {
				continue
			}
			reported[at] = true
			sw := mainSwitch(switches)
			p.Report(load.call.Callee, message(load, sw), related(load, sw)...)
		}
	}
	checkCaches(p, a, reported)
}

// mainSwitch picks the switch to name: one that makes a context current
// rather than one that only retains a primary context.
func mainSwitch(switches []found) found {
	for _, sw := range switches {
		if sw.call.Name != "cuDevicePrimaryCtxRetain" {
			return sw
		}
	}
	return switches[0]
}

func message(load found, sw found) string {
	through := ""
	if load.via != nil {
		through = " through " + load.via.Name
	}
	library := "cuLibraryLoadData"
	if load.call.Name == "cuModuleLoad" {
		library = "cuLibraryLoadFromFile"
	}
	return fmt.Sprintf("the same module is loaded into each context by hand (%s%s in a loop that switches with %s): since CUDA 12.0, %s loads it once for every context, current and future, and cuLibraryGetKernel gives one context-independent kernel handle to launch in whichever context is current; under lazy loading each context loads the kernels at first use either way",
		load.call.Name, through, sw.call.Name, library)
}

func related(load found, sw found) []rule.FindingOption {
	out := []rule.FindingOption{rule.Related(sw.call.Node, "the loop switches context here")}
	if load.via != nil {
		out = append(out, rule.Related(load.via.Node, "the module is loaded through this call"))
	}
	return out
}

// calls reports whether fn calls a function of the file named name (a
// helper that holds the library load).
func (a *analysis) calls(fn *cudaparse.Function, name string) bool {
	for _, c := range a.file.CallsIn(fn) {
		if c.Name == name && a.helper(name, fn) != nil {
			return true
		}
	}
	return false
}

// successTest matches a condition that holds when a call succeeded.
var successTest = regexp.MustCompile(`==\s*:*\s*(CUDA_SUCCESS|cudaSuccess)\b|\b(CUDA_SUCCESS|cudaSuccess)\s*==`)

// stopsOnSuccess reports whether the loop leaves once something succeeds
// (`if (cuModuleLoad(...) == CUDA_SUCCESS) break;`): it searches for a
// context that can load the module, and loads it into one.
func (a *analysis) stopsOnSuccess(l *loop) bool {
	found := false
	l.body.Descendants(func(n cudaparse.Node) bool {
		if found || n.Is("lambda_expression") {
			return false
		}
		if !n.Is("break_statement", "return_statement") {
			return true
		}
		for p := n.Parent(); p.Valid() && p != l.body; p = p.Parent() {
			if n.Is("break_statement") && p.Is("for_statement", "while_statement", "do_statement", "for_range_loop", "switch_statement") {
				return false // leaves an inner loop or switch only
			}
			if p.Is("if_statement") && successTest.MatchString(p.ChildByField("condition").Text()) {
				found = true
				return false
			}
		}
		return false
	})
	return found
}

// selectsIterations reports whether the load runs in chosen iterations
// only: under `if (dev == 0)` or a `case` of a switch on the loop variable.
func (a *analysis) selectsIterations(load found) bool {
	n, s := load.call.Node, load.scope
	for s != nil {
		for p := n.Parent(); p.Valid() && p != s.region; p = p.Parent() {
			switch {
			case p.Is("if_statement"):
				if selectsByEquality(s, p.ChildByField("condition")) {
					return true
				}
			case p.Is("switch_statement"):
				if s.varies(p.ChildByField("condition")) {
					return true
				}
			}
		}
		if s.call == nil {
			break
		}
		n, s = s.call.Node, s.parent
	}
	return false
}

// selectsByEquality reports whether a condition compares something that
// changes with the loop against something that does not: dev == 0.
func selectsByEquality(s *scope, cond cudaparse.Node) bool {
	for cond.Is("condition_clause", "parenthesized_expression") {
		kids := cond.NamedChildren()
		if len(kids) != 1 {
			return false
		}
		cond = kids[0]
	}
	if !cond.Is("binary_expression") || strings.TrimSpace(cond.ChildByField("operator").Text()) != "==" {
		return false
	}
	return s.varies(cond.ChildByField("left")) != s.varies(cond.ChildByField("right"))
}

// unloadedInPlace reports whether the handle is unloaded later in the same
// iteration: a per-device check that keeps nothing loaded. (An unload
// before the load is a reload, which keeps the module.)
func unloadedInPlace(load found, unloads []found) bool {
	handle := strings.TrimPrefix(compact(load.call.Args[0].Text()), "&")
	for _, u := range unloads {
		if u.scope == load.scope && u.call.Node.Start() > load.call.Node.End() && len(u.call.Args) > 0 && compact(u.call.Args[0].Text()) == handle {
			return true
		}
	}
	return false
}

func compact(s string) string { return strings.Join(strings.Fields(s), "") }

// hasLibraryAlternative reports whether the code at n has a
// context-independent alternative beside it: its function (or another
// definition of the same name, under #if, or a helper of the file it
// calls) calls cuLibraryLoad*, or an #if group around it does. The
// per-context loop is then the fallback for drivers older than CUDA 12.0.
func (a *analysis) hasLibraryAlternative(n cudaparse.Node, fn *cudaparse.Function) bool {
	for _, c := range a.file.Calls {
		if !libraryLoads[c.Name] {
			continue
		}
		if fn != nil && c.Func != nil && (c.Func.Name == fn.Name || a.calls(fn, c.Func.Name)) {
			return true
		}
		for p := n.Parent(); p.Valid(); p = p.Parent() {
			if p.Is("preproc_if", "preproc_ifdef") && p.Contains(c.Node) {
				return true
			}
		}
	}
	return false
}

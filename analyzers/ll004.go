package analyzers

import (
	"go/ast"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"golang.org/x/tools/go/analysis"
)

// LL004 reports a module load (C.cuModuleLoad*, C.cuLibraryLoad*, or a
// function of this or another package that makes one, such as a binding's
// cu.LoadData(ptx)) with device memory queried, or time taken, before and
// after it in the same function and no kernel resolved or launched in
// between.
var LL004 = newAnalyzer("LL004", "Looks at C.cuModuleLoad*, C.cuLibraryLoad* and the binding functions that wrap them, called from Go with memory queried or time taken on both sides.", runLL004)

func runLL004(pass *analysis.Pass) (any, error) {
	s := summary(pass)
	if !s.relevant() {
		return nil, nil
	}
	for _, sf := range s.files {
		clock := s.clockTest(sf)
		for _, fb := range sf.fns {
			calls := make([]callee, len(fb.calls))
			for i, c := range fb.calls {
				calls[i] = s.callee(sf, fb, c)
			}
			for i, load := range fb.calls {
				if calls[i].eff == nil || calls[i].eff.Load == 0 || calls[i].eff.resolves() {
					continue // a wrapper that also looks its kernels up loads them
				}
				if msg := ll004Message(fb, calls, i, clock); msg != "" {
					pass.Report(diagnostic("LL004", load.Pos(), load.End(), msg))
				}
			}
		}
	}
	return nil, nil
}

// ll004Message judges the module load fb.calls[i]: memory queried or time
// taken before it and after it, with no kernel resolved in between.
func ll004Message(fb *funcBody, calls []callee, i int, clock func(*funcBody, *ast.CallExpr) bool) string {
	before, after := -1, -1
	timedBefore, timedAfter := false, false
	for j, c := range fb.calls {
		mem := isMemoryQuery(c, calls[j])
		switch {
		case j < i && mem:
			before = j
		case j < i && clock(fb, c):
			timedBefore = true
		case j > i && after < 0 && (mem || clock(fb, c)):
			after = j
			timedAfter = clock(fb, c)
		}
	}
	if after < 0 {
		return ""
	}
	for _, c := range calls[i+1 : after] {
		if c.eff.resolves() {
			return ""
		}
	}
	name := calls[i].name
	if calls[i].c == "" {
		name += " (" + calls[i].eff.LoadAPI + ")"
	}
	switch {
	case before >= 0 && !timedAfter:
		return "device memory is measured around " + name + ", but under lazy loading the load puts no kernels on the device (measured: 0 KB lazily, 10,240 KB eagerly for a 10 MB cubin); resolve every kernel (cuModuleGetFunction, cuFuncLoad) before measuring, or run with CUDA_MODULE_LOADING=EAGER"
	case timedBefore && timedAfter:
		return name + " is timed as if it loaded the module, but under lazy loading the kernels load at first use, outside this measurement; include cuModuleGetFunction or cuFuncLoad of every kernel in the timed region"
	}
	return ""
}

// isMemoryQuery reports whether a call reports device memory: a CUDA or
// NVML query, or a function whose effects say it returns what one
// reported.
func isMemoryQuery(c *ast.CallExpr, ce callee) bool {
	return knowledge.IsMemoryQuery(cCall(c)) || ce.eff != nil && len(ce.eff.Memory) > 0
}

// goClock returns a test for calls that read a clock in Go: time.Now and
// time.Since, under the file's import name for "time".
func goClock(f *ast.File) func(*ast.CallExpr) bool {
	timePkg := importName(f, "time")
	return func(c *ast.CallExpr) bool {
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok || timePkg == "" {
			return false
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Name != timePkg {
			return false
		}
		switch sel.Sel.Name {
		case "Now", "Since", "Until":
			return true
		}
		return false
	}
}

// importName returns the name a file imports path under, or "".
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if imp.Path.Value != `"`+path+`"` {
			continue
		}
		if imp.Name != nil {
			return imp.Name.Name
		}
		return path[strings.LastIndexByte(path, '/')+1:]
	}
	return ""
}

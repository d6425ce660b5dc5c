package analyzers

import (
	"go/ast"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"golang.org/x/tools/go/analysis"
)

// LL004 reports a module load (C.cuModuleLoad*, C.cuLibraryLoad*) with
// device memory queried, or time taken, before and after it in the same
// function and no kernel resolved or launched in between.
var LL004 = newAnalyzer("LL004", "Looks at C.cuModuleLoad* and C.cuLibraryLoad* called from Go with memory queried or time taken on both sides.", runLL004)

// resolvesKernel reports whether a C call makes a kernel resident: it
// resolves one (knowledge.KernelResolvers) or launches one.
func resolvesKernel(name string) bool {
	_, launches := knowledge.LaunchAPIs[name]
	return launches || knowledge.KernelResolvers[name]
}

func isMemoryQuery(c *ast.CallExpr) bool { return knowledge.IsMemoryQuery(cCall(c)) }

func runLL004(pass *analysis.Pass) (any, error) {
	for _, rf := range cgoFiles(pass) {
		clock := goClock(rf.file)
		for _, fb := range functions(rf.file) {
			for i, load := range fb.calls {
				if !knowledge.IsModuleLoad(cCall(load)) {
					continue
				}
				before, after := -1, -1
				timedBefore, timedAfter := false, false
				for j, c := range fb.calls {
					switch {
					case j < i && isMemoryQuery(c):
						before = j
					case j < i && clock(c):
						timedBefore = true
					case j > i && after < 0 && (isMemoryQuery(c) || clock(c)):
						after = j
						timedAfter = clock(c)
					}
				}
				if after < 0 || resolvedBetweenCalls(fb.calls[i+1:after]) {
					continue
				}
				switch {
				case before >= 0 && !timedAfter:
					pass.Report(diagnostic("LL004", load.Pos(), load.End(),
						"device memory is measured around "+cCall(load)+", but under lazy loading the load puts no kernels on the device (measured: 0 KB lazily, 10,240 KB eagerly for a 10 MB cubin); resolve every kernel (cuModuleGetFunction, cuFuncLoad) before measuring, or run with CUDA_MODULE_LOADING=EAGER"))
				case timedBefore && timedAfter:
					pass.Report(diagnostic("LL004", load.Pos(), load.End(),
						cCall(load)+" is timed as if it loaded the module, but under lazy loading the kernels load at first use, outside this measurement; include cuModuleGetFunction or cuFuncLoad of every kernel in the timed region"))
				}
			}
		}
	}
	return nil, nil
}

func resolvedBetweenCalls(calls []*ast.CallExpr) bool {
	for _, c := range calls {
		if resolvesKernel(cCall(c)) {
			return true
		}
	}
	return false
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

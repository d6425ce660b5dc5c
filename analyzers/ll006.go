package analyzers

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LL006 reports C.cuModuleGetLoadingMode called before CUDA is initialized
// (C.cuInit, a runtime call, or a Go function of the package that makes
// one) on the way in the same function.
var LL006 = newAnalyzer("LL006", "Looks at C.cuModuleGetLoadingMode called from Go before any call that initializes CUDA.", runLL006)

// initializesCUDA reports whether a C function initializes CUDA.
func initializesCUDA(name string) bool {
	switch {
	case name == "cuInit", name == "cuDevicePrimaryCtxRetain", strings.HasPrefix(name, "cuCtxCreate"):
		return true
	case strings.HasPrefix(name, "cuda") && len(name) > 4 && name[4] >= 'A' && name[4] <= 'Z':
		switch name {
		case "cudaGetErrorString", "cudaGetErrorName", "cudaGetLastError", "cudaPeekAtLastError", "cudaDriverGetVersion", "cudaRuntimeGetVersion":
			return false
		}
		return true
	}
	return false
}

func runLL006(pass *analysis.Pass) (any, error) {
	for _, rf := range cgoFiles(pass) {
		fns := functions(rf.file)
		inits := goFunctionsCalling(fns, initializesCUDA)
		for _, fb := range fns {
			for _, q := range fb.calls {
				if cCall(q) != "cuModuleGetLoadingMode" || initializedBefore(fb, q, inits) {
					continue
				}
				pass.Report(diagnostic("LL006", q.Pos(), q.End(),
					"cuModuleGetLoadingMode before cuInit returns CUDA_ERROR_NOT_INITIALIZED (measured on an H100); call C.cuInit(0) first",
					insertBefore(pass, fb.body, q, "C.cuInit(0)")...))
			}
		}
	}
	return nil, nil
}

// goFunctionsCalling returns the Go functions of the file that make a C
// call matching pred, directly or through each other.
func goFunctionsCalling(fns []*funcBody, pred func(string) bool) map[string]bool {
	out := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, fb := range fns {
			if fb.name == "" || out[fb.name] {
				continue
			}
			for _, c := range fb.calls {
				if pred(cCall(c)) || isCallOf(c, out) {
					out[fb.name] = true
					changed = true
					break
				}
			}
		}
	}
	return out
}

func isCallOf(c *ast.CallExpr, names map[string]bool) bool {
	switch fun := c.Fun.(type) {
	case *ast.Ident:
		return names[fun.Name]
	case *ast.SelectorExpr: // a method: s.init()
		return names[fun.Sel.Name]
	}
	return false
}

func initializedBefore(fb *funcBody, q *ast.CallExpr, inits map[string]bool) bool {
	for _, c := range fb.calls {
		if c.End() > q.Pos() {
			break
		}
		if (initializesCUDA(cCall(c)) || isCallOf(c, inits)) && runsBefore(fb.body, c, q) {
			return true
		}
	}
	return false
}

// insertBefore suggests inserting a statement before the statement that
// holds n, at its indentation.
func insertBefore(pass *analysis.Pass, body *ast.BlockStmt, n ast.Node, stmt string) []analysis.SuggestedFix {
	path := enclosing(body, n)
	for i := len(path) - 1; i >= 0; i-- {
		if _, ok := path[i].(ast.Stmt); !ok {
			continue
		}
		if i == 0 {
			break
		}
		if _, inBlock := path[i-1].(*ast.BlockStmt); !inBlock {
			continue
		}
		pos := pass.Fset.Position(path[i].Pos())
		indent := strings.Repeat("\t", max(0, pos.Column-1))
		return []analysis.SuggestedFix{{
			Message:   "initialize CUDA first",
			TextEdits: []analysis.TextEdit{{Pos: path[i].Pos(), End: path[i].Pos(), NewText: []byte(stmt + "\n" + indent)}},
		}}
	}
	return nil
}

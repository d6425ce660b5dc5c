package analyzers

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LL006 reports C.cuModuleGetLoadingMode, or a function of this or another
// package that calls it before initializing CUDA itself, called before CUDA
// is initialized (C.cuInit, a runtime call, or a Go function of any package
// that makes one) on the way in the same function.
var LL006 = newAnalyzer("LL006", "Looks at C.cuModuleGetLoadingMode, and binding functions that wrap it, called from Go before any call that initializes CUDA.", runLL006)

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
	s := summary(pass)
	if !s.relevant() {
		return nil, nil
	}
	for _, sf := range s.files {
		for _, fb := range sf.fns {
			for _, q := range fb.calls {
				ce := s.callee(sf, fb, q)
				if ce.eff == nil || !ce.eff.ModeQuery || s.initializedBefore(sf, fb, q) {
					continue
				}
				if ce.c != "" {
					pass.Report(diagnostic("LL006", q.Pos(), q.End(),
						"cuModuleGetLoadingMode before cuInit returns CUDA_ERROR_NOT_INITIALIZED (measured on an H100); call C.cuInit(0) first",
						insertBefore(pass, fb.body, q, "C.cuInit(0)")...))
					continue
				}
				pass.Report(diagnostic("LL006", q.Pos(), q.End(),
					ce.name+" calls cuModuleGetLoadingMode before anything initialized CUDA, and it returns CUDA_ERROR_NOT_INITIALIZED (measured on an H100); initialize CUDA first (cuInit, through the binding)"))
			}
		}
	}
	return nil, nil
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

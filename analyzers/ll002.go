package analyzers

import (
	"go/ast"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"golang.org/x/tools/go/analysis"
)

// LL002 reports the first launch of a kernel in a Go function timed with
// time.Now/time.Since, with no earlier launch or preload on the way.
// Launches are C.cudaLaunchKernel and the C functions of the cgo preamble
// that launch kernels (`void launch_saxpy(...) { saxpy<<<...>>>(...); }`).
// Driver-API launches through a CUfunction are not first launches:
// cuModuleGetFunction loaded the kernel.
var LL002 = newAnalyzer("LL002", "Looks at launches (C.cudaLaunchKernel and C functions of the cgo preamble that launch) between two reads of a clock from Go.", runLL002)

// preambleFunction matches a C function definition's name in a preamble.
var preambleFunction = regexp.MustCompile(`(?m)^[\w \t*]*?\b(\w+)\s*\([^;{)]*\)\s*\{`)

// launcherName matches names of C functions that launch kernels, for the
// ones the preamble only declares (defined in a .cu file of the package).
var launcherName = regexp.MustCompile(`(?i)^launch|_launch|launch_|kernel`)

// preambleDeclaration matches a C function declaration in a preamble.
var preambleDeclaration = regexp.MustCompile(`(?m)^[\w \t*]*?\b(\w+)\s*\([^;{)]*\)\s*;`)

// launchers returns the C functions of the preamble that launch kernels:
// those it defines that call a launch API or use <<<>>>, and those it
// declares whose names say they launch (launch_saxpy, run_kernel).
func launchers(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, cg := range preambles(f) {
		text := cg.Text()
		for _, m := range preambleDeclaration.FindAllStringSubmatch(text, -1) {
			if launcherName.MatchString(m[1]) {
				out[m[1]] = true
			}
		}
		locs := preambleFunction.FindAllStringSubmatchIndex(text, -1)
		for k, loc := range locs {
			end := len(text)
			if k+1 < len(locs) {
				end = locs[k+1][0]
			}
			body := text[loc[1]:end]
			if strings.Contains(body, "<<<") || strings.Contains(body, "LaunchKernel") {
				out[text[loc[2]:loc[3]]] = true
			}
		}
	}
	return out
}

// preambles returns the doc comments of the file's `import "C"`.
func preambles(f *ast.File) []*ast.CommentGroup {
	var out []*ast.CommentGroup
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Doc == nil {
			continue
		}
		for _, spec := range gd.Specs {
			if is, ok := spec.(*ast.ImportSpec); ok && is.Path.Value == `"C"` {
				out = append(out, gd.Doc)
			}
		}
	}
	return out
}

// isPreload reports whether a C call loads the kernel it names without
// launching it.
func isPreload(name string) bool { _, ok := knowledge.PreloadAPIs[name]; return ok }

func runLL002(pass *analysis.Pass) (any, error) {
	for _, rf := range cgoFiles(pass) {
		launch := launchers(rf.file)
		clock := goClock(rf.file)
		for _, fb := range functions(rf.file) {
			var reads []*ast.CallExpr
			for _, c := range fb.calls {
				if clock(c) {
					reads = append(reads, c)
				}
			}
			reported := map[*ast.CallExpr]bool{}
			for i := 0; i+1 < len(reads); i++ {
				from, to := reads[i].End(), reads[i+1].Pos()
				for _, c := range fb.calls {
					name := cCall(c)
					if c.Pos() < from || c.End() > to || reported[c] || !(launch[name] || name == "cudaLaunchKernel") {
						continue
					}
					if warmedUp(fb, c, launch) {
						continue
					}
					reported[c] = true
					pass.Report(diagnostic("LL002", c.Pos(), c.End(),
						"the first launch of "+kernelOf(c)+" in this function is timed: under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before the timer starts"))
				}
			}
		}
	}
	return nil, nil
}

// kernelOf names what a launch call launches: the launcher's name, or
// cudaLaunchKernel's first argument.
func kernelOf(c *ast.CallExpr) string {
	if cCall(c) == "cudaLaunchKernel" && len(c.Args) > 0 {
		return exprName(c.Args[0])
	}
	return cCall(c)
}

// exprName renders a kernel expression: C.saxpy, unsafe.Pointer(C.k) give C.saxpy, C.k.
func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprName(e.X) + "." + e.Sel.Name
	case *ast.CallExpr: // a conversion around the kernel
		if len(e.Args) == 1 {
			return exprName(e.Args[0])
		}
	case *ast.ParenExpr:
		return exprName(e.X)
	}
	return "?"
}

// warmedUp reports whether the same launcher (or kernel) was called, or a
// kernel preloaded, earlier on the way to c.
func warmedUp(fb *funcBody, c *ast.CallExpr, launch map[string]bool) bool {
	key := kernelOf(c)
	for _, d := range fb.calls {
		if d.End() > c.Pos() {
			break
		}
		name := cCall(d)
		same := (launch[name] || name == "cudaLaunchKernel") && kernelOf(d) == key
		if (same || isPreload(name)) && warmsUp(fb.body, d, c) {
			return true
		}
	}
	return false
}

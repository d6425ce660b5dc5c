package analyzers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"golang.org/x/tools/go/analysis"
)

// LL002 reports the first launch of a kernel in a Go function timed with
// time.Now/time.Since (or an event record, or a binding's clock), with no
// earlier launch or preload on the way. Launches are C.cudaLaunchKernel,
// the C functions of the cgo preamble that launch kernels (`void
// launch_saxpy(...) { saxpy<<<...>>>(...); }`), Go functions of any package
// that call one, and launches of a kernel handle that a lookup which does
// not load returned (cuLibraryGetKernel, a binding's lib.Kernel("k")).
// Launches of a CUfunction from cuModuleGetFunction are not first
// launches: the lookup loaded the kernel, unless the lookup itself lies
// inside the timed region.
var LL002 = newAnalyzer("LL002", "Looks at launches (C.cudaLaunchKernel, C functions of the cgo preamble that launch, and the binding functions that wrap either or launch a handle a non-loading lookup returned) between two reads of a clock from Go.", runLL002)

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
			// A declaration of the CUDA API itself (cuLaunchKernel,
			// cuLibraryGetKernel) is no launcher of the package's own.
			if launcherName.MatchString(m[1]) && !touchesCUDA(m[1]) {
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
	s := summary(pass)
	if !s.relevant() {
		return nil, nil
	}
	for _, sf := range s.files {
		clock := s.clockTest(sf)
		for _, fb := range sf.fns {
			var reads []*ast.CallExpr
			for _, c := range fb.calls {
				if clock(fb, c) {
					reads = append(reads, c)
				}
			}
			reported := map[*ast.CallExpr]bool{}
			for i := 0; i+1 < len(reads); i++ {
				from, to := reads[i].End(), reads[i+1].Pos()
				for _, c := range fb.calls {
					if c.Pos() < from || c.End() > to || reported[c] {
						continue
					}
					if msg := s.firstLaunch(sf, fb, c, from); msg != "" {
						reported[c] = true
						pass.Report(diagnostic("LL002", c.Pos(), c.End(), msg))
					}
				}
			}
		}
	}
	return nil, nil
}

// clockTest returns a test for calls that read a clock in sf: time.Now,
// time.Since and time.Until, an event record, or a function whose effects
// say it reads one (a binding's Event.Record, a time.Now wrapper).
func (s *Summary) clockTest(sf *srcFile) func(*funcBody, *ast.CallExpr) bool {
	goTime := goClock(sf.file)
	return func(fb *funcBody, c *ast.CallExpr) bool {
		if goTime(c) {
			return true
		}
		ce := s.callee(sf, fb, c)
		return ce.eff != nil && ce.eff.Clock
	}
}

const ll002Advice = "under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before the timer starts"

// firstLaunch returns the message for c, in a region timed from from,
// when c is a kernel's first launch in fb; "" otherwise.
func (s *Summary) firstLaunch(sf *srcFile, fb *funcBody, c *ast.CallExpr, from token.Pos) string {
	ce := s.callee(sf, fb, c)
	if ce.eff == nil {
		return ""
	}
	if len(ce.eff.Kernels) > 0 {
		if s.warmedUp(sf, fb, c, ce.eff.Kernels) {
			return ""
		}
		return "the first launch of " + kernelOf(c, ce) + " in this function is timed: " + ll002Advice
	}
	if ce.eff.Launch == 0 {
		return ""
	}
	x := callArg(c, ce, ce.eff.Launch)
	l := s.handleOrigin(sf, fb, x, c.Pos())
	if l == nil {
		return "" // a handle from elsewhere: taken to be loaded
	}
	lookupName := s.callee(sf, fb, l.call)
	what := types.ExprString(x)
	if l.name != "" {
		what += fmt.Sprintf(" (kernel %q)", l.name)
	}
	if l.loads {
		if l.call.Pos() < from {
			return "" // looked up, and so loaded, before the timer started
		}
		return fmt.Sprintf("%s is looked up inside the timed region by %s, which loads it (%s), so the measurement of its first launch includes loading it; look it up before the timer starts", what, lookupName.name, lookupName.eff.LookupAPI)
	}
	if s.handleWarmedUp(sf, fb, c, x) {
		return ""
	}
	return fmt.Sprintf("the first launch of %s in this function is timed, and %s does not load it (%s: the kernel loads at its first launch): %s", what, lookupName.name, lookupName.eff.LookupAPI, ll002Advice)
}

// kernelOf names what a launch call launches: the launcher's name, or
// cudaLaunchKernel's first argument.
func kernelOf(c *ast.CallExpr, ce callee) string {
	if k, ok := runtimeLaunch(ce.c); ok && k < len(c.Args) {
		return exprName(c.Args[k])
	}
	return ce.name
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

// warmedUp reports whether the kernels were launched (by any call that
// launches them: the same wrapper, another one, the C launcher), or a
// kernel preloaded, earlier on the way to c.
func (s *Summary) warmedUp(sf *srcFile, fb *funcBody, c *ast.CallExpr, kernels []string) bool {
	warm := map[string]bool{}
	if s.eachEarlierLoad(sf, fb, c, func(_ *ast.CallExpr, de callee) bool {
		for _, k := range de.eff.Kernels {
			warm[k] = true
		}
		return false
	}) {
		return true
	}
	for _, k := range kernels {
		if !warm[k] {
			return false
		}
	}
	return true
}

// handleWarmedUp reports whether the handle x was launched, or a kernel
// preloaded, earlier on the way to c.
func (s *Summary) handleWarmedUp(sf *srcFile, fb *funcBody, c *ast.CallExpr, x ast.Expr) bool {
	key := types.ExprString(x)
	return s.eachEarlierLoad(sf, fb, c, func(d *ast.CallExpr, de callee) bool {
		if de.eff.Launch == 0 {
			return false
		}
		y := callArg(d, de, de.eff.Launch)
		return y != nil && types.ExprString(y) == key
	})
}

// eachEarlierLoad calls visit for each call of fb that runs on every path
// to c before it and whose callee does something to kernels, in order,
// until visit returns true. It reports whether one did, or a call on the
// way preloads (which lazylint takes as loading every kernel).
func (s *Summary) eachEarlierLoad(sf *srcFile, fb *funcBody, c *ast.CallExpr, visit func(d *ast.CallExpr, de callee) bool) bool {
	for _, d := range fb.calls {
		if d.End() > c.Pos() {
			break
		}
		de := s.callee(sf, fb, d)
		if de.eff == nil || !warmsUp(fb.body, d, c) {
			continue
		}
		if de.eff.Preload || visit(d, de) {
			return true
		}
	}
	return false
}

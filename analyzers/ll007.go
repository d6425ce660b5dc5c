package analyzers

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"golang.org/x/tools/go/analysis"
)

// LL007 reports CUDA_MODULE_LOADING or CUDA_MODULE_DATA_LOADING set from Go
// (os.Setenv, syscall.Setenv, C.setenv, C.putenv) after a CUDA call in the
// same function (a C call, or a call of a function of any package that
// makes one, such as a binding's cu.Init()), or set to a value CUDA does
// not know.
var LL007 = newAnalyzer("LL007", "Looks at os.Setenv, syscall.Setenv, C.setenv and C.putenv of CUDA_MODULE_LOADING from Go.", runLL007)

// touchesCUDA reports whether a C function is part of the CUDA runtime or
// driver API (a call of one initializes CUDA).
func touchesCUDA(name string) bool {
	if strings.HasPrefix(name, "cuda") && len(name) > 4 && name[4] >= 'A' && name[4] <= 'Z' {
		return !strings.HasPrefix(name, "cudaGetError")
	}
	return strings.HasPrefix(name, "cu") && len(name) > 2 && name[2] >= 'A' && name[2] <= 'Z' && !strings.HasPrefix(name, "cuGetError")
}

func runLL007(pass *analysis.Pass) (any, error) {
	s := summary(pass)
	if !s.relevant() {
		return nil, nil
	}
	for _, sf := range s.files {
		consts := stringConstants(sf.file)
		setters := setterNames(sf.file)
		for _, fb := range sf.fns {
			for _, c := range fb.calls {
				name, value, hasValue, ok := envSetting(c, setters, consts)
				if !ok || !knowledge.LoadingVariables[name] {
					continue
				}
				if by := s.cudaBefore(sf, fb, c); by != nil {
					pass.Report(diagnostic("LL007", c.Pos(), c.End(), fmt.Sprintf(
						"%s is set after CUDA was initialized (by the call at line %d): CUDA reads it once, at initialization, so this has no effect; set it before the first CUDA call or in the environment that starts the program",
						name, pass.Fset.Position(by.Pos()).Line)))
					continue
				}
				if hasValue && !knowledge.LoadingModes[value] {
					pass.Report(diagnostic("LL007", c.Pos(), c.End(), fmt.Sprintf(
						"%s is set to %q, which CUDA does not know (LAZY, EAGER or DEFAULT): the setting is ignored", name, value)))
				}
			}
		}
	}
	return nil, nil
}

// setterNames returns the call spellings that set an environment variable
// in this file: os.Setenv and syscall.Setenv under their import names,
// C.setenv and C.putenv.
func setterNames(f *ast.File) map[string]bool {
	out := map[string]bool{"C.setenv": true, "C.putenv": true, "C._putenv_s": true}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != "os" && path != "syscall" {
			continue
		}
		name := path
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[name+".Setenv"] = true
	}
	return out
}

// envSetting recognises a call that sets an environment variable and
// returns the name and, when known, the value.
func envSetting(c *ast.CallExpr, setters map[string]bool, consts map[string]string) (name, value string, hasValue, ok bool) {
	sel, isSel := c.Fun.(*ast.SelectorExpr)
	if !isSel {
		return "", "", false, false
	}
	x, isIdent := sel.X.(*ast.Ident)
	if !isIdent || !setters[x.Name+"."+sel.Sel.Name] || len(c.Args) == 0 {
		return "", "", false, false
	}
	name, ok = stringValue(c.Args[0], consts)
	if !ok {
		return "", "", false, false
	}
	if sel.Sel.Name == "putenv" {
		n, v, found := strings.Cut(name, "=")
		return n, v, found, true
	}
	if len(c.Args) > 1 {
		value, hasValue = stringValue(c.Args[1], consts)
	}
	return name, value, hasValue, true
}

// stringValue returns the value of a string literal, a constant of the
// file, or either wrapped in C.CString.
func stringValue(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	case *ast.CallExpr:
		if cCall(e) == "CString" && len(e.Args) == 1 {
			return stringValue(e.Args[0], consts)
		}
	case *ast.ParenExpr:
		return stringValue(e.X, consts)
	}
	return "", false
}

// stringConstants returns the file's string constants by name.
func stringConstants(f *ast.File) map[string]string {
	out := map[string]string{}
	eachConstant(f, func(name string, value ast.Expr) {
		if lit, ok := value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out[name] = s
			}
		}
	})
	return out
}

// cudaBefore returns a call in fb that touches CUDA (directly, or through a
// function of any package that does) and runs on every path before c, or
// nil.
func (s *Summary) cudaBefore(sf *srcFile, fb *funcBody, c *ast.CallExpr) *ast.CallExpr {
	for _, d := range fb.calls {
		if d.End() > c.Pos() {
			break
		}
		if de := s.callee(sf, fb, d); de.eff != nil && de.eff.Touch && runsBefore(fb.body, d, c) {
			return d
		}
	}
	return nil
}

// Package analyzers holds go/analysis passes that find CUDA lazy-loading
// hazards in Go code calling CUDA through cgo, directly or through binding
// packages (Bindings). They import neither tree-sitter nor cgo, so every
// driver can load them: go vet (cmd/lazylint-vet), golangci-lint and
// lazylint check (analyzers/syntaxdriver).
//
// The files a pass type-checks are cgo's rewrites (`_Cfunc_cuInit`, moved
// columns), so the analyzers re-parse the raw .go files of the package
// into the pass's file set and report positions there, as x/tools'
// cgocall pass does. They use no type information (see resolve.go), so
// every driver gives the same findings.
package analyzers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// packageFiles returns the package's .go files as written, sorted by
// name. Under go vet and golangci-lint the pass holds cgo's rewrites of the
// files that import "C" (positions moved by //line, calls renamed
// _Cfunc_...), so those are read and parsed again; lazylint check hands the
// raw files themselves (which may be an editor's unsaved text),
// recognizable by their import of "C". Files without cgo are the pass's own.
func packageFiles(pass *analysis.Pass) []*srcFile {
	seen := map[string]bool{}
	type named struct {
		name string
		sf   *srcFile
	}
	var out []named
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf == nil {
			continue
		}
		name := pass.Fset.Position(f.Package).Filename // through //line
		if !strings.HasSuffix(name, ".go") || seen[name] || strings.HasPrefix(filepath.Base(tf.Name()), "_cgo_") {
			continue
		}
		seen[name] = true
		switch {
		case importsC(f):
			out = append(out, named{name, &srcFile{file: f, cgo: true}})
		case tf.Name() != name:
			// cgo's rewrite of name: the raw file is not one of the pass's
			// own, so the pass's ReadFile does not serve it.
			src, err := os.ReadFile(name)
			if err != nil {
				continue
			}
			raw, err := parser.ParseFile(pass.Fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				continue
			}
			out = append(out, named{name, &srcFile{file: raw, cgo: importsC(raw)}})
		default:
			out = append(out, named{name, &srcFile{file: f}})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	files := make([]*srcFile, len(out))
	for i, n := range out {
		files[i] = n.sf
	}
	return files
}

func importsC(f *ast.File) bool {
	for _, imp := range f.Imports {
		if importPath(imp) == "C" {
			return true
		}
	}
	return false
}

func importPath(imp *ast.ImportSpec) string {
	p, _ := strconv.Unquote(imp.Path.Value)
	return p
}

// cCall returns the C function a call expression calls (`C.cuInit(0)`
// gives "cuInit"), or "".
func cCall(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if id, ok := sel.X.(*ast.Ident); ok && id.Name == "C" {
		return sel.Sel.Name
	}
	return ""
}

// funcBody is one function (declaration or literal) and its calls in
// source order.
type funcBody struct {
	name string // "" for function literals
	key  string // "F" or "T.M" for declarations
	node ast.Node
	body *ast.BlockStmt
	// outer is the function around a literal; decl the declaration
	// around it (itself for a declaration; nil for a literal outside any).
	outer, decl *funcBody
	calls       []*ast.CallExpr
	locals      map[string]bool // names the body declares, once asked
	file        *srcFile        // the file, once declared
}

// functions lists the functions of a file with their calls, each call
// belonging to its innermost function.
func functions(f *ast.File) []*funcBody {
	var out []*funcBody
	var stack []*funcBody
	var current []*funcBody // the functions around, innermost last
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			if top := stack[len(stack)-1]; top != nil {
				current = current[:len(current)-1]
			}
			stack = stack[:len(stack)-1]
			return true
		}
		var fb *funcBody
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			fb = &funcBody{name: n.Name.Name, key: funcKey(n), node: n, body: n.Body}
			fb.decl = fb
		case *ast.FuncLit:
			fb = &funcBody{node: n, body: n.Body}
			if len(current) > 0 {
				fb.outer = current[len(current)-1]
				fb.decl = fb.outer.decl
			}
		case *ast.CallExpr:
			if len(current) > 0 {
				in := current[len(current)-1]
				in.calls = append(in.calls, n)
			}
		}
		stack = append(stack, fb)
		if fb != nil {
			out = append(out, fb)
			current = append(current, fb)
		}
		return true
	})
	return out
}

// runsBefore reports whether a, earlier in the same function body, runs on
// every path to b: no if, switch, select, loop body or function literal
// between a and the construct that holds both.
func runsBefore(body *ast.BlockStmt, a, b ast.Node) bool { return onTheWay(body, a, b, false) }

// warmsUp is runsBefore with loops taken to run: a warm-up loop warms up.
func warmsUp(body *ast.BlockStmt, a, b ast.Node) bool { return onTheWay(body, a, b, true) }

func onTheWay(body *ast.BlockStmt, a, b ast.Node, loopsRun bool) bool {
	if a.End() > b.Pos() {
		return false
	}
	path := enclosing(body, a)
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.Pos() <= b.Pos() && b.End() <= n.End() {
			return true
		}
		switch n := n.(type) {
		case *ast.IfStmt:
			if !within(n.Init, a) && !within(n.Cond, a) {
				return false
			}
		case *ast.ForStmt:
			if !loopsRun && !within(n.Init, a) {
				return false
			}
		case *ast.RangeStmt:
			if !loopsRun {
				return false
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt,
			*ast.CaseClause, *ast.CommClause, *ast.FuncLit:
			return false
		}
	}
	return true
}

func within(n, x ast.Node) bool {
	return n != nil && n.Pos() <= x.Pos() && x.End() <= n.End()
}

// enclosing returns the nodes from body down to (not including) x.
func enclosing(body *ast.BlockStmt, x ast.Node) []ast.Node {
	var path []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || n == x {
			return false
		}
		if n.Pos() <= x.Pos() && x.End() <= n.End() {
			path = append(path, n)
			return true
		}
		return false
	})
	return path
}

// diagnostic builds a diagnostic whose message starts with the rule ID and
// whose category is the rule ID.
func diagnostic(id string, pos, end token.Pos, msg string, fixes ...analysis.SuggestedFix) analysis.Diagnostic {
	return analysis.Diagnostic{Pos: pos, End: end, Category: id, Message: id + " " + msg, SuggestedFixes: fixes}
}

// eachConstant calls fn for each constant of the file that has a value.
func eachConstant(f *ast.File, fn func(name string, value ast.Expr)) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs, ok := spec.(*ast.ValueSpec)
			if !ok {
				continue
			}
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					fn(n.Name, vs.Values[i])
				}
			}
		}
	}
}

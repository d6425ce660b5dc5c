// Package analyzers holds go/analysis passes that find CUDA lazy-loading
// hazards in Go code calling CUDA through cgo. They import neither
// tree-sitter nor cgo, so every driver can load them: go vet
// (cmd/lazylint-vet), golangci-lint and lazylint check.
//
// The files a pass type-checks are cgo's rewrites (`_Cfunc_cuInit`, moved
// columns), so each analyzer re-parses the raw .go files of the package
// into the pass's file set and reports positions there, as x/tools'
// cgocall pass does.
package analyzers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// rawFile is a .go file of the package as written, with `import "C"`.
type rawFile struct {
	file *ast.File
	// cName is the name the file imports "C" under (always "C").
	cName string
}

// cgoFiles returns the raw files of the pass that import "C". Under go vet
// and golangci-lint the pass holds cgo's rewrites, so the raw files are read
// and parsed again; lazylint check hands the raw files themselves (which may
// be an editor's unsaved text), recognizable by their import of "C".
func cgoFiles(pass *analysis.Pass) []rawFile {
	seen := map[string]bool{}
	var names []string
	raw := map[string]*ast.File{}
	for _, f := range pass.Files {
		name := pass.Fset.Position(f.Pos()).Filename
		if !strings.HasSuffix(name, ".go") || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
		if importsC(f) {
			raw[name] = f
		}
	}
	sort.Strings(names)
	var out []rawFile
	for _, name := range names {
		if f := raw[name]; f != nil {
			out = append(out, rawFile{file: f, cName: "C"})
			continue
		}
		// The raw file is not one of the pass's own (those are cgo's
		// rewrites), so the pass's ReadFile does not serve it.
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		f, err := parser.ParseFile(pass.Fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil || !importsC(f) {
			continue
		}
		out = append(out, rawFile{file: f, cName: "C"})
	}
	return out
}

func importsC(f *ast.File) bool {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "C" {
			return true
		}
	}
	return false
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
	name  string // "" for function literals
	node  ast.Node
	body  *ast.BlockStmt
	calls []*ast.CallExpr
}

// functions lists the functions of a file with their calls, each call
// belonging to its innermost function.
func functions(f *ast.File) []*funcBody {
	var out []*funcBody
	var stack []*funcBody
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		var fb *funcBody
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body == nil {
				return false
			}
			fb = &funcBody{name: n.Name.Name, node: n, body: n.Body}
		case *ast.FuncLit:
			fb = &funcBody{node: n, body: n.Body}
		case *ast.CallExpr:
			// The innermost function: the stack holds nil for other nodes.
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i] != nil {
					stack[i].calls = append(stack[i].calls, n)
					break
				}
			}
		}
		if fb != nil {
			out = append(out, fb)
			stack = append(stack, fb)
		} else {
			stack = append(stack, nil)
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

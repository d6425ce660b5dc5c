package analyzers

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// Calls are resolved from syntax alone, the same way under every driver:
// lazylint check runs without types (packages that need CUDA headers to
// build are checked all the same), and go vet and golangci-lint must give
// the same findings. So a call's target is found by name:
//
//   - C.f: a C function, judged by knowledge (cEffects);
//   - f(...), pkg.F(...): a function of this package, or of the import
//     that the file names pkg (its BindingFact, or a seed for a well-known
//     binding outside the checked tree);
//   - x.M(...): a method. When x's type can be read from declarations
//     (a parameter or receiver, `var x T`, `x := T{}`, `x := pkg.F()` whose
//     fact says F returns T, a field of a struct of this package, promoted
//     or not, an element of a slice or map) the method is T.M of T's
//     package. Otherwise it is M only when every method of that name, in
//     this package and in the packages it imports that have facts, takes
//     the same number of arguments and does the same thing, and M is not
//     one of the names common types of the standard library also use
//     (Load, Store, Close...): a value of unknown type is never taken for a
//     binding's handle on the strength of a name sync.Map or atomic.Value
//     share.

// callee is what a call expression calls.
type callee struct {
	name string   // as written, for messages: cuMemAlloc (a C call), cubind.MemAlloc, m.Function
	key  string   // qualified: "example.com/cubind.MemAlloc", "example.com/cubind.Module.Function"
	pkg  string   // the path of the package that declares it
	c    string   // the C function, for a C call
	eff  *Effects // nil when nothing is known
	recv ast.Expr // the receiver expression of a method call
}

// genericMethodNames are methods of common standard-library types; a call
// of one on a value of unknown type is not matched by name.
var genericMethodNames = map[string]bool{
	"Load": true, "Store": true, "Swap": true, "CompareAndSwap": true, "Add": true, "Delete": true, "Range": true,
	"Do": true, "Close": true, "Wait": true, "Lock": true, "Unlock": true, "Get": true, "Set": true, "Put": true,
	"Reset": true, "Run": true, "Start": true, "Stop": true, "String": true, "Error": true, "Len": true,
	"Read": true, "Write": true, "Init": true, "Free": true, "Done": true,
}

// callee resolves a call made in fb, a function of sf. Once every
// function's effects are known, answers are kept: the rules ask about the
// same calls many times. The rules run in parallel on one Summary (go vet,
// golangci-lint), and resolving fills caches, so it holds s.mu.
func (s *Summary) callee(sf *srcFile, fb *funcBody, c *ast.CallExpr) callee {
	if !s.solved {
		return s.resolve(sf, fb, c) // Bindings' own run: one goroutine
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cachedCallee(sf, fb, c)
}

// cachedCallee is callee with s.mu held (or while solving).
func (s *Summary) cachedCallee(sf *srcFile, fb *funcBody, c *ast.CallExpr) callee {
	if !s.solved {
		return s.resolve(sf, fb, c)
	}
	if ce, ok := s.callees[c]; ok {
		return ce
	}
	ce := s.resolve(sf, fb, c)
	s.callees[c] = ce
	return ce
}

func (s *Summary) resolve(sf *srcFile, fb *funcBody, c *ast.CallExpr) callee {
	fun := ast.Unparen(c.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok { // F[T](...)
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	switch fun := fun.(type) {
	case *ast.Ident:
		if d := s.decls[fun.Name]; d != nil && d.Recv == nil {
			return callee{name: fun.Name, key: s.Path + "." + fun.Name, pkg: s.Path, eff: s.effects[fun.Name]}
		}
	case *ast.SelectorExpr:
		if x, ok := fun.X.(*ast.Ident); ok {
			if x.Name == "C" && sf.cgo {
				return s.cCallee(sf, c, fun.Sel.Name)
			}
			if path, ok := sf.imports[x.Name]; ok {
				eff := s.importedFunc(path, fun.Sel.Name)
				if eff == nil || !s.isLocalVar(fb, x.Name) {
					return callee{name: x.Name + "." + fun.Sel.Name, key: path + "." + fun.Sel.Name, pkg: path, eff: eff}
				}
			}
		}
		return s.method(sf, fb, c, fun)
	}
	return callee{}
}

// cCallee is a call of the C function name.
func (s *Summary) cCallee(sf *srcFile, c *ast.CallExpr, name string) callee {
	e := cEffects(name, sf.launchers[name], s.Path+".C."+name)
	if k, ok := runtimeLaunch(name); ok && k < len(c.Args) {
		e.Kernels = []string{s.Path + "." + exprName(c.Args[k])}
		e.API = name
	}
	out := callee{name: name, key: s.Path + ".C." + name, pkg: s.Path, c: name}
	if e.cuda() {
		out.eff = &e
	}
	return out
}

// method resolves x.M(...).
func (s *Summary) method(sf *srcFile, fb *funcBody, c *ast.CallExpr, sel *ast.SelectorExpr) callee {
	m := sel.Sel.Name
	out := callee{name: types.ExprString(sel), recv: sel.X}
	if !s.interesting[m] {
		return out // no function of that name does anything the rules see
	}
	if pkg, typ, ok := s.typeOf(sf, fb, sel.X, c.Pos(), 0); ok {
		out.key, out.pkg = pkg+"."+typ+"."+m, pkg
		var f map[string]*Effects
		if pkg == s.Path {
			f = s.localMethods()
		} else if bf := s.fact(pkg); bf != nil {
			f = bf.table()
		}
		if f == nil {
			return out // a type of a package that calls no CUDA
		}
		if e, ok := f[typ+"."+m]; ok {
			out.eff = e
			return out
		}
		// A promoted method: the only one of that name in the package.
		if e, key := uniqueMethod(m, len(c.Args), []pkgFact{{pkg, f}}); e != nil {
			out.eff, out.key = e, key
		}
		return out
	}
	if genericMethodNames[m] {
		return out
	}
	cands := []pkgFact{{s.Path, s.localMethods()}}
	for _, path := range s.importPaths() {
		if f := s.fact(path); f != nil {
			cands = append(cands, pkgFact{path, f.table()})
		}
	}
	if e, key := uniqueMethod(m, len(c.Args), cands); e != nil {
		out.eff, out.key, out.pkg = e, key, key[:strings.LastIndexByte(key[:strings.LastIndexByte(key, '.')], '.')]
	}
	return out
}

// pkgFact is a package's path and its effects by key.
type pkgFact struct {
	path  string
	funcs map[string]*Effects
}

// uniqueMethod returns the effects and qualified key of the methods named
// m in facts when they are all the same and take nargs arguments.
func uniqueMethod(m string, nargs int, facts []pkgFact) (*Effects, string) {
	var found *Effects
	var foundKey string
	for _, pf := range facts {
		for key, e := range pf.funcs {
			dot := strings.IndexByte(key, '.')
			if dot < 0 || key[dot+1:] != m {
				continue
			}
			if nargs != e.Params && !(e.Variadic && nargs >= e.Params-1) {
				return nil, ""
			}
			if found != nil && !reflect.DeepEqual(found, e) {
				return nil, ""
			}
			if found == nil || pf.path+"."+key < foundKey {
				foundKey = pf.path + "." + key
			}
			found = e
		}
	}
	if !found.cuda() {
		return nil, ""
	}
	return found, foundKey
}

// localMethods returns this package's methods' effects, by "T.M".
func (s *Summary) localMethods() map[string]*Effects {
	if s.methodTable == nil {
		s.methodTable = map[string]*Effects{}
		for key, d := range s.decls {
			if d.Recv != nil {
				s.methodTable[key] = s.effects[key]
			}
		}
	}
	return s.methodTable
}

// importedFunc returns the effects of function name of the package path.
func (s *Summary) importedFunc(path, name string) *Effects {
	if f := s.fact(path); f != nil {
		return f.table()[name]
	}
	return nil
}

// fact returns the binding fact of an imported package, or nil.
func (s *Summary) fact(path string) *BindingFact { return s.imported[path] }

// isLocalVar reports whether name is declared in fb or a function around
// it (a variable that shadows an import).
func (s *Summary) isLocalVar(fb *funcBody, name string) bool {
	for f := fb; f != nil; f = f.outer {
		if _, ok := paramType(f, name); ok || f.declared()[name] {
			return true
		}
	}
	return false
}

// declared returns the names a function's body declares (:= or var),
// computed once.
func (fb *funcBody) declared() map[string]bool {
	if fb.locals != nil {
		return fb.locals
	}
	fb.locals = map[string]bool{}
	ast.Inspect(fb.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				return true
			}
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					fb.locals[id.Name] = true
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				fb.locals[id.Name] = true
			}
		}
		return true
	})
	return fb.locals
}

const maxTypeDepth = 6

// typeOf returns the named type (its package path and name) of e at pos in
// fb, when declarations say it.
func (s *Summary) typeOf(sf *srcFile, fb *funcBody, e ast.Expr, pos token.Pos, depth int) (string, string, bool) {
	if depth > maxTypeDepth {
		return "", "", false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if t := s.varTypeExpr(sf, fb, x.Name, pos); t.expr != nil {
			return s.namedType(t.sf, t.expr)
		}
		return s.varOrigin(sf, fb, x.Name, pos, depth)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return s.typeOf(sf, fb, x.X, pos, depth+1)
		}
	case *ast.StarExpr:
		return s.typeOf(sf, fb, x.X, pos, depth+1)
	case *ast.CompositeLit:
		return s.namedType(sf, x.Type)
	case *ast.SelectorExpr:
		if t := s.exprTypeExpr(sf, fb, x, pos, depth); t.expr != nil {
			return s.namedType(t.sf, t.expr)
		}
	case *ast.IndexExpr:
		if t := s.exprTypeExpr(sf, fb, x.X, pos, depth+1); t.expr != nil {
			return s.namedType(t.sf, elemType(t.expr))
		}
	case *ast.CallExpr:
		return s.resultType(sf, fb, x, 0)
	}
	return "", "", false
}

// exprTypeExpr returns the declared type of a variable or a field chain
// (x, x.f, x.f.g, fields promoted from embedded structs of this package).
func (s *Summary) exprTypeExpr(sf *srcFile, fb *funcBody, e ast.Expr, pos token.Pos, depth int) typeRef {
	if depth > maxTypeDepth {
		return typeRef{}
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return s.varTypeExpr(sf, fb, x.Name, pos)
	case *ast.SelectorExpr:
		pkg, typ, ok := s.typeOf(sf, fb, x.X, pos, depth+1)
		if !ok || pkg != s.Path {
			return typeRef{}
		}
		return s.field(typ, x.Sel.Name, 0)
	case *ast.StarExpr:
		return s.exprTypeExpr(sf, fb, x.X, pos, depth+1)
	}
	return typeRef{}
}

// field returns the type of field name of the struct typ of this package,
// or of a struct it embeds.
func (s *Summary) field(typ, name string, depth int) typeRef {
	if t, ok := s.fields[typ][name]; ok {
		return t
	}
	if depth > maxTypeDepth {
		return typeRef{}
	}
	for _, emb := range s.embedded[typ] {
		if pkg, inner, ok := s.namedType(emb.sf, emb.expr); ok && pkg == s.Path {
			if t := s.field(inner, name, depth+1); t.expr != nil {
				return t
			}
		}
	}
	return typeRef{}
}

// elemType is the element type of a slice, array, map or pointer to one.
func elemType(t ast.Expr) ast.Expr {
	switch t := t.(type) {
	case *ast.ArrayType:
		return t.Elt
	case *ast.MapType:
		return t.Value
	case *ast.StarExpr:
		return elemType(t.X)
	}
	return nil
}

// namedType returns the package and name of a type expression T, *T,
// pkg.T or T[A].
func (s *Summary) namedType(sf *srcFile, t ast.Expr) (string, string, bool) {
	switch x := t.(type) {
	case *ast.StarExpr:
		return s.namedType(sf, x.X)
	case *ast.ParenExpr:
		return s.namedType(sf, x.X)
	case *ast.IndexExpr:
		return s.namedType(sf, x.X)
	case *ast.IndexListExpr:
		return s.namedType(sf, x.X)
	case *ast.Ident:
		if s.types[x.Name] {
			return s.Path, x.Name, true
		}
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			if path, ok := sf.imports[pkg.Name]; ok {
				return path, x.Sel.Name, true
			}
		}
	}
	return "", "", false
}

// paramType returns the declared type of a parameter, result or receiver
// of fb named name.
func paramType(fb *funcBody, name string) (ast.Expr, bool) {
	var ft *ast.FuncType
	var recv *ast.FieldList
	switch n := fb.node.(type) {
	case *ast.FuncDecl:
		ft, recv = n.Type, n.Recv
	case *ast.FuncLit:
		ft = n.Type
	}
	for _, fl := range []*ast.FieldList{recv, ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if n.Name == name {
					return f.Type, true
				}
			}
		}
	}
	return nil, false
}

// varTypeExpr returns the declared type of a variable: a parameter, a
// `var x T`, or a package-level variable.
func (s *Summary) varTypeExpr(sf *srcFile, fb *funcBody, name string, pos token.Pos) typeRef {
	for f := fb; f != nil; f = f.outer {
		if t, ok := paramType(f, name); ok {
			return typeRef{t, sf}
		}
		var out ast.Expr
		ast.Inspect(f.body, func(n ast.Node) bool {
			if n == nil || n.Pos() >= pos {
				return false
			}
			if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil {
				for _, id := range vs.Names {
					if id.Name == name {
						out = vs.Type
					}
				}
			}
			return true
		})
		if out != nil {
			return typeRef{out, sf}
		}
	}
	return s.vars[name]
}

// varOrigin infers a variable's type from its definition: x := T{...},
// x := &T{...}, x := new(T), x, err := pkg.F() with F's result type known,
// x := &y[i] with y's element type known.
func (s *Summary) varOrigin(sf *srcFile, fb *funcBody, name string, pos token.Pos, depth int) (string, string, bool) {
	for f := fb; f != nil; f = f.outer {
		var rhs ast.Expr
		index := 0
		ast.Inspect(f.body, func(n ast.Node) bool {
			if n == nil || n.Pos() >= pos {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); !ok || id.Name != name {
					continue
				}
				switch {
				case len(as.Rhs) == len(as.Lhs):
					rhs, index = as.Rhs[i], 0
				case len(as.Rhs) == 1:
					rhs, index = as.Rhs[0], i
				}
			}
			return true
		})
		if rhs == nil {
			continue
		}
		if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "new" && len(call.Args) == 1 {
				return s.namedType(sf, call.Args[0])
			}
			return s.resultType(sf, f, call, index)
		}
		if index == 0 {
			return s.typeOf(sf, f, rhs, pos, depth+1)
		}
		return "", "", false
	}
	return "", "", false
}

// resultType is the named type of result i of a call, from the callee's
// effects (declared result types of its own package).
func (s *Summary) resultType(sf *srcFile, fb *funcBody, c *ast.CallExpr, i int) (string, string, bool) {
	ce := s.cachedCallee(sf, fb, c) // inside resolve: s.mu is held
	if ce.eff == nil || i >= len(ce.eff.Results) || ce.eff.Results[i] == "" || ce.c != "" {
		return "", "", false
	}
	return ce.pkg, ce.eff.Results[i], true
}

// stringLit returns the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.STRING {
		v, err := strconv.Unquote(lit.Value)
		return v, err == nil
	}
	return "", false
}

package analyzers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Go programs rarely call C.cuMemAlloc themselves: they call a binding
// package (cu.MemInfo(), cu.MemAlloc(n), mod, _ := cu.LoadData(ptx),
// fn, _ := mod.Function("k"), fn.Launch(...)). Bindings summarizes what
// each function and method of a package does with CUDA (Effects), from its
// cgo calls and from the facts of the packages it calls, and exports the
// summaries as one package fact, keyed by function name ("F") and method
// ("T.M"). Every rule requires it and judges calls of those functions as
// it judges the C calls they wrap, in any package that imports them,
// directly or through other wrappers.
//
// The fact is a package fact keyed by names, not object facts: lazylint
// check runs the analyzers without types, over folders in import order,
// with a types.Package stub per folder; names are what it can match. go vet
// (unitchecker) and golangci-lint carry the same fact between packages.

// BindingFact is what the functions and methods of a package do with CUDA.
type BindingFact struct {
	// Name is the package's name (the default import name).
	Name string
	// Funcs holds the functions with effects by name, and every method by
	// "T.M" (those without effects too: a method of unknown receiver is
	// matched by its name only when no other method shares it), sorted by
	// key: a fact's encoding must not depend on a map's order.
	Funcs []Func
	index map[string]*Effects
}

// Func is one function's or method's effects.
type Func struct {
	Key     string
	Effects Effects
}

// AFact marks BindingFact as a go/analysis fact.
func (*BindingFact) AFact() {}

// table returns the effects by key.
func (f *BindingFact) table() map[string]*Effects {
	if f.index == nil {
		f.index = make(map[string]*Effects, len(f.Funcs))
		for i := range f.Funcs {
			f.index[f.Funcs[i].Key] = &f.Funcs[i].Effects
		}
	}
	return f.index
}

// newFact returns the fact of a package's effects.
func newFact(name string, effects map[string]*Effects) *BindingFact {
	f := &BindingFact{Name: name}
	for k, e := range effects {
		f.Funcs = append(f.Funcs, Func{Key: k, Effects: *e})
	}
	sort.Slice(f.Funcs, func(i, j int) bool { return f.Funcs[i].Key < f.Funcs[j].Key })
	return f
}

// String lists the functions that do something, sorted: what the facts'
// tests match.
func (f *BindingFact) String() string {
	var b strings.Builder
	for _, fn := range f.Funcs {
		if !fn.Effects.cuda() {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", fn.Key, &fn.Effects)
	}
	return b.String()
}

// Bindings computes the package's Summary and exports its BindingFact.
var Bindings = &analysis.Analyzer{
	Name:             "cudabindings",
	Doc:              "summarizes what the functions of a package do with CUDA (directly through cgo or through other binding packages) for lazylint's rules",
	Run:              runBindings,
	RunDespiteErrors: true,
	FactTypes:        []analysis.Fact{new(BindingFact)},
	ResultType:       reflect.TypeFor[*Summary](),
}

// Summary is the Bindings result: the package's files as written and what
// its functions do, with the facts of the packages it imports.
type Summary struct {
	// Path is the package's import path.
	Path  string
	files []*srcFile
	// decls are the package's functions ("F") and methods ("T.M").
	decls   map[string]*ast.FuncDecl
	effects map[string]*Effects
	// bodies are the decls' function bodies, with their closures.
	bodies map[string][]*funcBody
	// types, fields, embedded, vars: the package's named types, their
	// struct fields' types, the types they embed, package-level variables'
	// types (each with the file that declares it, whose imports name its
	// packages).
	types    map[string]bool
	fields   map[string]map[string]typeRef
	embedded map[string][]typeRef
	vars     map[string]typeRef
	// imported are the facts of the imported packages, by path.
	imported map[string]*BindingFact
	// interesting are the names of functions and methods that do
	// something, here or in an import: calls of others are not resolved.
	interesting map[string]bool
	methodTable map[string]*Effects
	allImports  []string
	fset        *token.FileSet
	mu          sync.Mutex
	// solved: every function's effects are final; callees then caches
	// the resolution of each call.
	solved  bool
	callees map[*ast.CallExpr]callee
	clocks  map[*funcBody]bool
}

// relevant reports whether the package touches CUDA at all: a cgo file, or
// an import with facts. The rules return at once when it does not.
func (s *Summary) relevant() bool {
	if s == nil {
		return false
	}
	for _, sf := range s.files {
		if sf.cgo {
			return true
		}
	}
	return len(s.imported) > 0
}

// srcFile is one .go file of the package as written.
type srcFile struct {
	file *ast.File
	cgo  bool
	// imports map the file's import names to paths.
	imports   map[string]string
	launchers map[string]bool
	fns       []*funcBody
}

func (sf *srcFile) importPaths() []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range sf.imports {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// importPaths lists the packages any file of the package imports.
func (s *Summary) importPaths() []string {
	if s.allImports == nil {
		seen := map[string]bool{}
		for _, sf := range s.files {
			for _, p := range sf.importPaths() {
				if !seen[p] {
					seen[p] = true
					s.allImports = append(s.allImports, p)
				}
			}
		}
		sort.Strings(s.allImports)
	}
	return s.allImports
}

func summary(pass *analysis.Pass) *Summary {
	s, _ := pass.ResultOf[Bindings].(*Summary)
	return s
}

func runBindings(pass *analysis.Pass) (any, error) {
	s := &Summary{
		decls: map[string]*ast.FuncDecl{}, effects: map[string]*Effects{}, bodies: map[string][]*funcBody{},
		types: map[string]bool{}, fields: map[string]map[string]typeRef{}, embedded: map[string][]typeRef{},
		vars: map[string]typeRef{}, imported: map[string]*BindingFact{}, interesting: map[string]bool{}, clocks: map[*funcBody]bool{},
	}
	if pass.Pkg != nil {
		s.Path = pass.Pkg.Path()
	}
	s.fset = pass.Fset
	s.files = packageFiles(pass)
	s.importFacts(pass)
	if !s.relevant() {
		return s, nil
	}
	var fromSources map[string]bool
	if len(s.files) > 0 {
		fromSources = sourceLaunchers(fileDir(s, s.files[0].file), s.files)
	}
	for _, sf := range s.files {
		s.declare(sf, fromSources)
	}
	s.solve()
	s.solved, s.callees = true, map[*ast.CallExpr]callee{}
	kept := map[string]*Effects{}
	touches := false
	for key, e := range s.effects {
		if e.cuda() || s.decls[key].Recv != nil {
			kept[key] = e
		}
		touches = touches || e.cuda()
	}
	if touches && pass.Pkg != nil {
		pass.ExportPackageFact(newFact(packageName(pass, s), kept))
	}
	return s, nil
}

func packageName(pass *analysis.Pass, s *Summary) string {
	if pass.Pkg != nil && pass.Pkg.Name() != "" {
		return pass.Pkg.Name()
	}
	if len(s.files) > 0 {
		return s.files[0].file.Name.Name
	}
	return ""
}

// importFacts reads the facts of the packages the files import, and
// gives each file its import names.
func (s *Summary) importFacts(pass *analysis.Pass) {
	pkgs := map[string]*types.Package{}
	if pass.Pkg != nil {
		for _, p := range pass.Pkg.Imports() {
			pkgs[p.Path()] = p
		}
	}
	for _, sf := range s.files {
		sf.imports = map[string]string{}
		for _, imp := range sf.file.Imports {
			path := importPath(imp)
			if path == "C" || path == "" {
				continue
			}
			f := s.importedFact(pass, pkgs[path], path)
			name := defaultImportName(path)
			switch {
			case imp.Name != nil:
				name = imp.Name.Name
			case f != nil && f.Name != "":
				name = f.Name
			case pkgs[path] != nil && pkgs[path].Name() != "":
				name = pkgs[path].Name()
			}
			if name != "_" && name != "." {
				sf.imports[name] = path
			}
		}
	}
	for _, f := range s.imported {
		for _, fn := range f.Funcs {
			if fn.Effects.cuda() {
				s.interesting[fn.Key[strings.IndexByte(fn.Key, '.')+1:]] = true
			}
		}
	}
}

// importedFact returns the fact of the imported package path: the one its
// own analysis exported or, when it was not analyzed (lazylint check of a
// tree that does not hold it), the seed of a well-known binding.
func (s *Summary) importedFact(pass *analysis.Pass, pkg *types.Package, path string) *BindingFact {
	if f, ok := s.imported[path]; ok {
		return f
	}
	var f *BindingFact
	if pkg != nil {
		got := new(BindingFact)
		if pass.ImportPackageFact(pkg, got) {
			f = got
		}
	}
	if f == nil {
		f = seeds[path]
	}
	if f != nil {
		s.imported[path] = f
	}
	return f
}

// defaultImportName guesses a package's name from its path (the last
// element, without a major-version suffix).
func defaultImportName(path string) string {
	parts := strings.Split(path, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2]
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return strings.ReplaceAll(name, "-", "_")
}

// declare records the file's functions, types and package variables;
// fromSources are the C functions the C sources say launch.
func (s *Summary) declare(sf *srcFile, fromSources map[string]bool) {
	sf.launchers = map[string]bool{}
	if sf.cgo {
		sf.launchers = launchers(sf.file)
		for name := range fromSources {
			sf.launchers[name] = true
		}
	}
	sf.fns = functions(sf.file)
	for _, fb := range sf.fns {
		fb.file = sf
		if fb.key != "" {
			s.bodies[fb.key] = append(s.bodies[fb.key], fb)
		} else if fb.decl != nil && fb.decl.key != "" {
			s.bodies[fb.decl.key] = append(s.bodies[fb.decl.key], fb)
		}
	}
	for _, d := range sf.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			key := funcKey(d)
			if _, dup := s.decls[key]; !dup { // build-tag variants: the first declares, all bodies count
				s.decls[key] = d
				s.effects[key] = &Effects{}
			}
		case *ast.GenDecl:
			s.declareGen(sf, d)
		}
	}
}

// declareGen records types, struct fields and package variables; a type
// declared in several files (build-tag variants) gets the fields of all.
func (s *Summary) declareGen(sf *srcFile, d *ast.GenDecl) {
	for _, spec := range d.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			s.types[sp.Name.Name] = true
			if st, ok := sp.Type.(*ast.StructType); ok {
				s.declareFields(sf, sp.Name.Name, st)
			}
		case *ast.ValueSpec:
			if sp.Type == nil {
				continue
			}
			for _, n := range sp.Names {
				if _, dup := s.vars[n.Name]; !dup {
					s.vars[n.Name] = typeRef{sp.Type, sf}
				}
			}
		}
	}
}

func (s *Summary) declareFields(sf *srcFile, typ string, st *ast.StructType) {
	fields := s.fields[typ]
	if fields == nil {
		fields = map[string]typeRef{}
		s.fields[typ] = fields
	}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			s.embedded[typ] = append(s.embedded[typ], typeRef{f.Type, sf})
		}
		for _, n := range f.Names {
			if _, dup := fields[n.Name]; !dup {
				fields[n.Name] = typeRef{f.Type, sf}
			}
		}
	}
}

// typeRef is a type expression and the file it is written in.
type typeRef struct {
	expr ast.Expr
	sf   *srcFile
}

// funcKey is "F" for a function, "T.M" for a method.
func funcKey(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	for { // *T, T[A], (T): the receiver's type name
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name + "." + d.Name.Name
		default:
			return "?." + d.Name.Name
		}
	}
}

const maxRounds = 8

// solve computes every function's effects, each from the current effects
// of the functions it calls, until nothing changes.
func (s *Summary) solve() {
	keys := make([]string, 0, len(s.decls))
	for k := range s.decls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for round := 0; round < maxRounds; round++ {
		changed := false
		for _, key := range keys {
			e := s.summarize(key)
			if !reflect.DeepEqual(*s.effects[key], e) {
				*s.effects[key] = e // in place: method tables point at it
				changed = true
			}
			if e.cuda() {
				s.interesting[key[strings.IndexByte(key, '.')+1:]] = true
			}
		}
		if !changed {
			return
		}
	}
}

// summarize computes what the function key does.
func (s *Summary) summarize(key string) Effects {
	d := s.decls[key]
	e := Effects{Params: numParams(d.Type.Params), Variadic: isVariadic(d.Type), Results: s.resultTypes(d.Type)}
	var top *funcBody
	memory := false // a call reports memory: the results may
	for _, fb := range s.bodies[key] {
		sf := s.fileOf(fb)
		if fb.decl == fb {
			top = fb
		}
		for _, c := range fb.calls {
			ce := s.callee(sf, fb, c)
			if ce.eff == nil || ce.key == s.Path+"."+key {
				continue
			}
			memory = memory || len(ce.eff.Memory) > 0
			e.merge(s.translate(sf, fb, c, ce))
		}
	}
	if top != nil {
		sf := s.fileOf(top)
		if memory {
			e.Memory = append(e.Memory, s.returnedMemory(sf, top)...)
		}
		if s.returnsClock(sf, top) {
			e.Clock = true
		}
	}
	if e.launches() {
		e.Clock = false // a function that times its own launches is no clock for its callers
	}
	if e.cuda() && e.API == "" {
		e.API = key
	}
	if !e.cuda() {
		e = Effects{Params: e.Params, Variadic: e.Variadic, Results: e.Results}
	}
	return e
}

func (s *Summary) fileOf(fb *funcBody) *srcFile {
	if fb.file != nil {
		return fb.file
	}
	for _, sf := range s.files {
		if sf.file.Pos() <= fb.node.Pos() && fb.node.End() <= sf.file.End() {
			return sf
		}
	}
	return s.files[0]
}

func numParams(fl *ast.FieldList) int {
	n := 0
	if fl == nil {
		return 0
	}
	for _, f := range fl.List {
		n += max(1, len(f.Names))
	}
	return n
}

func isVariadic(ft *ast.FuncType) bool {
	if ft.Params == nil || len(ft.Params.List) == 0 {
		return false
	}
	_, ok := ft.Params.List[len(ft.Params.List)-1].Type.(*ast.Ellipsis)
	return ok
}

// resultTypes names the results' types declared in this package.
func (s *Summary) resultTypes(ft *ast.FuncType) []string {
	if ft.Results == nil {
		return nil
	}
	var out []string
	named := false
	for _, f := range ft.Results.List {
		name := ""
		t := f.Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if id, ok := t.(*ast.Ident); ok && s.types[id.Name] {
			name, named = id.Name, true
		}
		for range max(1, len(f.Names)) {
			out = append(out, name)
		}
	}
	if !named {
		return nil
	}
	return out
}

// translate turns the effects of a call into effects of the function
// that makes it (fb, or the declaration around the closure fb): a slot
// of the callee becomes a slot of the caller when the argument there is
// one of the caller's parameters or its receiver.
func (s *Summary) translate(sf *srcFile, fb *funcBody, c *ast.CallExpr, ce callee) Effects {
	o := ce.eff
	e := Effects{API: o.API, Preload: o.Preload, Init: o.Init, Touch: o.Touch, Unload: o.Unload, Clock: o.Clock,
		Kernels: append([]string(nil), o.Kernels...)}
	to := func(slot int) int { return s.slotOf(fb, callArg(c, ce, slot), c.Pos(), 0) }
	if e.Alloc = to(o.Alloc); e.Alloc != 0 {
		e.AllocAPI = o.AllocAPI
	}
	if o.Load != 0 {
		e.Load, e.Image, e.LoadAPI = o.Load, to(o.Image), o.LoadAPI
	}
	if o.Lookup != 0 {
		e.Lookup, e.Handle, e.LookupAPI = o.Lookup, s.handleSlot(fb, c, ce), o.LookupAPI
	}
	if o.Launch != 0 {
		x := callArg(c, ce, o.Launch)
		if slot := s.slotOf(fb, x, c.Pos(), 0); slot != 0 {
			e.Launch = slot
		} else if lk := s.handleOrigin(sf, fb, x, c.Pos()); lk != nil {
			// A handle the function looked up itself: the kernel loads at
			// the function's first call, at the lookup or at the launch.
			e.Kernels = append(e.Kernels, lk.kernel)
		}
	}
	if o.Switch {
		e.Switch, e.Switched = true, to(o.Switched)
	}
	if o.ModeQuery && !s.initializedBefore(sf, fb, c) {
		e.ModeQuery = true
	}
	for _, m := range o.Memory {
		if isParam(m.Slot) {
			if slot := to(m.Slot); isParam(slot) {
				m.Slot = slot
				e.Memory = append(e.Memory, m)
			}
		}
	}
	return e
}

// callArg is the expression at a callee's slot in a call: an argument, or
// the receiver of a method call.
func callArg(c *ast.CallExpr, ce callee, slot int) ast.Expr {
	switch {
	case slot == Recv:
		return ce.recv
	case isParam(slot) && paramIndex(slot) < len(c.Args):
		return c.Args[paramIndex(slot)]
	}
	return nil
}

const maxSlotDepth = 4

// slotOf returns the slot of the function around fb (its declaration)
// that x derives from: a parameter, the receiver, or a local variable
// assigned from one (Cn := C.size_t(n)); 0 otherwise.
func (s *Summary) slotOf(fb *funcBody, x ast.Expr, pos token.Pos, depth int) int {
	if x == nil || depth > maxSlotDepth {
		return 0
	}
	id := rootIdent(x)
	if id == nil {
		return 0
	}
	if slot := declSlot(fb.decl, id.Name); slot != 0 {
		if shadowed(fb, id.Name, pos) {
			return 0
		}
		return slot
	}
	if rhs := lastDefinition(fb, id.Name, pos); rhs != nil {
		return s.slotOf(fb, rhs, pos, depth+1)
	}
	return 0
}

// declSlot is the slot of a parameter or the receiver of a declaration.
func declSlot(d *funcBody, name string) int {
	if d == nil {
		return 0
	}
	decl, ok := d.node.(*ast.FuncDecl)
	if !ok {
		return 0
	}
	if decl.Recv != nil {
		for _, f := range decl.Recv.List {
			for _, n := range f.Names {
				if n.Name == name {
					return Recv
				}
			}
		}
	}
	i := 0
	for _, f := range decl.Type.Params.List {
		for _, n := range f.Names {
			if n.Name == name {
				return Param(i)
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return 0
}

// shadowed reports whether name is redeclared by := in fb before pos.
func shadowed(fb *funcBody, name string, pos token.Pos) bool {
	found := false
	for f := fb; f != nil && !found; f = f.outer {
		ast.Inspect(f.body, func(n ast.Node) bool {
			if n == nil || n.Pos() >= pos || found {
				return false
			}
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						found = true
					}
				}
			}
			return true
		})
	}
	return found
}

// lastDefinition returns the value last given to a local variable before
// pos by a one-to-one assignment or declaration, in fb or around it.
func lastDefinition(fb *funcBody, name string, pos token.Pos) ast.Expr {
	for f := fb; f != nil; f = f.outer {
		var out ast.Expr
		ast.Inspect(f.body, func(n ast.Node) bool {
			if n == nil || n.Pos() >= pos {
				return false
			}
			if v := definedValue(n, name); v != nil {
				out = v
			}
			return true
		})
		if out != nil {
			return out
		}
	}
	return nil
}

// definedValue is the value an assignment or declaration gives name, one
// to one, or nil.
func definedValue(n ast.Node, name string) ast.Expr {
	var out ast.Expr
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == name {
					out = n.Rhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(n.Values) == len(n.Names) {
			for i, id := range n.Names {
				if id.Name == name {
					out = n.Values[i]
				}
			}
		}
	}
	return out
}

// handleSlot returns where the kernel handle a lookup call returns ends
// up in the function around fb: one of its results, its receiver, or a
// parameter it writes through.
func (s *Summary) handleSlot(fb *funcBody, c *ast.CallExpr, ce callee) int {
	var holder string
	switch h := ce.eff.Handle; {
	case isResult(h):
		v, direct := resultVar(fb, c, resultIndex(h))
		if direct >= 0 {
			return Result(direct)
		}
		holder = v
	default:
		x := callArg(c, ce, h)
		if slot := s.slotOf(fb, x, c.Pos(), 0); slot != 0 {
			return slot
		}
		if id := rootIdent(x); id != nil {
			holder = id.Name
		}
	}
	if holder == "" {
		return 0
	}
	return flowsTo(fb.decl, holder)
}

// resultVar returns the variable that result i of call c is assigned to,
// or, when c is returned directly, the caller's result index.
func resultVar(fb *funcBody, c *ast.CallExpr, i int) (string, int) {
	name, direct := "", -1
	ast.Inspect(fb.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if v := assignedResult(n.Lhs, n.Rhs, c, i); v != "" {
				name = v
			}
		case *ast.ValueSpec:
			if len(n.Values) == 1 && n.Values[0] == c && i < len(n.Names) {
				name = n.Names[i].Name
			}
		case *ast.ReturnStmt:
			if k := returnedAt(n, c, i); k >= 0 {
				direct = k
			}
		}
		return true
	})
	return name, direct
}

// assignedResult is the variable result i of c is assigned to in lhs =
// rhs, or "".
func assignedResult(lhs, rhs []ast.Expr, c *ast.CallExpr, i int) string {
	if len(rhs) == 1 && rhs[0] == c && i < len(lhs) {
		if id, ok := lhs[i].(*ast.Ident); ok {
			return id.Name
		}
		return ""
	}
	if len(rhs) != len(lhs) || i != 0 {
		return ""
	}
	for k, r := range rhs {
		if id, ok := lhs[k].(*ast.Ident); ok && ast.Unparen(r) == c {
			return id.Name
		}
	}
	return ""
}

// returnedAt is the result index at which a return statement returns
// result i of c, or -1.
func returnedAt(r *ast.ReturnStmt, c *ast.CallExpr, i int) int {
	if len(r.Results) == 1 && r.Results[0] == c {
		return i
	}
	for k, x := range r.Results {
		if ast.Unparen(x) == c && i == 0 && len(r.Results) > 1 {
			return k
		}
	}
	return -1
}

// flowsTo returns where a local variable's value leaves a function: the
// result that returns it (or a value holding it, as a composite literal
// or through another variable), or the receiver a field of which is given
// it.
func flowsTo(d *funcBody, v string) int {
	if d == nil {
		return 0
	}
	decl, ok := d.node.(*ast.FuncDecl)
	if !ok {
		return 0
	}
	held := heldBy(decl.Body, v)
	if slot := declSlotAny(d, held); slot == Recv || isParam(slot) {
		return slot
	}
	if slot := namedResultSlot(decl.Type, held); slot != 0 {
		return slot
	}
	out := 0
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok && out == 0 {
			for i, x := range r.Results {
				if mentionsAny(x, held) {
					out = Result(i)
					break
				}
			}
		}
		return true
	})
	return out
}

// heldBy returns v and the variables (or fields' roots) assigned values
// that hold it, through a few assignments.
func heldBy(body *ast.BlockStmt, v string) map[string]bool {
	held := map[string]bool{v: true}
	for range 3 {
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if !mentionsAny(as.Rhs[i], held) {
					continue
				}
				if id := rootIdent(l); id != nil {
					held[id.Name] = true
				}
			}
			return true
		})
	}
	return held
}

// namedResultSlot is the slot of the first named result among held.
func namedResultSlot(ft *ast.FuncType, held map[string]bool) int {
	if ft.Results == nil {
		return 0
	}
	i := 0
	for _, f := range ft.Results.List {
		for _, n := range f.Names {
			if held[n.Name] {
				return Result(i)
			}
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	return 0
}

// declSlotAny is the slot of the first of names that is a parameter or
// the receiver.
func declSlotAny(d *funcBody, names map[string]bool) int {
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	for _, n := range keys {
		if slot := declSlot(d, n); slot != 0 {
			return slot
		}
	}
	return 0
}

// mentionsAny reports whether x reads one of names (not inside a call of
// something else: f(v) is f's result, not v; conversions and composite
// literals are v).
func mentionsAny(x ast.Expr, names map[string]bool) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			found = names[n.Name]
		case *ast.CallExpr:
			return len(n.Args) == 1 // a conversion
		case *ast.FuncLit:
			return false
		}
		return true
	})
	return found
}

// lookup is a kernel lookup that defined a handle: the call, whether it
// loads the kernel, and the kernel's key.
type lookup struct {
	call   *ast.CallExpr
	loads  bool
	kernel string
	name   string // the kernel's name as written, when a literal
}

// handleOrigin returns the lookup that last defined the handle x before
// pos in fb (or a function around it), or nil.
func (s *Summary) handleOrigin(sf *srcFile, fb *funcBody, x ast.Expr, pos token.Pos) *lookup {
	id := rootIdent(x)
	if id == nil {
		return nil
	}
	var out *lookup
	for f := fb; f != nil && out == nil; f = f.outer {
		for _, c := range f.calls {
			if c.Pos() >= pos {
				break
			}
			ce := s.callee(sf, f, c)
			if ce.eff == nil || ce.eff.Lookup == 0 || !s.definesHandle(f, c, ce, id.Name) {
				continue
			}
			l := &lookup{call: c, loads: ce.eff.Lookup == LookupLoads, kernel: ce.key}
			for _, a := range c.Args {
				if v, ok := stringLit(a); ok {
					l.name = v
					l.kernel = ce.pkg + ".kernel:" + v
				}
			}
			out = l
		}
	}
	return out
}

// definesHandle reports whether the lookup call c puts its handle in the
// variable name.
func (s *Summary) definesHandle(fb *funcBody, c *ast.CallExpr, ce callee, name string) bool {
	h := ce.eff.Handle
	if isResult(h) {
		v, _ := resultVar(fb, c, resultIndex(h))
		return v == name
	}
	if id := rootIdent(callArg(c, ce, h)); id != nil {
		return id.Name == name
	}
	return false
}

// initializedBefore reports whether a call that initializes CUDA runs on
// every path before c in fb.
func (s *Summary) initializedBefore(sf *srcFile, fb *funcBody, c *ast.CallExpr) bool {
	for _, d := range fb.calls {
		if d.End() > c.Pos() {
			break
		}
		if ce := s.callee(sf, fb, d); ce.eff != nil && ce.eff.Init && runsBefore(fb.body, d, c) {
			return true
		}
	}
	return false
}

// returnsClock reports whether a function returns time.Now() or
// time.Since(...) itself: a clock of the project's own (read once).
func (s *Summary) returnsClock(sf *srcFile, fb *funcBody) bool {
	if v, ok := s.clocks[fb]; ok {
		return v
	}
	clock := goClock(sf.file)
	found := false
	defer func() { s.clocks[fb] = found }()
	ast.Inspect(fb.body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) == 1 {
			if c, ok := ast.Unparen(r.Results[0]).(*ast.CallExpr); ok && clock(c) {
				found = true
			}
		}
		return true
	})
	return found
}

// returnedMemory returns the shares of device memory the function's
// results report (return free, return int64(f) - reserve, named results).
func (s *Summary) returnedMemory(sf *srcFile, fb *funcBody) []Share {
	decl, ok := fb.node.(*ast.FuncDecl)
	if !ok || decl.Type.Results == nil {
		return nil
	}
	ev := &evaluator{s: s, sf: sf, consts: sf.numericConstants()}
	byResult := map[int]Share{}
	var names []string
	for _, f := range decl.Type.Results.List {
		for _, n := range f.Names {
			names = append(names, n.Name)
		}
		if len(f.Names) == 0 {
			names = append(names, "")
		}
	}
	ast.Inspect(fb.body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		r, ok := n.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		for i := range names {
			var v goValue
			switch {
			case len(r.Results) == len(names):
				v = ev.eval(fb, r.Results[i], r.Pos(), 0)
			case len(r.Results) == 0 && names[i] != "":
				v = ev.evalIdent(fb, names[i], r.Pos(), 0)
			}
			if v.isShare {
				byResult[i] = Share{Slot: Result(i), Total: v.s.total, Frac: v.s.frac, Minus: v.s.minus, API: v.s.api}
			}
		}
		return true
	})
	var out []Share
	for i := range names {
		if sh, ok := byResult[i]; ok {
			out = append(out, sh)
		}
	}
	return out
}

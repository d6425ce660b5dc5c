package cudaparse

import (
	"math"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// The types of expressions, as far as a launch's template arguments need
// them: from literals, the declarations of the file (locals, parameters,
// globals, members of its classes), casts, typedef and using aliases, and
// a few library containers (knowledge.ElementContainers).

// ctype is a C++ type reduced to what deduction looks at.
type ctype struct {
	base string // the innermost type, spelled canonically: "float", "unsigned int", "Vec<float>"
	cnst bool   // the innermost type is const
	ptr  int    // levels of pointer (an array counts as one: it decays)
}

func (t ctype) String() string {
	s := t.base
	if t.cnst {
		s = "const " + s
	}
	return s + strings.Repeat("*", t.ptr)
}

const maxTypeDepth = 8

// canonPrimitive spells a builtin type one way: `unsigned` is unsigned
// int, `long int` long, `signed` int.
func canonPrimitive(text string) string {
	words := strings.Fields(text)
	var unsigned, signed bool
	longs, rest := 0, []string{}
	for _, w := range words {
		switch w {
		case "unsigned":
			unsigned = true
		case "signed":
			signed = true
		case "long":
			longs++
		case "int":
		default:
			rest = append(rest, w)
		}
	}
	base := strings.Join(rest, " ")
	switch {
	case base == "double" && longs > 0:
		return "long double"
	case base == "char" && signed:
		return "signed char"
	case base != "":
	case longs == 1:
		base = "long"
	case longs >= 2:
		base = "long long"
	default:
		base = "int"
	}
	if unsigned {
		return "unsigned " + base
	}
	return base
}

// typeOf returns the type a type node names: a type_descriptor, a type
// specifier. names are template parameters, left unresolved.
func (f *File) typeOf(n Node, names map[string]bool, depth int) (ctype, bool) {
	if n.Is("type_descriptor") {
		t, ok := f.specType(n.ChildByField("type"), names, depth)
		if !ok {
			return ctype{}, false
		}
		t.cnst = t.cnst || hasConst(n)
		return applyDeclarator(t, n.ChildByField("declarator"))
	}
	return f.specType(n, names, depth)
}

func hasConst(n Node) bool {
	for _, c := range n.NamedChildren() {
		if c.Is("type_qualifier") && c.Text() == "const" {
			return true
		}
	}
	return false
}

// specType returns the type a type specifier names, its aliases resolved.
func (f *File) specType(n Node, names map[string]bool, depth int) (ctype, bool) {
	if depth > maxTypeDepth {
		return ctype{}, false
	}
	switch n.Kind() {
	case "primitive_type", "sized_type_specifier":
		return ctype{base: canonPrimitive(n.Text())}, true
	case "type_identifier":
		if !names[n.Text()] {
			if t, ok := f.aliasType(n, depth); ok {
				return t, true
			}
		}
		return ctype{base: n.Text()}, true
	case "template_type":
		var args []string
		for _, a := range n.ChildByField("arguments").NamedChildren() {
			args = append(args, f.canonTypeArg(a, names, depth+1))
		}
		return ctype{base: compactSpace(n.ChildByField("name").Text()) + "<" + strings.Join(args, ",") + ">"}, true
	case "qualified_identifier":
		inner := n.ChildByField("name")
		if inner.Is("template_type", "qualified_identifier") {
			t, ok := f.specType(inner, names, depth+1)
			if ok {
				t.base = compactSpace(n.ChildByField("scope").Text()) + "::" + t.base
			}
			return t, ok
		}
		return ctype{base: strings.TrimPrefix(compactSpace(n.Text()), "::")}, true
	case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
		if name := n.ChildByField("name"); name.Valid() {
			return ctype{base: compactSpace(name.Text())}, true
		}
	}
	return ctype{}, false
}

// canonTypeArg is canonArg for an argument of a type's template, where
// names are left as they are.
func (f *File) canonTypeArg(a Node, names map[string]bool, depth int) string {
	if a.Is("type_descriptor") {
		if id := plainTypeName(a); id.Valid() && names[id.Text()] {
			return id.Text()
		}
		if t, ok := f.typeOf(a, names, depth); ok {
			return t.String()
		}
	}
	return f.canonArg(a, a)
}

// applyDeclarator adds what a declarator (or abstract declarator) says to
// a type: a pointer or array level each, nothing for a reference. A
// function declarator other than a local constructed with arguments
// (`T v(a, b);`), or a parenthesized one, makes the type unknown.
func applyDeclarator(t ctype, d Node) (ctype, bool) {
	for d.Valid() {
		switch d.Kind() {
		case "pointer_declarator", "abstract_pointer_declarator", "array_declarator", "abstract_array_declarator":
			t.ptr++
		case "reference_declarator", "abstract_reference_declarator":
			next := firstNamed(d)
			if next.Is("type_qualifier") {
				return t, true
			}
			d = next
			continue
		case "init_declarator", "attributed_declarator":
		case "function_declarator":
			if !d.ChildByField("declarator").Is("identifier") || !d.Parent().Parent().Is("compound_statement") {
				return ctype{}, false
			}
			return t, true
		case "identifier", "field_identifier", "type_identifier", "type_qualifier":
			return t, true
		default:
			return ctype{}, false
		}
		d = d.ChildByField("declarator")
	}
	return t, true
}

// declType returns the type a declaration (declaration, parameter, field,
// range-for) gives the declarator d of it. An `auto` takes its
// initializer's type.
func (f *File) declType(decl, d Node, names map[string]bool, depth int) (ctype, bool) {
	if depth > maxTypeDepth {
		return ctype{}, false
	}
	spec := decl.ChildByField("type")
	if spec.Is("placeholder_type_specifier") {
		return f.autoType(d, depth)
	}
	t, ok := f.specType(spec, names, depth+1)
	if !ok {
		return ctype{}, false
	}
	t.cnst = t.cnst || hasConst(decl)
	return applyDeclarator(t, d)
}

// autoType is the type `auto x = v` gives x: v's, less a top-level const.
func (f *File) autoType(d Node, depth int) (ctype, bool) {
	init := d
	for init.Valid() && !init.Is("init_declarator") {
		init = init.ChildByField("declarator")
	}
	v := init.ChildByField("value")
	if v.Is("initializer_list", "argument_list") {
		if vs := v.NamedChildren(); len(vs) == 1 {
			v = vs[0]
		}
	}
	t, ok := f.exprType(v, depth+1)
	if ok && t.ptr == 0 {
		t.cnst = false
	}
	return t, ok
}

// aliasType resolves a typedef or using alias visible at n: the innermost
// scope's (the function's, then the file's); unknown when its
// declarations there disagree (one per #if branch).
func (f *File) aliasType(n Node, depth int) (ctype, bool) {
	f.scopeOnce.Do(f.collectScope)
	cands := f.aliases[n.Text()]
	if len(cands) == 0 {
		return ctype{}, false
	}
	fn := f.enclosingFunction(n)
	var local, global []Node
	for _, a := range cands {
		switch g := f.enclosingFunction(a); {
		case g == nil:
			global = append(global, a)
		case g == fn && a.Start() < n.Start():
			local = append(local, a)
		}
	}
	if len(local) == 0 {
		local = global
	}
	var out ctype
	for i, a := range local {
		t, ok := f.aliasTarget(a, n.Text(), depth+1)
		if !ok || i > 0 && t != out {
			return ctype{}, false
		}
		out = t
	}
	return out, len(local) > 0
}

// aliasTarget returns what a type_definition or alias_declaration makes
// name stand for.
func (f *File) aliasTarget(a Node, name string, depth int) (ctype, bool) {
	if a.Is("alias_declaration") {
		return f.typeOf(a.ChildByField("type"), nil, depth)
	}
	for _, d := range a.ChildrenByField("declarator") {
		if declaredName(d) == name || d.Name() == name {
			t, ok := f.specType(a.ChildByField("type"), nil, depth)
			if !ok {
				return ctype{}, false
			}
			t.cnst = t.cnst || hasConst(a)
			return applyDeclarator(t, d)
		}
	}
	return ctype{}, false
}

// collectScope indexes the aliases, classes and namespace-scope variables
// of the file, once.
func (f *File) collectScope() {
	f.aliases = map[string][]Node{}
	f.records = map[string][]Node{}
	f.globals = map[string][]Node{}
	f.Root().Descendants(func(n Node) bool {
		switch n.Kind() {
		case "type_definition":
			if !inClassOrTemplate(n) {
				for _, d := range n.ChildrenByField("declarator") {
					name := typedefName(d)
					f.aliases[name] = append(f.aliases[name], n)
				}
			}
		case "alias_declaration":
			if !inClassOrTemplate(n) {
				name := n.ChildByField("name").Text()
				f.aliases[name] = append(f.aliases[name], n)
			}
		case "struct_specifier", "class_specifier":
			if body := n.ChildByField("body"); body.Valid() && n.ChildByField("name").Valid() && !n.Parent().Is("template_declaration") {
				name := n.ChildByField("name").Name()
				f.records[name] = append(f.records[name], body)
			}
		case "declaration":
			if f.enclosingFunction(n) == nil && !inClassOrTemplate(n) {
				for _, d := range n.ChildrenByField("declarator") {
					name := declaredName(d)
					f.globals[name] = append(f.globals[name], d)
				}
			}
		}
		return true
	})
}

// AliasText returns what the file's first typedef or using alias of name,
// at any scope (a class's, a template's too), makes it stand for, as
// written without blanks (`using Gemm = cutlass::gemm::device::Gemm<...>;`
// inside a kernel's spec struct); "" when the file has none.
func (f *File) AliasText(name string) string {
	f.aliasTextsOnce.Do(func() {
		f.aliasTexts = map[string]string{}
		note := func(name string, target Node) {
			if _, seen := f.aliasTexts[name]; !seen && name != "" {
				f.aliasTexts[name] = compactSpace(target.Text())
			}
		}
		f.Root().Descendants(func(n Node) bool {
			switch n.Kind() {
			case "alias_declaration":
				note(n.ChildByField("name").Text(), n.ChildByField("type"))
			case "type_definition":
				for _, d := range n.ChildrenByField("declarator") {
					note(typedefName(d), n.ChildByField("type"))
				}
			}
			return true
		})
	})
	return f.aliasTexts[name]
}

func typedefName(d Node) string {
	for d.Valid() && !d.Is("type_identifier") {
		d = d.ChildByField("declarator")
	}
	return d.Text()
}

func inClassOrTemplate(n Node) bool {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("field_declaration_list", "template_declaration") {
			return true
		}
	}
	return false
}

// exprType returns the type of an expression, when the file shows it.
func (f *File) exprType(n Node, depth int) (ctype, bool) {
	if depth > maxTypeDepth || !n.Valid() {
		return ctype{}, false
	}
	switch n.Kind() {
	case "parenthesized_expression":
		return f.exprType(firstNamed(n), depth+1)
	case "number_literal":
		return ctype{base: numberType(n.Text())}, true
	case "char_literal":
		return ctype{base: "char"}, !strings.HasPrefix(n.Text(), "L") && !strings.HasPrefix(n.Text(), "u")
	case "string_literal", "concatenated_string":
		return ctype{base: "char", cnst: true, ptr: 1}, true
	case "true", "false":
		return ctype{base: "bool"}, true
	case "identifier":
		return f.varType(n, depth+1)
	case "cast_expression":
		return f.typeOf(n.ChildByField("type"), nil, depth+1)
	case "pointer_expression":
		return f.pointerType(n, depth)
	case "subscript_expression":
		return f.elementType(n.ChildByField("argument"), depth)
	case "field_expression":
		return f.fieldType(n, depth)
	case "call_expression":
		return f.callType(n, depth)
	case "conditional_expression":
		return f.exprType(n.ChildByField("consequence"), depth+1)
	case "unary_expression":
		if op := strings.TrimSpace(n.ChildByField("operator").Text()); op == "!" {
			return ctype{base: "bool"}, true
		}
		t, ok := f.exprType(n.ChildByField("argument"), depth+1)
		return promote(t), ok && t.ptr == 0
	case "binary_expression":
		return f.binaryType(n, depth)
	case "sizeof_expression":
		return ctype{base: "size_t"}, true
	}
	return ctype{}, false
}

// numberType returns a number literal's type from its form and suffix.
func numberType(s string) string {
	s = strings.ToLower(strings.ReplaceAll(s, "'", ""))
	hex := strings.HasPrefix(s, "0x")
	float := !hex && strings.ContainsAny(s, ".e") || hex && strings.Contains(s, "p")
	if float {
		switch {
		case strings.HasSuffix(s, "f"):
			return "float"
		case strings.HasSuffix(s, "l"):
			return "long double"
		}
		return "double"
	}
	digits := strings.TrimRight(s, "ul")
	suffix := s[len(digits):]
	longs := strings.Count(suffix, "l")
	base := "int"
	switch {
	case longs == 1:
		base = "long"
	case longs >= 2:
		base = "long long"
	case !strings.Contains(suffix, "u"):
		if v, ok := parseNumber(digits); ok && v > math.MaxInt32 {
			base = "long" // too large for an int
		}
	}
	if strings.Contains(suffix, "u") {
		return "unsigned " + base
	}
	return base
}

// arithmeticRanks orders the arithmetic types for the usual conversions.
var arithmeticRanks = []string{"int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "float", "double", "long double"}

func arithmeticRank(base string) int {
	for i, r := range arithmeticRanks {
		if r == base {
			return i
		}
	}
	return -1
}

// promote applies the integer promotions: bool, char and short are int.
func promote(t ctype) ctype {
	if t.ptr > 0 {
		return t
	}
	switch t.base {
	case "bool", "char", "signed char", "unsigned char", "short", "unsigned short":
		return ctype{base: "int"}
	}
	return ctype{base: t.base}
}

// binaryType: pointer arithmetic keeps the pointer's type; comparisons
// and logic give bool; arithmetic the usual conversions of builtin types.
func (f *File) binaryType(n Node, depth int) (ctype, bool) {
	op := strings.TrimSpace(n.ChildByField("operator").Text())
	switch op {
	case "==", "!=", "<", ">", "<=", ">=", "&&", "||":
		return ctype{base: "bool"}, true
	}
	l, lok := f.exprType(n.ChildByField("left"), depth+1)
	if op == "<<" || op == ">>" {
		return promote(l), lok && l.ptr == 0
	}
	r, rok := f.exprType(n.ChildByField("right"), depth+1)
	switch {
	case lok && l.ptr > 0 && (op == "+" || op == "-"):
		if rok && r.ptr > 0 {
			return ctype{base: "ptrdiff_t"}, true
		}
		return l, true
	case rok && r.ptr > 0 && op == "+":
		return r, true
	case !lok || !rok:
		return ctype{}, false
	}
	l, r = promote(l), promote(r)
	lr, rr := arithmeticRank(l.base), arithmeticRank(r.base)
	if lr < 0 || rr < 0 {
		return ctype{}, l == r
	}
	if lr < rr {
		return r, true
	}
	return l, true
}

// pointerType: &x points to x's type, *p is what p points to.
func (f *File) pointerType(n Node, depth int) (ctype, bool) {
	t, ok := f.exprType(n.ChildByField("argument"), depth+1)
	if !ok {
		return ctype{}, false
	}
	if strings.HasPrefix(strings.TrimSpace(n.Text()), "&") {
		t.ptr++
		return t, true
	}
	if t.ptr == 0 {
		return ctype{}, false
	}
	t.ptr--
	return t, true
}

// elementType is the type of x[i]: what x points to, or a container's
// element.
func (f *File) elementType(x Node, depth int) (ctype, bool) {
	t, ok := f.exprType(x, depth+1)
	if !ok {
		return ctype{}, false
	}
	if t.ptr > 0 {
		t.ptr--
		return t, true
	}
	if e, ok := containerElement(t); ok {
		return e, true
	}
	return ctype{}, false
}

// containerElement returns the element type of a library container
// (knowledge.ElementContainers).
func containerElement(t ctype) (ctype, bool) {
	name, args, ok := splitKernelKey(t.base)
	if !ok || len(args) == 0 || t.ptr != 0 {
		return ctype{}, false
	}
	if _, known := knowledge.ElementContainer(name); !known {
		return ctype{}, false
	}
	return parseTypeText(args[0])
}

// parseTypeText reads back a type that ctype.String wrote.
func parseTypeText(s string) (ctype, bool) {
	if s == "" || s == UnknownArg {
		return ctype{}, false
	}
	t := ctype{}
	for strings.HasSuffix(s, "*") {
		t.ptr++
		s = strings.TrimSuffix(s, "*")
	}
	if rest, ok := strings.CutPrefix(s, "const "); ok {
		t.cnst, s = true, rest
	}
	t.base = s
	return t, true
}

// fieldType is the type of s.x or p->x: a member of a class of the file.
func (f *File) fieldType(n Node, depth int) (ctype, bool) {
	arg := n.ChildByField("argument")
	field := n.ChildByField("field").Text()
	if arg.Is("this") {
		return f.memberType(f.enclosingClass(n), field, depth)
	}
	t, ok := f.exprType(arg, depth+1)
	if !ok {
		return ctype{}, false
	}
	arrow := strings.Contains(n.Text()[arg.End()-n.Start():], "->")
	if arrow && t.ptr != 1 || !arrow && t.ptr != 0 {
		return ctype{}, false
	}
	f.scopeOnce.Do(f.collectScope)
	bodies := f.records[t.base]
	if len(bodies) != 1 {
		return ctype{}, false
	}
	return f.memberType(bodies[0], field, depth)
}

// memberType returns the declared type of a data member of a class body.
func (f *File) memberType(body Node, name string, depth int) (ctype, bool) {
	if !body.Valid() {
		return ctype{}, false
	}
	for _, m := range body.NamedChildren() {
		if !m.Is("field_declaration") {
			continue
		}
		for _, d := range m.ChildrenByField("declarator") {
			if declaredName(d) == name && !functionDeclarator(d).Valid() {
				return f.declType(m, d, nil, depth+1)
			}
		}
	}
	return ctype{}, false
}

// enclosingClass returns the body of the class whose method holds n: the
// class it is defined in, or the one its qualified name names.
func (f *File) enclosingClass(n Node) Node {
	fn := f.enclosingFunction(n)
	if fn == nil {
		return Node{}
	}
	if body := fn.Node.Ancestor("field_declaration_list"); body.Valid() {
		return body
	}
	i := strings.LastIndex(fn.QualifiedName, "::")
	if i <= 0 {
		return Node{}
	}
	class := fn.QualifiedName[:i]
	if j := strings.LastIndex(class, "::"); j >= 0 {
		class = class[j+2:]
	}
	f.scopeOnce.Do(f.collectScope)
	if bodies := f.records[class]; len(bodies) == 1 {
		return bodies[0]
	}
	return Node{}
}

// callType is the type of a call: a cast (static_cast<T>(x), float(x),
// real(x)), thrust::raw_pointer_cast, a container's data() or get(), a
// function of the file that is no template.
func (f *File) callType(n Node, depth int) (ctype, bool) {
	callee := n.ChildByField("function")
	args := n.ChildByField("arguments").NamedChildren()
	switch {
	case callee.Is("template_function") && castNames[callee.ChildByField("name").Text()] && callee.ChildByField("name").Text() != "__builtin_assume_aligned":
		if targs := callee.ChildByField("arguments").NamedChildren(); len(targs) == 1 {
			return f.typeOf(targs[0], nil, depth+1)
		}
	case callee.Is("primitive_type", "sized_type_specifier"):
		return ctype{base: canonPrimitive(callee.Text())}, true
	case callee.Name() == "raw_pointer_cast" && len(args) == 1:
		t, ok := f.exprType(args[0], depth+1)
		if ok && t.ptr == 0 {
			e, isContainer := containerElement(t)
			return ctype{base: e.base, cnst: e.cnst, ptr: e.ptr + 1}, isContainer
		}
		return t, ok
	case callee.Is("field_expression") && len(args) == 0:
		return f.methodType(callee, depth)
	case callee.Is("identifier"):
		if t, ok := f.aliasType(callee, depth+1); ok {
			return t, true
		}
		if fn := f.FunctionNamed(callee.Text()); fn != nil && !fn.Template {
			return f.returnType(fn, depth)
		}
	}
	return ctype{}, false
}

// methodType: v.data() and p.get() of a library container point to its
// element.
func (f *File) methodType(callee Node, depth int) (ctype, bool) {
	t, ok := f.exprType(callee.ChildByField("argument"), depth+1)
	if !ok {
		return ctype{}, false
	}
	method := callee.ChildByField("field").Text()
	if t.ptr > 0 && method == "get" {
		// v.data().get(): a thrust vector's data() is a device_ptr,
		// which this model already takes as the pointer it holds.
		return t, true
	}
	name, _, _ := splitKernelKey(t.base)
	methods, _ := knowledge.ElementContainer(name)
	for _, m := range methods {
		if m == method {
			e, ok := containerElement(t)
			e.ptr++
			return e, ok
		}
	}
	return ctype{}, false
}

// returnType is the declared return type of a function of the file.
func (f *File) returnType(fn *Function, depth int) (ctype, bool) {
	t, ok := f.specType(fn.Node.ChildByField("type"), nil, depth+1)
	if !ok || t.base == "void" || fn.Node.ChildByField("type").Is("placeholder_type_specifier") {
		return ctype{}, false
	}
	t.cnst = t.cnst || hasConst(fn.Node)
	for d := fn.Node.ChildByField("declarator"); d.Valid() && d != fn.Declarator; d = d.ChildByField("declarator") {
		switch d.Kind() {
		case "pointer_declarator":
			t.ptr++
		case "reference_declarator":
			d = firstNamed(d)
			if d == fn.Declarator {
				return t, true
			}
			return ctype{}, false
		default:
			return ctype{}, false
		}
	}
	return t, true
}

// varType returns the declared type of the variable identifier n names:
// the declaration that reaches it, else the last one of the name before it
// in its function, else a member of the method's class, else a variable at
// namespace scope.
func (f *File) varType(n Node, depth int) (ctype, bool) {
	for _, d := range f.ReachingDefs(n) {
		switch d.Op {
		case DefInit, DefDecl, DefParam, DefRange:
			if decl, top := declarationOf(d.Node); decl.Valid() {
				return f.declType(decl, top, nil, depth)
			}
		}
	}
	if fn := f.enclosingFunction(n); fn != nil {
		if x := lastDeclarator(fn.Node, n); x.Valid() {
			if decl, top := declarationOf(x); decl.Valid() {
				return f.declType(decl, top, nil, depth)
			}
		}
		if t, ok := f.memberType(f.enclosingClass(n), n.Text(), depth); ok {
			return t, true
		}
	}
	f.scopeOnce.Do(f.collectScope)
	if gs := f.globals[n.Text()]; len(gs) == 1 {
		return f.declType(gs[0].Parent(), gs[0], nil, depth)
	}
	return ctype{}, false
}

// lastDeclarator returns the last declarator name of n's name in scope
// before n, or the zero Node.
func lastDeclarator(scope, n Node) Node {
	name := n.Text()
	var best Node
	scope.Descendants(func(x Node) bool {
		if x.Start() >= n.Start() {
			return false
		}
		if x.Is("identifier") && x.Text() == name && x.Parent().Valid() && declaratorName(x) {
			best = x
		}
		return true
	})
	return best
}

// declarationOf returns the declaration (declaration, parameter, field,
// range-for) that n is or lies in, and its top-level declarator holding n.
func declarationOf(n Node) (decl, top Node) {
	if isDeclarationKind(n) {
		return n, n.ChildByField("declarator")
	}
	top = n
	for i := 0; i < 8 && top.Valid(); i++ {
		p := top.Parent()
		if isDeclarationKind(p) {
			return p, top
		}
		top = p
	}
	return Node{}, Node{}
}

func isDeclarationKind(n Node) bool {
	return n.Is("declaration", "parameter_declaration", "optional_parameter_declaration", "field_declaration", "for_range_loop")
}

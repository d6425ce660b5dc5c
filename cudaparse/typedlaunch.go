package cudaparse

import (
	"bytes"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// Kernels instantiated for a functor type: a framework launches every
// operation through one kernel template (`template <class F> __global__
// void apply(F op)`) from one helper (`template <class F> void run(F op) {
// apply<<<g, b>>>(op); }`), and each functor type its callers pass is a
// kernel of its own, loaded on its own. The helper's summary says which
// parameter's type instantiates the kernel (StepLaunchTyped); each call
// says which of its arguments pass on the caller's parameters (ArgParams)
// and which types it shows (Keys); the project substitutes along the calls
// (link), and the rules at the call they check (TypedKernelKey).

// TypedKernelKey is the key of kernel template name instantiated for a
// functor type: `apply<Saxpy<float>>`, or `apply<*>` when the type is not
// known (UnknownFunctorArg). Compared with SameKernel, it is another
// kernel than the template instantiated for another type.
func TypedKernelKey(name, typ string) string {
	if typ == "" {
		typ = UnknownFunctorArg
	}
	return name + "<" + typ + ">"
}

// templateTypeParams returns the names of the template type parameters
// declared before the function whose name is at offset at (`typename F`,
// `class Op` of each `template <...>` in its declaration: a member of a
// class template defined out of line has two).
func templateTypeParams(src []byte, at int) []string {
	start := at
	for start > 0 && src[start-1] != ';' && src[start-1] != '}' && src[start-1] != '{' {
		start--
	}
	decl := src[start:at]
	if !bytes.Contains(decl, []byte("template")) {
		return nil
	}
	var out []string
	for _, kw := range [][]byte{[]byte("typename"), []byte("class")} {
		eachWord(decl, kw, func(_, end int) bool {
			j := skipSpaces(decl, end)
			if bytes.HasPrefix(decl[j:], []byte("...")) {
				j = skipSpaces(decl, j+3)
			}
			k := j
			for k < len(decl) && syntax.IsIdentByte(decl[k]) {
				k++
			}
			if k > j && k < len(decl) {
				if next := decl[skipSpaces(decl, k)]; next == ',' || next == '>' || next == '=' {
					out = append(out, string(decl[j:k]))
				}
			}
			return true
		})
	}
	return out
}

// functionTemplateParams returns the parameters of a function template defined
// at offset at (head: its text from the parameter list's parenthesis to
// its body), nil for a function that is no template: only a template's
// parameters can instantiate a kernel for its callers' types (and most
// functions are none, which the summary of a large header feels).
func functionTemplateParams(src []byte, at int, head []byte) []lexicalParam {
	types := templateTypeParams(src, at)
	if len(types) == 0 {
		return nil
	}
	return lexicalParams(head, types)
}

// lexicalParam is a parameter as the text of a definition declares it.
type lexicalParam struct {
	name string
	// typ is its type without const, references and blanks; typed: it
	// is one of the function's template type parameters.
	typ   string
	typed bool
	// handle: a function pointer or untyped pointer, as a kernel is
	// handed to a helper that preloads it (`void (*k)(float *)`, `const
	// void *func`).
	handle bool
}

// lexicalParams reads the parameters of a definition (head: from its
// parameter list's parenthesis to its body), with the template type
// parameters declared before it (templateTypeParams).
func lexicalParams(head []byte, templateParams []string) []lexicalParam {
	// The parenthesis' items, joined again and split at the top-level
	// commas only (`std::map<int, float> m` is one parameter).
	args := splitTopLevel(strings.Join(callArguments(head, 0), ","))
	out := make([]lexicalParam, 0, len(args))
	for _, p := range args {
		if eq := strings.IndexByte(p, '='); eq >= 0 {
			p = p[:eq] // a default argument
		}
		end := len(p)
		for end > 0 && !syntax.IsIdentByte(p[end-1]) {
			end-- // trailing blanks, brackets of an array
		}
		start := end
		for start > 0 && syntax.IsIdentByte(p[start-1]) {
			start--
		}
		lp := lexicalParam{}
		if i := strings.Index(p, "(*"); i >= 0 {
			// A function pointer: its name is inside the parentheses.
			name := strings.TrimLeft(p[i+2:], " \t")
			n := 0
			for n < len(name) && syntax.IsIdentByte(name[n]) {
				n++
			}
			if n > 0 && syntax.IsIdentStart(name[0]) {
				lp.name, lp.handle = name[:n], true
			}
			out = append(out, lp)
			continue
		}
		if start > 0 && start < end && syntax.IsIdentStart(p[start]) {
			lp.name = p[start:end] // else a type alone (`int`, `F&&`)
			lp.typ = plainType(p[:start])
			for _, t := range templateParams {
				lp.typed = lp.typed || lp.typ == t
			}
			lp.handle = strings.Join(strings.Fields(strings.ReplaceAll(p[:start], "const", "")), "") == "void*"
		}
		out = append(out, lp)
	}
	return out
}

// plainType returns a parameter's type text without cv-qualifiers,
// references and blanks ("const F &" gives F); "" for a pointer.
func plainType(t string) string {
	if strings.Contains(t, "*") {
		return ""
	}
	var words []string
	for _, w := range strings.Fields(strings.ReplaceAll(t, "&", " ")) {
		if w != "const" && w != "volatile" {
			words = append(words, w)
		}
	}
	return strings.Join(words, "")
}

// lexicalTypedLaunch returns the index of the typed parameter (params)
// that the <<< launch whose kernel ends before pos passes as an argument,
// when the kernel is named without template arguments; -1 otherwise.
func lexicalTypedLaunch(body []byte, pos int, key string, params []lexicalParam) int {
	if strings.IndexByte(key, '<') >= 0 {
		return -1
	}
	typed := false
	for _, p := range params {
		typed = typed || p.typed
	}
	if !typed {
		return -1
	}
	closing := bytes.Index(body[pos:], []byte(">>>"))
	if closing < 0 {
		return -1
	}
	for _, a := range callArguments(body, pos+closing+3) {
		for i, p := range params {
			if p.typed && a == p.name {
				return i
			}
		}
	}
	return -1
}

// lexicalArgs returns what a call's arguments (their texts) pass on: the
// function's parameters (ArgParams) and the types they show (Keys: a
// parameter's declared type, or the class of a temporary
// `Kernel<float>(x)`), nil when none is shown.
func lexicalArgs(args []string, params []lexicalParam) (argParams uint32, types []string) {
	if len(args) == 0 {
		return 0, nil
	}
	for j, a := range args {
		typ := ""
		for i, p := range params {
			if p.name == "" || a != p.name {
				continue
			}
			if p.typed || p.handle {
				if j < 8 && i < 15 {
					argParams |= uint32(i+1) << (4 * j)
				}
			} else if classLike(p.typ) {
				typ = p.typ
			}
		}
		if typ == "" {
			typ = temporaryType(a)
		}
		if typ != "" {
			if types == nil {
				types = make([]string, len(args))
			}
			types[j] = typ
		}
	}
	return argParams, types
}

// temporaryType returns the class an argument constructs (`Kernel<float>`
// of `Kernel<float>(x)` or `ns::Op{a, b}`): a name with template
// arguments, or one that starts with a capital letter (a plain lower-case
// call is a function's); "" otherwise.
func temporaryType(a string) string {
	open := strings.IndexAny(a, "({")
	if open <= 0 || !strings.HasSuffix(a, ")") && !strings.HasSuffix(a, "}") {
		return ""
	}
	// Most arguments are calls of functions (lower case, no template
	// arguments): said before the name is built.
	if strings.IndexByte(a[:open], '<') < 0 && !classLike(a[:open]) {
		return ""
	}
	name := compactSpace(a[:open])
	base := name
	if i := strings.IndexByte(name, '<'); i >= 0 {
		if !strings.HasSuffix(name, ">") {
			return ""
		}
		base = name[:i]
	}
	if !isQualifiedName(base) || isCUDAName(lastComponent(base)) || !classLike(name) {
		return ""
	}
	return name
}

// classLike reports whether a type's spelling may name a functor class: a
// template's instantiation, or a name that starts with a capital letter
// (`Saxpy`, `ns::Op`); not `size_t` or `float` (a summary keeps only the
// types a functor's launch could be instantiated for).
func classLike(typ string) bool {
	if typ == "" {
		return false
	}
	if strings.HasSuffix(typ, ">") && strings.IndexByte(typ, '<') > 0 {
		return true
	}
	last := lastComponent(typ)
	return last != "" && last[0] >= 'A' && last[0] <= 'Z'
}

// ArgParam returns the index of the function's parameter that a call step
// passes as its argument j, or -1.
func (st *SummaryStep) ArgParam(j int) int {
	if j < 0 || j >= 8 {
		return -1
	}
	return int(st.ArgParams>>(4*j)&0xF) - 1
}

// ArgType returns the type a call step's argument j shows, or "".
func (st *SummaryStep) ArgType(j int) string {
	if j < 0 || j >= len(st.Keys) || st.Kind != StepCall {
		return ""
	}
	return st.Keys[j]
}

// ArgumentType returns the type that argument j of call c shows: a
// variable's declared type (or, for `auto`, the class of the temporary it
// is initialized with), the class of a temporary (`Kernel<float>(x)`);
// "" when not known, or when it is a template type parameter of the
// calling function (its callers say which type).
func (f *File) ArgumentType(c *Call, j int) string {
	if j < 0 || j >= len(c.Args) {
		return ""
	}
	a := c.Args[j].Unparen()
	typ := ""
	switch {
	case a.Is("identifier"):
		t, indirect := f.DeclaredType(a)
		if indirect {
			return ""
		}
		typ = plainType(t)
		if typ == "auto" {
			typ = ""
			if defs := f.ReachingDefs(a); len(defs) == 1 && defs[0].Value.Valid() {
				typ = temporaryType(defs[0].Value.Unparen().Text())
			}
		}
	case a.Is("call_expression", "compound_literal_expression"):
		if typ = temporaryType(a.Text()); typ == "" {
			// `triad_op(b, c)`: a class of the file, whatever its case.
			callee := a.ChildByField("function")
			if !callee.Valid() {
				callee = a.ChildByField("type")
			}
			f.scopeOnce.Do(f.collectScope)
			if name := compactSpace(callee.Text()); callee.Is("identifier", "type_identifier") && len(f.records[name]) > 0 {
				typ = name
			}
		}
	}
	if typ == "" || c.Func == nil {
		return typ
	}
	if name := c.Func.Declarator.ChildByField("declarator"); name.Valid() {
		for _, t := range templateTypeParams(f.Src, name.Start()) {
			if t == typ {
				return ""
			}
		}
	}
	return typ
}

// typedLaunchParam returns the index of the parameter of fn, a function
// template, whose type (a template type parameter of fn) instantiates the
// kernel template that launch l names without template arguments: the
// parameter is one of the kernel's arguments. ok is false otherwise.
func (f *File) typedLaunchParam(fn *Function, l *Launch) (int, bool) {
	if l.API != "" || l.ViaMacro != "" || !l.KernelExpr.Is("identifier", "qualified_identifier") {
		return 0, false
	}
	params := f.lexicalParamsOf(fn)
	for _, arg := range l.Args {
		for i, p := range params {
			if p.typed && arg.Unparen().Text() == p.name {
				return i, true
			}
		}
	}
	return 0, false
}

// lexicalParamsOf returns fn's parameters as lexicalParams reads them
// from the text (for the summary's typed launches and argument facts).
func (f *File) lexicalParamsOf(fn *Function) []lexicalParam {
	name := fn.Declarator.ChildByField("declarator")
	list := fn.Declarator.ChildByField("parameters")
	if !name.Valid() || !list.Valid() {
		return nil
	}
	return lexicalParams([]byte(list.Text()), templateTypeParams(f.Src, name.Start()))
}

// PlainKernelName returns a kernel key's name without its template
// arguments and namespaces (scale for ns::scale<float>).
func PlainKernelName(key string) string {
	if i := strings.IndexByte(key, '<'); i >= 0 {
		key = key[:i]
	}
	return lastComponent(key)
}

// argsMaySay reports whether a parsed call's arguments may pass on a
// parameter of the calling function (params) or show a functor's class:
// most calls do neither, and their arguments' texts are not needed.
func argsMaySay(c *Call, params []lexicalParam) bool {
	for _, a := range c.Args {
		a = a.Unparen()
		switch {
		case a.Is("call_expression", "compound_literal_expression"):
			return true
		case a.Is("identifier"):
			for _, p := range params {
				if (p.typed || p.handle || classLike(p.typ)) && p.name == a.Text() {
					return true
				}
			}
		}
	}
	return false
}

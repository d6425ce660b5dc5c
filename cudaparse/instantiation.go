package cudaparse

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Kernel keys of template instantiations. Each instantiation of a kernel
// template is its own kernel and loads on its own (measured: launching
// kern<1> loads nothing for kern<10>). A key names the instantiation in one
// spelling, whatever the source's: k<float,4> for `k< float, 4 >`,
// `::k<float, 4>`, `k<float>` where N defaults to 4, `k<real, 2 * 2>` with
// `typedef float real;`. A launch that leaves its template arguments to
// deduction, `k<<<g, b>>>(2.0f, x)`, gets those C++ deduces from the types
// of its call arguments, as far as the file declares them.
//
// An argument that cannot be known is UnknownArg: `k<?>` is some
// instantiation of k, and SameKernel takes it as the same kernel as any
// instantiation of k (fewer false alarms: a warm-up of k<float> before a
// timed launch of k whose types are unknown is taken as covering it). A key
// without arguments, `k`, names either a kernel that is no template or a
// template the file does not show; it too matches any instantiation of k.

// UnknownArg stands for a template argument that could not be deduced.
const UnknownArg = "?"

// UnknownFunctorArg stands for the functor type of a launch for a
// parameter's type (TypedKernelKey) that the call does not show. Timed,
// `k<*>` is covered by any launch of k before it, as `k<?>` is; launched
// before, it covers no instantiation whose type is known (`k<Saxpy>`):
// which functor it ran is not known, and each functor type is a kernel of
// its own. SameKernel's first key is the one launched before.
const UnknownFunctorArg = "*"

// UnknownInstantiation reports whether a kernel key leaves some template
// argument unknown (k<?>, k<float,?>).
func UnknownInstantiation(key string) bool {
	_, args, ok := splitKernelKey(key)
	if !ok {
		return false
	}
	for _, a := range args {
		if a == UnknownArg {
			return true
		}
	}
	return false
}

// InstantiationNote returns what a message adds after a kernel key whose
// template arguments are not all known, or "".
func InstantiationNote(key string) string {
	name, args, _ := splitKernelKey(key)
	if len(args) == 1 && args[0] == UnknownFunctorArg {
		return " (the instantiation for a functor type this call does not show; a launch or preload of any instantiation of " + name + " before it would count as loading it)"
	}
	if !UnknownInstantiation(key) {
		return ""
	}
	return " (a template instantiation whose arguments could not be deduced from the file; a launch or preload of any instantiation of " + name + " before it would count as loading it)"
}

// SameKernel reports whether two kernel keys name the same kernel: equal,
// or equal but for a namespace qualification one of them leaves out
// (`ns::k` and `k`), or one instantiation where an argument of either is
// unknown (`k<?>` and `k<float>`) or one of them names no arguments at
// all (`k` and `k<float>`).
func SameKernel(a, b string) bool {
	if a == b {
		return a != ""
	}
	if a == "" || b == "" {
		return false
	}
	an, aargs, aok := splitKernelKey(a)
	bn, bargs, bok := splitKernelKey(b)
	if !aok && an != a || !bok && bn != b {
		return sameKernelName(a, b) // not a symbol's key ("k (the lambda at line 3)")
	}
	if !sameKernelName(an, bn) {
		return false
	}
	if !aok || !bok {
		return true // one of them names some instantiation, or is no template
	}
	n := min(len(aargs), len(bargs))
	for i := 0; i < n; i++ {
		switch {
		case bargs[i] == UnknownFunctorArg:
		case aargs[i] == UnknownFunctorArg:
			if bargs[i] != UnknownArg {
				return false
			}
		case aargs[i] != bargs[i] && aargs[i] != UnknownArg && bargs[i] != UnknownArg &&
			compactSpace(aargs[i]) != compactSpace(bargs[i]):
			return false
		}
	}
	return true
}

func sameKernelName(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	return strings.HasSuffix(a, "::"+b)
}

// isSymbolName reports whether s is a name, qualified or not: a letter or
// '_', then letters, digits, '_' and ':' (by hand, not by an expression:
// kernel keys are split millions of times a run).
func isSymbolName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z' || s[0] == '_') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

// splitKernelKey splits `ns::k<float,4>` into ns::k and [float 4]; ok is
// false for a key without an argument list (name is then the key when it
// is a symbol's name, "" otherwise).
func splitKernelKey(key string) (name string, args []string, ok bool) {
	i := strings.IndexByte(key, '<')
	if i < 0 || !strings.HasSuffix(key, ">") {
		if isSymbolName(key) {
			return key, nil, false
		}
		return "", nil, false
	}
	name = key[:i]
	if !isSymbolName(name) {
		return "", nil, false
	}
	return name, splitTopLevel(key[i+1 : len(key)-1]), true
}

// splitTopLevel splits a template argument list's text at its top-level
// commas.
func splitTopLevel(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// KernelKeyOf returns the key of a kernel expression: its name without a
// leading `::` and its template arguments in one spelling (types as
// canonical C++ names with the file's aliases resolved, constants
// evaluated, defaults the file's declaration gives filled in), so that
// `k<float>` and `k<double>` differ and `k< float, 4 >` and `::k<float,4>`
// do not.
func KernelKeyOf(n Node) string {
	if !n.Valid() {
		return ""
	}
	return n.f.kernelKey(n, nil, false)
}

// keyLaunches gives each launch its key, once the file's facts are built.
func (f *File) keyLaunches() {
	for _, l := range f.Launches {
		if l.key != "" || !l.KernelExpr.Valid() {
			continue
		}
		if l.API != "" {
			if k := f.kernelHeldBy(l.KernelExpr); k.Valid() {
				l.KernelExpr, l.Kernel = k, k.Name()
			}
		}
		// Only <<<>>> deduces: a launch API takes the kernel's address,
		// which names the instantiation.
		l.key = f.kernelKey(l.KernelExpr, l.Args, l.API == "" && l.ViaMacro == "")
	}
}

// kernelHeldBy returns the kernel a launch API's operand holds when the
// operand is a local variable set to the address of a kernel of the file
// (`void *kernel_ptr = (void *)&gemm<Spec>; cudaFuncSetAttribute(kernel_ptr,
// ...); launch(params, kernel_ptr, ...)`): the kernel as its definition
// writes it, on every definition that reaches the launch; else the invalid
// node.
func (f *File) kernelHeldBy(operand Node) Node {
	if !operand.Is("identifier") || f.FunctionNamed(operand.Text()) != nil {
		return Node{}
	}
	var held Node
	for _, d := range f.ReachingDefs(operand) {
		if d.Op != DefInit && d.Op != DefAssign || !d.Value.Valid() {
			return Node{}
		}
		k := kernelOperand(d.Value)
		kernel := f.FunctionNamed(k.Name())
		if kernel == nil || !kernel.IsKernel() || !k.Is("identifier", "qualified_identifier", "template_function") ||
			held.Valid() && compactSpace(held.Text()) != compactSpace(k.Text()) {
			return Node{}
		}
		held = k
	}
	return held
}

// kernelKey returns the key of kernel expression expr; with deduce, the
// template arguments it leaves out are deduced from the call's args.
func (f *File) kernelKey(expr Node, args []Node, deduce bool) string {
	written := strings.TrimPrefix(compactSpace(expr.Text()), "::")
	tf := templateFunctionOf(expr)
	if !tf.Valid() && !expr.Is("identifier", "qualified_identifier") {
		return written
	}
	name := written
	var targs []Node
	if tf.Valid() {
		name = strings.TrimPrefix(compactSpace(f.textBetween(expr.Start(), tf.ChildByField("arguments").Start())), "::")
		targs = tf.ChildByField("arguments").NamedChildren()
	}
	templates := f.kernelTemplates(expr.Name())
	if len(templates) == 0 || !tf.Valid() && !deduce {
		if !tf.Valid() {
			return name
		}
		return name + "<" + strings.Join(f.writtenArgs(targs, expr), ",") + ">"
	}
	var results [][]string
	for _, t := range templates {
		if got, ok := f.instantiate(t, targs, args, deduce, expr); ok {
			results = append(results, got)
		}
	}
	if len(results) == 0 {
		if !tf.Valid() {
			return name
		}
		return name + "<" + strings.Join(f.writtenArgs(targs, expr), ",") + ">"
	}
	return name + "<" + strings.Join(mergeInstantiations(results), ",") + ">"
}

// textBetween returns the file's text between two offsets.
func (f *File) textBetween(from, to int) string {
	if from < 0 || to > len(f.Src) || from > to {
		return ""
	}
	return string(f.Src[from:to])
}

// templateFunctionOf returns the template_function a kernel expression
// ends in: k<float>, ns::k<float>, ::ns::k<float>.
func templateFunctionOf(expr Node) Node {
	for n := expr; n.Valid(); n = n.ChildByField("name") {
		switch n.Kind() {
		case "template_function":
			return n
		case "qualified_identifier":
		default:
			return Node{}
		}
	}
	return Node{}
}

// writtenArgs returns the template arguments as written, in the key's
// spelling.
func (f *File) writtenArgs(targs []Node, at Node) []string {
	out := make([]string, 0, len(targs))
	for _, a := range targs {
		out = append(out, f.canonArg(a, at))
	}
	return out
}

// MergeKernelKeys merges the kernel keys several overloads launch or
// preload, one list per overload, kernel by kernel: the same kernels,
// with the template arguments they agree on and UnknownArg elsewhere.
// It fails (false) when the overloads name other kernels.
func MergeKernelKeys(lists [][]string) ([]string, bool) {
	sorted := make([][]string, len(lists))
	for i, l := range lists {
		sorted[i] = slices.Sorted(slices.Values(l))
		if len(sorted[i]) != len(sorted[0]) {
			return nil, false
		}
	}
	var out []string
	for j, key := range sorted[0] {
		name, args, ok := splitKernelKey(key)
		if name == "" {
			return nil, false
		}
		results := [][]string{args}
		for _, l := range sorted[1:] {
			n2, a2, ok2 := splitKernelKey(l[j])
			if n2 != name || ok2 != ok {
				return nil, false
			}
			results = append(results, a2)
		}
		if !ok {
			out = append(out, name)
			continue
		}
		out = append(out, name+"<"+strings.Join(mergeInstantiations(results), ",")+">")
	}
	return out, true
}

// mergeInstantiations merges the instantiations several overloads give:
// the arguments they agree on, UnknownArg elsewhere.
func mergeInstantiations(results [][]string) []string {
	out := results[0]
	for _, r := range results[1:] {
		if len(r) != len(out) {
			return []string{UnknownArg}
		}
		for i := range out {
			if out[i] != r[i] {
				out[i] = UnknownArg
			}
		}
	}
	return out
}

// tparam is a template parameter of a kernel template.
type tparam struct {
	name     string
	isType   bool
	variadic bool
	def      Node // the default, a type or an expression; zero when none
}

// kernelTemplate is a kernel template the file declares or defines.
type kernelTemplate struct {
	fn     *Function
	params []tparam
}

// kernelTemplates returns the kernel templates of the file named name; nil
// when there is none, or a kernel of that name that is no template.
func (f *File) kernelTemplates(name string) []kernelTemplate {
	f.templatesOnce.Do(f.collectKernelTemplates)
	if f.plainKernels[name] {
		return nil
	}
	return f.templateKernels[name]
}

func (f *File) collectKernelTemplates() {
	f.templateKernels = map[string][]kernelTemplate{}
	f.plainKernels = map[string]bool{}
	for _, list := range [][]*Function{f.Functions, f.Prototypes} {
		for _, fn := range list {
			if !fn.IsKernel() {
				continue
			}
			if !fn.Template {
				f.plainKernels[fn.Name] = true
				continue
			}
			f.templateKernels[fn.Name] = append(f.templateKernels[fn.Name], kernelTemplate{fn: fn, params: templateParams(fn.Node.Parent())})
		}
	}
	// A declaration gives the defaults, the definition repeats none: each
	// declaration of one parameter list takes the defaults of the others.
	for _, ts := range f.templateKernels {
		for i := range ts {
			for j := range ts {
				if i != j && len(ts[i].params) == len(ts[j].params) && len(ts[i].fn.Params) == len(ts[j].fn.Params) {
					shareDefaults(ts[i].params, ts[j].params)
				}
			}
		}
	}
}

func shareDefaults(to, from []tparam) {
	for k := range to {
		if !to[k].def.Valid() && from[k].def.Valid() && to[k].isType == from[k].isType {
			to[k].def = from[k].def
			if to[k].name != from[k].name {
				to[k].def = Node{} // the default may name the other's parameters
			}
		}
	}
}

// templateParams reads a template_declaration's parameter list.
func templateParams(decl Node) []tparam {
	var out []tparam
	for _, p := range decl.ChildByField("parameters").NamedChildren() {
		switch p.Kind() {
		case "type_parameter_declaration":
			out = append(out, tparam{name: lastNamedText(p), isType: true})
		case "optional_type_parameter_declaration":
			out = append(out, tparam{name: p.ChildByField("name").Text(), isType: true, def: p.ChildByField("default_type")})
		case "parameter_declaration":
			out = append(out, tparam{name: declaredName(p.ChildByField("declarator"))})
		case "optional_parameter_declaration":
			out = append(out, tparam{name: declaredName(p.ChildByField("declarator")), def: p.ChildByField("default_value")})
		case "variadic_type_parameter_declaration", "variadic_parameter_declaration":
			out = append(out, tparam{name: lastNamedText(p), isType: p.Is("variadic_type_parameter_declaration"), variadic: true})
		default: // a template template parameter
			out = append(out, tparam{name: lastNamedText(p)})
		}
	}
	return out
}

func lastNamedText(n Node) string {
	c := n.NamedChildren()
	if len(c) == 0 {
		return ""
	}
	return declaredName(c[len(c)-1])
}

// instantiate returns the template arguments of a launch (deduce) or
// reference of template t: written ones first, then deduced ones, then
// defaults; false when t cannot take the call's arguments.
func (f *File) instantiate(t kernelTemplate, targs, args []Node, deduce bool, at Node) ([]string, bool) {
	if deduce && !acceptsArgs(t.fn, len(args)) || len(targs) > len(t.params) && !hasVariadic(t.params) {
		return nil, false
	}
	if len(targs) < len(t.params) && f.mayStandForSeveral(targs) {
		// k<PARAMS_MACRO>: the written arguments may be more than they
		// look; their positions are not known, so nothing is added.
		return f.writtenArgs(targs, at), true
	}
	bound := map[string]string{}
	for i, a := range targs {
		if i >= len(t.params) || t.params[i].variadic {
			break
		}
		bound[t.params[i].name] = f.canonArg(a, at)
	}
	if deduce {
		f.deduce(t, args, bound)
	}
	var out []string
	for i, p := range t.params {
		if p.variadic {
			if i < len(targs) {
				out = append(out, f.writtenArgs(targs[i:], at)...)
			} else {
				out = append(out, UnknownArg)
			}
			break
		}
		v, ok := bound[p.name]
		if !ok {
			v = f.defaultArg(p, t.params, bound, at)
			bound[p.name] = v
		}
		out = append(out, v)
	}
	return out, true
}

// macroLike matches a name spelled as macros are (BLOCK_PARAMS).
var macroLike = regexp.MustCompile(`^[A-Z][A-Z0-9_]+$`)

// mayStandForSeveral reports whether a written template argument may be a
// macro that expands to several (`k<KERNEL_TEMPLATE_PARAMS>`): a name
// spelled like a macro that is no constant or alias the file shows.
func (f *File) mayStandForSeveral(targs []Node) bool {
	for _, a := range targs {
		id := plainTypeName(a)
		if !id.Valid() && a.Is("identifier") {
			id = a
		}
		if !id.Valid() || !macroLike.MatchString(id.Text()) {
			continue
		}
		if _, ok := f.namedConstant(id); ok {
			continue
		}
		if _, ok := f.aliasType(id, 0); ok {
			continue
		}
		return true
	}
	return false
}

func hasVariadic(ps []tparam) bool {
	for _, p := range ps {
		if p.variadic {
			return true
		}
	}
	return false
}

// acceptsArgs reports whether fn can be called with n arguments.
func acceptsArgs(fn *Function, n int) bool {
	required, variadic := 0, false
	for _, p := range fn.Params {
		switch {
		case p.Node.Is("variadic_parameter_declaration"):
			variadic = true
		case p.Node.Is("parameter_declaration"):
			if p.Node.Text() != "void" {
				required++
			}
		}
	}
	total := len(fn.Params)
	if required == 0 && total == 1 && fn.Params[0].Node.Text() == "void" {
		total = 0
	}
	return required <= n && (n <= total || variadic)
}

// deduce binds the template parameters the call's argument types give,
// those not bound yet. Two arguments that give one parameter different
// types (the file's types are not the compiler's) leave it unknown.
func (f *File) deduce(t kernelTemplate, args []Node, bound map[string]string) {
	names := map[string]bool{}
	for _, p := range t.params {
		if p.isType && !p.variadic {
			if _, ok := bound[p.name]; !ok {
				names[p.name] = true
			}
		}
	}
	if len(names) == 0 {
		return
	}
	deduced := map[string]string{}
	for i, prm := range t.fn.Params {
		if i >= len(args) || prm.Node.Is("variadic_parameter_declaration") {
			break
		}
		pat, ok := f.declType(prm.Node, prm.Node.ChildByField("declarator"), names, 0)
		if !ok {
			continue
		}
		arg, ok := f.exprType(args[i], 0)
		if !ok {
			continue
		}
		for name, v := range unify(pat, arg, names) {
			if old, seen := deduced[name]; seen && old != v {
				v = UnknownArg
			}
			deduced[name] = v
		}
	}
	for name, v := range deduced {
		bound[name] = v
	}
}

// unify matches a parameter's type (pat, in which names are template
// parameters) with an argument's, as C++ deduction does for the shapes
// kernels take: T, T*, const T*, T&, const T&, T**, Vec<T>, Vec<T>*.
func unify(pat, arg ctype, names map[string]bool) map[string]string {
	if names[pat.base] {
		if pat.ptr > arg.ptr {
			return nil
		}
		t := ctype{base: arg.base, cnst: arg.cnst, ptr: arg.ptr - pat.ptr}
		if t.ptr == 0 && (pat.cnst || pat.ptr == 0) {
			t.cnst = false // const T* from const float*: T is float; T from const float: float
		}
		return map[string]string{pat.base: t.String()}
	}
	pn, pargs, pok := splitKernelKey(pat.base)
	an, aargs, aok := splitKernelKey(arg.base)
	if !pok || !aok || pat.ptr != arg.ptr || len(pargs) != len(aargs) || !sameKernelName(pn, an) {
		return nil
	}
	out := map[string]string{}
	for i, p := range pargs {
		if names[p] {
			out[p] = aargs[i]
		}
	}
	return out
}

// defaultArg returns a parameter's default with the parameters bound so
// far put in, or UnknownArg.
func (f *File) defaultArg(p tparam, params []tparam, bound map[string]string, at Node) string {
	if !p.def.Valid() {
		return UnknownArg
	}
	var names, values []string
	for _, q := range params {
		if v, ok := bound[q.name]; ok {
			names, values = append(names, q.name), append(values, v)
		}
	}
	text := compactSpace(p.def.Text())
	mentions := substituteParams(text, names, values) != text
	if !mentions {
		return f.canonArg(p.def, at)
	}
	text = substituteParams(p.def.Text(), names, values)
	if strings.Contains(text, UnknownArg) {
		return UnknownArg
	}
	if !p.isType {
		if v, ok := f.macroValue(text, 0); ok && v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return strconv.FormatInt(int64(v), 10)
		}
	}
	return compactSpace(text)
}

// canonArg returns a template argument in the key's spelling: a type as
// ctype writes it, an integral constant as its value, anything else as
// written without blanks.
func (f *File) canonArg(a Node, at Node) string {
	// A parameter of the template the launch or preload sits in: which
	// instantiation it names depends on the caller (callKernel<N, B>
	// launching k<N, B>, measure<N> preloading k<N, 256>), unknown here.
	if at.Valid() && isTemplateParam(compactSpace(a.Text()), at) {
		return UnknownArg
	}
	if a.Is("type_descriptor") || isTypeNode(a) {
		if id := plainTypeName(a); id.Valid() {
			if v, ok := f.namedConstant(id); ok {
				return v
			}
		}
		if t, ok := f.typeOf(a, nil, 0); ok {
			return t.String()
		}
		return compactSpace(a.Text())
	}
	switch a.Unparen().Kind() {
	case "true", "false":
		return a.Unparen().Kind()
	}
	if v, ok := f.ConstValue(a); ok && v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.FormatInt(int64(v), 10)
	}
	return compactSpace(a.Text())
}

func isTypeNode(n Node) bool {
	return n.Is("primitive_type", "sized_type_specifier", "type_identifier", "template_type")
}

// plainTypeName returns the type_identifier a type argument is when it is
// nothing more (the grammar reads `k<BLOCK>` so), or the zero Node.
func plainTypeName(a Node) Node {
	if a.Is("type_identifier") {
		return a
	}
	if !a.Is("type_descriptor") || a.ChildByField("declarator").Valid() || len(a.NamedChildren()) != 1 {
		return Node{}
	}
	if t := a.ChildByField("type"); t.Is("type_identifier") {
		return t
	}
	return Node{}
}

// namedConstant returns the integral value of a name bound to a constant
// (a constexpr local or global, an enumerator-free #define), as a key's
// argument.
func (f *File) namedConstant(id Node) (string, bool) {
	defs := f.ReachingDefs(id)
	if len(defs) != 1 || defs[0].Op != DefInit || !defs[0].Value.Valid() {
		return "", false
	}
	var v float64
	var ok bool
	if defs[0].Value.Is("preproc_arg") {
		v, ok = f.macroValue(defs[0].Value.Text(), 0)
	} else {
		v, ok = f.ConstValue(defs[0].Value)
	}
	if !ok || v != math.Trunc(v) || math.Abs(v) >= 1<<53 {
		return "", false
	}
	return strconv.FormatInt(int64(v), 10), true
}

// isTemplateParam reports whether name is a parameter of a template
// declaration around at (a function template, or the class template of a
// member function).
func isTemplateParam(name string, at Node) bool {
	if !isIdentifier(name) {
		return false
	}
	for p := at.Parent(); p.Valid(); p = p.Parent() {
		if !p.Is("template_declaration") {
			continue
		}
		for _, tp := range templateParams(p) {
			if tp.name == name {
				return true
			}
		}
	}
	return false
}

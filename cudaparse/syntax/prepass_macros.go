package syntax

import (
	"bytes"
	"slices"
	"strings"
)

// Qualifier macros and other macros that stand where the grammar expects
// declarations: found by definition, by name, or by where they stand.

// discoverMacros records object-like macros of this file whose expansion is
// nothing, or only declaration qualifiers: `#define HD __host__ __device__`;
// and those whose body is a launch statement (p.statements).
func (p *prepass) discoverMacros() {
	p.macros = map[string]QualifierKind{}
	p.statements = nil
	for _, t := range p.toks {
		if t.Kind != TokDirective {
			continue
		}
		name, body, ok := objectLikeDefine(p.src[t.Start:t.End])
		if !ok || cppKeywords[name] {
			continue
		}
		if launchStatement(body) {
			if p.statements == nil {
				p.statements = map[string]bool{}
			}
			p.statements[name] = true
		}
		kind, ok := p.qualifierExpansion(body)
		if !ok {
			continue
		}
		if prev, seen := p.macros[name]; seen && prev != kind {
			// Defined differently under different #if branches: keep the
			// strongest meaning (global > device > host > other).
			if rank(kind) < rank(prev) {
				kind = prev
			}
		}
		p.macros[name] = kind
	}
}

// rank orders qualifier kinds by how much they say about a declaration, to
// name a macro that expands to several: `__device__ __managed__` declares a
// managed variable, `__host__ __device__` a device function.
func rank(k QualifierKind) int {
	switch k {
	case QualGlobal:
		return 6
	case QualManaged:
		return 5
	case QualConstant:
		return 4
	case QualShared:
		return 3
	case QualDevice:
		return 2
	case QualHost:
		return 1
	}
	return 0
}

// objectLikeDefine splits `#define NAME body` (not `NAME(`) into its name and
// body with continuations and comments removed.
func objectLikeDefine(d []byte) (name string, body []byte, ok bool) {
	d = bytes.TrimLeft(d[1:], " \t")
	if !bytes.HasPrefix(d, []byte("define")) {
		return "", nil, false
	}
	d = d[len("define"):]
	if len(d) == 0 || !IsSpace(d[0]) {
		return "", nil, false
	}
	d = bytes.TrimLeft(d, " \t")
	j := 0
	for j < len(d) && IsIdentByte(d[j]) {
		j++
	}
	if j == 0 || j < len(d) && d[j] == '(' {
		return "", nil, false
	}
	return string(d[:j]), d[j:], true
}

// qualifierExpansion reports whether a macro body consists only of
// qualifiers, qualifier macros, declaration keywords and attributes, and the
// strongest qualifier among them.
func (p *prepass) qualifierExpansion(body []byte) (QualifierKind, bool) {
	kind := QualOther
	toks := Lex(body)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		w := body[t.Start:t.End]
		switch t.Kind {
		case TokComment:
			continue
		case TokPunct:
			if w[0] == '\\' {
				continue
			}
			return 0, false
		case TokIdent:
		default:
			return 0, false
		}
		s := string(w)
		k, isQual := cudaQualifiers[s]
		if !isQual {
			k, isQual = knownQualifierMacros[s]
		}
		if !isQual {
			k, isQual = p.macros[s]
		}
		switch {
		case isQual:
			if rank(k) > rank(kind) {
				kind = k
			}
		case s == "inline" || s == "static" || s == "constexpr" || s == "__inline__" || s == "__forceinline":
		case s == "__attribute__" || s == "__declspec" || cudaAttributeCalls[s]:
			// Skip the balanced argument list.
			if i+1 < len(toks) {
				i = BalancedEnd(body, toks, i+1)
			}
		default:
			return 0, false
		}
	}
	return kind, true
}

// rewriteQualifiers blanks CUDA qualifiers, attribute-like calls, qualifier
// macros and pragma macros, recording each.
func (p *prepass) rewriteQualifiers() {
	// First what is known by name; then macros judged by where they stand,
	// with the known ones already out of the way.
	var unknown []int
	classes := p.classNames()
	typeNames := p.declaredTypeNames()
	for i, t := range p.toks {
		if t.Kind != TokIdent || p.blanked[i] {
			continue
		}
		// w is looked up in maps as string(w), which copies nothing; a
		// string of every identifier was a third of this pass.
		w := p.text(i)
		if k, ok := cudaQualifiers[string(w)]; ok {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.Start), End: int(t.End)})
			continue
		}
		if cudaAttributeCalls[string(w)] {
			if end, ok := p.balancedParensAcross(i + 1); ok {
				p.blankRecorded(i, end)
			}
			continue
		}
		if p.isStringMacro(i) {
			p.blankRecorded(i, i)
			continue
		}
		if !isMacroLikeName(w) || typeNames[string(w)] {
			continue
		}
		if k, ok := knownQualifierMacros[string(w)]; ok && (!p.isPunct(i+1, '(') || p.afterLambdaIntroducer(i)) {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.Start), End: int(t.End), Macro: string(w)})
			continue
		}
		if k, ok := p.macros[string(w)]; ok && (!p.isPunct(i+1, '(') || p.afterLambdaIntroducer(i)) {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.Start), End: int(t.End), Macro: string(w)})
			continue
		}
		if p.isPragmaMacro(i) {
			end := i
			if p.isPunct(i+1, '(') {
				end, _ = p.balancedParens(i + 1)
			}
			p.blankRecorded(i, end)
			continue
		}
		if p.isStandaloneMacro(i) || p.isClassHeadMacro(i) || p.isAliasMacro(i) {
			end := i
			if p.isPunct(i+1, '(') {
				end, _ = p.balancedParens(i + 1)
			}
			p.blankRecorded(i, end)
			continue
		}
		if p.isAccessMacro(i, classes) {
			// _CUDAX_SEMI_PRIVATE: becomes `public` and spaces.
			copy(p.out[t.Start:], "public")
			p.blank(int(t.Start)+len("public"), int(t.End))
			p.blanked[i] = true
			p.rw.Blanked = append(p.rw.Blanked, Range{int(t.Start), int(t.End)})
			continue
		}
		if p.isCallingConventionMacro(i) || p.isConditionMacro(i) {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: QualOther, Start: int(t.Start), End: int(t.End), Macro: string(w)})
			continue
		}
		if !p.isPunct(i+1, '(') || p.afterLambdaIntroducer(i) {
			unknown = append(unknown, i)
		}
	}
	if len(unknown) == 0 {
		return
	}
	var found []int
	for _, i := range unknown {
		if p.atDeclarationStart(i, 0) && p.beforeDeclaration(i, classes, 0) {
			found = append(found, i)
		}
	}
	for _, i := range found {
		t := p.toks[i]
		s := string(p.text(i))
		k, ok := knownQualifierMacros[s]
		if !ok {
			k = QualOther
			if upper := strings.ToUpper(s); strings.Contains(upper, "GLOBAL") || strings.Contains(upper, "KERNEL") {
				k = QualGlobal
			}
		}
		p.blankTokens(i, i)
		p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.Start), End: int(t.End), Macro: s})
	}
	sortQualifiers(p.rw.Qualifiers)
}

func sortQualifiers(q []Qualifier) {
	slices.SortFunc(q, func(a, b Qualifier) int { return a.Start - b.Start })
}

// afterLambdaIntroducer reports whether token i follows a lambda's capture
// list `[...]` (not an attribute `[[...]]`) or its parameter list.
func (p *prepass) afterLambdaIntroducer(i int) bool {
	prev := p.prevToken(i)
	if p.isPunct(prev, ']') {
		return !p.isPunct(prev-1, ']')
	}
	if !p.isPunct(prev, ')') {
		return false
	}
	// `[...] (params) HD {`: find the `(` and look before it for `]`.
	open, ok := p.openingParen(prev)
	if !ok {
		return false
	}
	k := p.prevToken(open)
	return p.isPunct(k, ']') && !p.isPunct(k-1, ']')
}

// isStandaloneMacro reports whether the macro at i (with its argument list,
// if any) stands alone between two declarations or statements, where it can
// only expand to a declaration or pragma of its own: _CCCL_DIAG_PUSH,
// _CCCL_DIAG_SUPPRESS_MSVC(4244). Macros whose arguments hold calls are left
// alone: CUDA_CHECK(cudaMalloc(&p, n)) written without a semicolon is a call
// that rules need to see.
func (p *prepass) isStandaloneMacro(i int) bool {
	if p.statements[string(p.text(i))] {
		return false // the file's own statement: `CALL_SWEEP` (terminateObjectMacro)
	}
	end := i
	if p.isPunct(i+1, '(') {
		e, ok := p.balancedParens(i + 1)
		if !ok {
			return false
		}
		for k := i + 2; k < e; k++ {
			if p.isPunct(k, '(') {
				return false
			}
		}
		end = e
	}
	prev := p.prevToken(i)
	if prev >= 0 && !(p.toks[prev].Kind == TokDirective || p.isPunct(prev, ';') || p.isPunct(prev, '{') || p.isPunct(prev, '}')) {
		return false
	}
	if prev >= 0 && p.toks[prev].Kind != TokDirective && !p.toks[i].LineStart {
		return false
	}
	// CUDA keywords after the macro are blanked by this pass: look past
	// them, as a second pass over the rewritten text would.
	next, lineStart := end+1, false
	for next < len(p.toks) && (p.blanked[next] || p.isKeyword(next)) {
		lineStart = lineStart || p.toks[next].LineStart
		next++
	}
	if next >= len(p.toks) {
		return true
	}
	if p.isPunct(next, ';') || p.isPunct(next, '{') || p.isPunct(next, '=') || p.isPunct(next, '.') || p.isPunct(next, '-') || p.isPunct(next, ',') {
		return false
	}
	// An operator on the next line continues an expression:
	// CHECK(x)\n    << "message";
	if p.toks[next].Kind == TokPunct && bytes.IndexByte([]byte("<>|&+*/%^?[:!"), p.src[p.toks[next].Start]) >= 0 {
		return false
	}
	return lineStart || p.toks[next].LineStart || p.toks[next].Kind == TokDirective
}

// isKeyword reports whether token i is a CUDA keyword, or a qualifier
// macro known by name or defined in the file, that the pre-pass blanks.
func (p *prepass) isKeyword(i int) bool {
	if p.toks[i].Kind != TokIdent {
		return false
	}
	w := p.text(i)
	if _, ok := cudaQualifiers[string(w)]; ok {
		return true
	}
	if p.isPunct(i+1, '(') {
		return false
	}
	_, known := knownQualifierMacros[string(w)]
	_, defined := p.macros[string(w)]
	return known || defined
}

// isCallingConventionMacro reports whether the macro at i stands between a
// return type and a function name: void CUDART_CB callback(...).
func (p *prepass) isCallingConventionMacro(i int) bool {
	prev := p.prevToken(i)
	if !(p.isIdent(prev) && !isMacroLikeName(p.text(prev)) || p.isPunct(prev, '*') || p.isPunct(prev, '&')) {
		return false
	}
	if p.isIdent(prev) {
		switch string(p.text(prev)) {
		case "return", "new", "delete", "throw", "case", "goto", "sizeof", "typename", "struct", "class", "union", "enum", "else", "do":
			return false
		}
	}
	next := p.nextToken(i)
	if p.isIdent(next) && (string(p.text(next)) == "const" || string(p.text(next)) == "volatile") {
		return true // Args NCCL_GRID_CONSTANT const args
	}
	return p.isIdent(next) && !declarationKeywords[string(p.text(next))] && p.isPunct(next+1, '(')
}

// isAccessMacro reports whether the macro at i is an access specifier in
// macro form: it stands first in a class body member and is followed by a
// single `:`.
func (p *prepass) isAccessMacro(i int, classes map[int]string) bool {
	if len(p.text(i)) < len("public") || !p.isPunct(i+1, ':') || p.isPunct(i+2, ':') {
		return false
	}
	prev := p.prevToken(i)
	if !(prev < 0 || p.isPunct(prev, ';') || p.isPunct(prev, '{') || p.isPunct(prev, '}') || p.isPunct(prev, ':') || p.toks[prev].Kind == TokDirective) {
		return false
	}
	return p.enclosingClass(i, classes) != ""
}

// declaredTypeNames collects names the file declares as types: template
// type parameters and class names (`template <typename CG>`, `struct KV`).
// An upper-case type name such as CG is never a qualifier macro.
func (p *prepass) declaredTypeNames() map[string]bool {
	names := map[string]bool{}
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) {
			continue
		}
		switch string(p.text(i)) {
		case "typename", "class", "struct", "union", "enum":
			if j := i + 1; p.isIdent(j) && (p.isPunct(j+1, ',') || p.isPunct(j+1, '>') || p.isPunct(j+1, '=') || p.isPunct(j+1, '{') || p.isPunct(j+1, ':') || p.isPunct(j+1, ';')) {
				names[string(p.text(j))] = true
			}
		case "using", "typedef":
			if j := i + 1; p.isIdent(j) && p.isPunct(j+1, '=') {
				names[string(p.text(j))] = true
			}
		}
	}
	return names
}

// isStringMacro reports whether the name at i is a string literal macro
// pasted to a literal: "%" PRId64 "\n" (a name next to a literal can only
// be one). Blanked, the literals still concatenate.
func (p *prepass) isStringMacro(i int) bool {
	prev, next := p.prevToken(i), i+1 // blanked keywords before it are white space, as in a second pass
	isString := func(k int) bool { return k >= 0 && k < len(p.toks) && p.toks[k].Kind == TokString }
	return isString(prev) && (isString(next) || p.isPunct(next, ')') || p.isPunct(next, ',') || p.isPunct(next, ';')) ||
		isString(next) && (p.isPunct(prev, '(') || p.isPunct(prev, ','))
}

// isConditionMacro reports whether the macro at i stands between `if` and
// its condition: if NCCL_IF_CONSTEXPR (cond).
func (p *prepass) isConditionMacro(i int) bool {
	prev := p.prevToken(i)
	return p.isIdent(prev) && string(p.text(prev)) == "if" && p.isPunct(i+1, '(')
}

// isAliasMacro reports whether the macro at i stands between an alias
// name and `=`: using Policy CCCL_DEPRECATED_BECAUSE("...") = T;
func (p *prepass) isAliasMacro(i int) bool {
	name := p.prevToken(i)
	if !p.isIdent(name) || !p.isIdent(p.prevToken(name)) || string(p.text(p.prevToken(name))) != "using" {
		return false
	}
	next, ok := p.afterArguments(i)
	return ok && p.isPunct(next, '=')
}

// isClassHeadMacro reports whether the macro at i stands between `struct`
// (class, union, enum) and the name: struct _CCCL_TYPE_VISIBILITY_DEFAULT X,
// struct DEPRECATED("use Y") X.
func (p *prepass) isClassHeadMacro(i int) bool {
	prev := p.prevToken(i)
	if !p.isIdent(prev) {
		return false
	}
	switch string(p.text(prev)) {
	case "struct", "class", "union", "enum", "namespace":
	default:
		return false
	}
	next, ok := p.afterArguments(i)
	return ok && p.isIdent(next)
}

// opensNamespace reports whether the `{` at i opens a namespace (`namespace
// a {`, `namespace a::b {`, `namespace {`) or a linkage block (`extern "C"
// {`).
func (p *prepass) opensNamespace(i int) bool {
	prev := p.prevToken(i)
	if prev >= 0 && p.toks[prev].Kind == TokString {
		return p.isIdent(p.prevToken(prev)) && string(p.text(p.prevToken(prev))) == "extern"
	}
	for k, n := prev, 0; k >= 0 && n < 16; k, n = p.prevToken(k), n+1 {
		switch {
		case p.isIdent(k) && string(p.text(k)) == "namespace":
			return true
		case p.isIdent(k), p.isPunct(k, ':'):
		default:
			return false
		}
	}
	return false
}

// blankFileScopeMacroArguments blanks the arguments of macro invocations
// that stand where only declarations can: at namespace scope, a macro-like
// name with an argument list followed by a body or by `;`
// (TEMPLATE_TEST_CASE("x", "[t]", float) { ... }, INSTANTIATE(int, float);).
// Their arguments are often types and keywords, which no call parses; the
// body is kept and parses as a function.
func (p *prepass) blankFileScopeMacroArguments() {
	depth := 0 // braces that are not namespaces or linkage blocks
	var kinds []bool
	for i := 0; i < len(p.toks); i++ {
		switch {
		case p.isPunct(i, '{'):
			ns := p.opensNamespace(i)
			kinds = append(kinds, ns)
			if !ns {
				depth++
			}
		case p.isPunct(i, '}'):
			if n := len(kinds); n > 0 {
				if !kinds[n-1] {
					depth--
				}
				kinds = kinds[:n-1]
			}
		case depth == 0 && p.isIdent(i) && !p.blanked[i] && isMacroLikeName(p.text(i)) && p.isPunct(i+1, '('):
			prev := p.prevToken(i)
			if !(prev < 0 || p.toks[prev].Kind == TokDirective || p.isPunct(prev, ';') || p.isPunct(prev, '}') || p.isPunct(prev, '{')) {
				continue
			}
			end, ok := p.balancedParensAcross(i + 1)
			if !ok || end == i+2 {
				continue
			}
			if next := p.nextToken(end); p.isPunct(next, '{') || p.isPunct(next, ';') {
				start, stop := int(p.toks[i+1].End), int(p.toks[end].Start)
				p.blank(start, stop)
				for k := i + 2; k < end; k++ {
					p.blanked[k] = true
				}
				p.rw.Blanked = append(p.rw.Blanked, Range{start, stop})
				i = end
			}
		}
	}
}

// isPragmaMacro reports whether the macro at i is a loop pragma in macro
// form (CUTLASS_PRAGMA_UNROLL, _CCCL_PRAGMA_UNROLL_FULL()): it stands in
// front of a statement and, left in, breaks the statement after it.
func (p *prepass) isPragmaMacro(i int) bool {
	w := p.text(i)
	if !bytes.Contains(w, []byte("PRAGMA")) && !bytes.Contains(w, []byte("UNROLL")) {
		return false
	}
	next := i + 1
	if p.isPunct(next, '(') {
		end, ok := p.balancedParens(next)
		if !ok {
			return false
		}
		next = end + 1
	}
	return !p.isPunct(next, ';') && !p.isPunct(next, ')') && !p.isPunct(next, ',')
}

// classNames maps the token index of each `{` that opens a class body to the
// class name, so that constructors can be recognised.
func (p *prepass) classNames() map[int]string {
	names := map[int]string{}
	pending := ""
	for i := 0; i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.Kind == TokIdent:
			s := p.text(i) // compared as string(s): no copy
			if (string(s) == "struct" || string(s) == "class" || string(s) == "union") && !p.isPunct(i-1, '<') && !p.isPunct(i-1, ',') {
				// The class name is the last plain name before `{`, `:` or `;`.
				pending = ""
				for j := i + 1; j < len(p.toks) && j < i+64; j++ {
					if p.isIdent(j) && !p.blanked[j] {
						name := string(p.text(j))
						if name != "final" && name != "alignas" && !isMacroLikeName(p.text(j)) || pending == "" {
							pending = name
						}
						continue
					}
					if p.isPunct(j, '{') || p.isPunct(j, ':') || p.isPunct(j, ';') || p.isPunct(j, '<') || p.isPunct(j, '(') {
						break
					}
				}
			}
		case t.Kind == TokPunct && p.src[t.Start] == '{':
			if pending != "" {
				names[i] = pending
				pending = ""
			}
		case t.Kind == TokPunct && (p.src[t.Start] == ';' || p.src[t.Start] == '(' || p.src[t.Start] == '='):
			pending = ""
		}
	}
	return names
}

// enclosingClass returns the name of the class whose body contains token i.
func (p *prepass) enclosingClass(i int, classes map[int]string) string {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		if p.toks[j].Kind != TokPunct {
			continue
		}
		switch p.src[p.toks[j].Start] {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				return classes[j]
			}
			depth--
		}
	}
	return ""
}

// A macro-like word is taken for a qualifier macro when it stands where
// only one can stand: at the start of a declaration (atDeclarationStart) and
// in front of a declaration keyword, a constructor or destructor name, or a
// type followed by a declarator name (`HD Coord<2> make_coord(`)
// (beforeDeclaration). Chains of such macros are followed both ways.

const maxMacroChain = 6

func (p *prepass) atDeclarationStart(i, depth int) bool {
	prev := p.prevToken(i)
	switch {
	case prev < 0 || p.toks[prev].Kind == TokDirective:
		return true
	case p.isPunct(prev, ';'), p.isPunct(prev, '{'), p.isPunct(prev, '}'), p.isPunct(prev, ':'), p.isPunct(prev, '>'), p.isPunct(prev, ']'), p.isPunct(prev, ')') && p.afterLambdaIntroducer(i):
		return true
	case p.isIdent(prev) && declarationKeywords[string(p.text(prev))]:
		return true
	case p.isPunct(prev, ',') || p.isPunct(prev, '('):
		// A parameter: f(int a, CUTE_GRID_CONSTANT Params const p)
		return depth == 0 && p.beforeParameter(i)
	case p.isIdent(prev) && depth < maxMacroChain && isMacroLikeName(p.text(prev)):
		return p.atDeclarationStart(prev, depth+1)
	}
	return false
}

// skipQualifiers skips `name::` and `name<args>::` prefixes from token j
// and returns the index of the last name.
func (p *prepass) skipQualifiers(j int) int {
	for steps := 0; steps < 16 && p.isIdent(j); steps++ {
		k := j + 1
		if p.isPunct(k, '<') {
			if k = p.afterAngles(k); k < 0 {
				return j
			}
		}
		if !p.isPunct(k, ':') || !p.isPunct(k+1, ':') {
			return j
		}
		j = k + 2
	}
	return j
}

// afterAngles returns the index after the `>` that closes the `<` at k, or
// -1 when a statement boundary comes first.
func (p *prepass) afterAngles(k int) int {
	depth := 0
	for ; k < len(p.toks); k++ {
		switch {
		case p.isPunct(k, '<'):
			depth++
		case p.isPunct(k, '>'):
			if depth--; depth == 0 {
				return k + 1
			}
		case p.isPunct(k, ';'), p.isPunct(k, '{'), p.isPunct(k, '}'):
			return -1
		}
	}
	return -1
}

// isQualifiedMember reports whether tokens [from, paren) are a qualified
// name whose last part is a constructor (`X<T>::X`), a destructor or an
// operator, as in an out-of-class member definition.
func (p *prepass) isQualifiedMember(from, paren int) bool {
	qualified := false
	for k := from; k < paren; k++ {
		if p.isPunct(k, ':') && p.isPunct(k+1, ':') {
			qualified = true
		}
	}
	if !qualified {
		return false
	}
	for k := paren - 1; k > from; k-- {
		if p.isIdent(k) && string(p.text(k)) == "operator" {
			return true
		}
		if p.isPunct(k, ':') {
			break
		}
	}
	last := paren - 1
	if !p.isIdent(last) || !p.isPunct(last-1, ':') {
		return false
	}
	if p.isPunct(last-3, '~') || p.isPunct(last-2, '~') {
		return true
	}
	// X<...>::X or ns::X::X: the name before the last `::` (after its
	// template arguments) is the same.
	k := last - 3
	if p.isPunct(k, '>') {
		depth := 0
		for ; k > from; k-- {
			if p.isPunct(k, '>') {
				depth++
			} else if p.isPunct(k, '<') {
				if depth--; depth == 0 {
					k--
					break
				}
			}
		}
	}
	return p.isIdent(k) && string(p.text(k)) == string(p.text(last))
}

// beforeParameter reports whether a type and a parameter name follow i.
func (p *prepass) beforeParameter(i int) bool {
	next := p.nextToken(i)
	if !p.isIdent(next) {
		return false
	}
	if w := string(p.text(next)); declarationKeywords[w] && w != "const" && w != "volatile" {
		return true
	}
	j := p.skipType(next)
	return j >= 0 && p.isIdent(j) && (p.isPunct(j+1, ',') || p.isPunct(j+1, ')') || p.isPunct(j+1, '='))
}

func (p *prepass) beforeDeclaration(i int, classes map[int]string, depth int) bool {
	next := p.nextToken(i)
	if next >= len(p.toks) {
		return false
	}
	if p.afterLambdaIntroducer(i) { // a lambda: [=] HD (int i) {...}, [](int i) HD {...}
		return p.isPunct(next, '(') || p.isPunct(next, '{') || p.isPunct(next, '-') || p.isIdent(next) && (string(p.text(next)) == "mutable" || declarationKeywords[string(p.text(next))])
	}
	if p.isPunct(next, '~') {
		return true
	}
	if !p.isIdent(next) {
		return false
	}
	nw := p.text(next)
	if string(nw) == "const" || string(nw) == "volatile" {
		// HD const T& get() is a macro; TYPE const& x is a type.
		next = p.nextToken(next)
		if !p.isIdent(next) {
			return false
		}
		nw = p.text(next)
	}
	if declarationKeywords[string(nw)] {
		return true
	}
	if p.isPunct(next+1, '(') && string(nw) == p.enclosingClass(i, classes) {
		return true
	}
	// A type (qualified names, template arguments, pointers, references)
	// followed by a declarator name and `(`, `;`, `=`, `[`, `{` or `,`.
	j := p.skipType(next)
	if j >= 0 && p.isIdent(j) {
		if string(p.text(j)) == "operator" {
			return true // HD self_type operator++(int)
		}
		// The declarator may be qualified, with template arguments: the
		// out-of-class definition `HD index_t deque<T, A>::size() const`.
		j = p.skipQualifiers(j)
		if p.isIdent(j) && (p.isPunct(j+1, '(') || p.isPunct(j+1, ';') || p.isPunct(j+1, '=') || p.isPunct(j+1, '[') || p.isPunct(j+1, '{') || p.isPunct(j+1, ',')) {
			return true
		}
	}
	// A qualified constructor, destructor or operator with no return type:
	// HD bitset<B, A>::reference::reference(...), HD X<T>::operator~().
	if j >= 0 && p.isPunct(j, '(') && p.isQualifiedMember(next, j) {
		return true
	}
	return depth < maxMacroChain && isMacroLikeName(nw) && !p.isPunct(next+1, '(') && p.beforeDeclaration(next, classes, depth+1)
}

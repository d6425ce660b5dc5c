package syntax

import (
	"bytes"
	"regexp"
)

// Rewrites for library macros that take code, and for C++ the v0.22.3
// grammar rejects although compilers accept it.

// Code-taking macros of libcu++ (<nv/target>), used wherever CUDA code
// branches on the target: NV_IF_TARGET(NV_IS_DEVICE, (stmts;), (stmts;)).
var targetMacros = map[string]bool{
	"NV_IF_TARGET": true, "NV_IF_ELSE_TARGET": true, "NV_DISPATCH_TARGET": true,
}

// rewriteTargetMacros turns NV_IF_TARGET(cond, (a;), (b;)) into
// `             cond; {a;}  {b;} ` : the condition and each branch become
// statements of their own, so that the code in the branches parses.
func (p *prepass) rewriteTargetMacros() {
	for i := 0; i < len(p.toks); i++ {
		if !p.isIdent(i) || !targetMacros[string(p.text(i))] || !p.isPunct(i+1, '(') {
			continue
		}
		end, ok := p.balancedParensAcross(i + 1)
		if !ok {
			continue
		}
		p.blank(int(p.toks[i].Start), int(p.toks[i+1].End))
		p.out[p.toks[end].Start] = ' '
		p.blanked[i], p.blanked[i+1], p.blanked[end] = true, true, true
		depth := 0
		argStart := i + 2
		for k := i + 2; k <= end; k++ {
			if p.isPunct(k, '(') || p.isPunct(k, '[') || p.isPunct(k, '{') {
				depth++
				continue
			}
			if depth > 0 && (p.isPunct(k, ')') || p.isPunct(k, ']') || p.isPunct(k, '}')) {
				depth--
				continue
			}
			if depth == 0 && (p.isPunct(k, ',') || k == end) {
				// A branch in parentheses becomes a block.
				if p.isPunct(argStart, '(') && p.isPunct(k-1, ')') && argStart < k-1 {
					if e, ok := p.balancedParensAcross(argStart); ok && e == k-1 {
						p.out[p.toks[argStart].Start] = '{'
						p.out[p.toks[k-1].Start] = '}'
					}
				}
				if k != end {
					p.out[p.toks[k].Start] = ';'
				}
				argStart = k + 1
			}
		}
		p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[i].Start), int(p.toks[i+1].End)})
		i = end
	}
}

// rewriteConceptMacros rewrites libcu++'s C++17 spelling of templates with
// constraints into the C++20 syntax it stands for, at the same length:
// _CCCL_TEMPLATE(class T) -> `template      <class T>`,
// _CCCL_REQUIRES(cond) -> `requires      (cond)`, _CCCL_AND -> `&&`.
func (p *prepass) rewriteConceptMacros() {
	for i := 0; i < len(p.toks); i++ {
		if !p.isIdent(i) {
			continue
		}
		t := p.toks[i]
		switch string(p.text(i)) {
		case "_CCCL_TEMPLATE":
			end, ok := p.balancedParensAcross(i + 1)
			if !ok || !p.adjacent(i, i+1) {
				continue
			}
			p.blank(int(t.Start), int(t.End))
			copy(p.out[t.Start:], "template")
			p.out[p.toks[i+1].Start] = '<'
			p.out[p.toks[end].Start] = '>'
		case "_CCCL_REQUIRES", "_CCCL_REQUIRES_EXPR":
			if !p.isPunct(i+1, '(') {
				continue
			}
			p.blank(int(t.Start), int(t.End))
			copy(p.out[t.Start:], "requires")
		case "_CCCL_AND":
			p.blank(int(t.Start), int(t.End))
			copy(p.out[t.Start:], "&&")
		default:
			continue
		}
		p.blanked[i] = true
		p.rw.Blanked = append(p.rw.Blanked, Range{int(t.Start), int(t.End)})
	}
}

// rewriteAsmOperands makes the operands of inline asm parse: the grammar
// takes only a plain name as an output, so `"=r"(v.x)` becomes `"=r"(v_x)`,
// and only a string as a constraint, so `MACRO(p)` becomes `"l"  (p)`
// (same lengths; the asm template string is left as it is).
func (p *prepass) rewriteAsmOperands() {
	for i := 0; i < len(p.toks); i++ {
		if !p.isIdent(i) {
			continue
		}
		switch string(p.text(i)) {
		case "asm", "__asm__", "__asm":
		default:
			continue
		}
		open := i + 1
		for p.isIdent(open) {
			open++ // volatile, __volatile__, inline, goto
		}
		end, ok := p.balancedParensAcross(open)
		if !ok || !p.isPunct(open, '(') {
			continue
		}
		section := 0
		depth := 0
		for k := open + 1; k < end; k++ {
			constraintMacro := false
			if depth == 0 && (section == 1 || section == 2) && p.isIdent(k) && p.isPunct(k+1, '(') &&
				(p.isPunct(k-1, ':') || p.isPunct(k-1, ',')) && p.toks[k].End-p.toks[k].Start >= 3 {
				// A constraint spelled as a macro, _CG_ASM_PTR_CONSTRAINT(p)
				// of cooperative groups ("l" or "r" by pointer size): a
				// string of the same length, so the operand parses.
				t := p.toks[k]
				copy(p.out[t.Start:t.End], bytes.Repeat([]byte{' '}, int(t.End-t.Start)))
				copy(p.out[t.Start:], `"l"`)
				constraintMacro = true
				k++
			}
			switch {
			case p.isPunct(k, '('):
				if depth == 0 && section == 1 && (p.toks[k-1].Kind == TokString || constraintMacro) {
					if e, ok := p.balancedParensAcross(k); ok && e > k+2 {
						p.flattenToName(int(p.toks[k+1].Start), int(p.toks[e-1].End))
					}
				}
				depth++
			case p.isPunct(k, ')'):
				depth--
			case depth == 0 && p.isPunct(k, ':'):
				section++
			}
		}
		i = end
	}
}

// flattenToName turns an lvalue expression into one identifier of the same
// length by replacing every byte that cannot be in a name with '_'.
func (p *prepass) flattenToName(start, end int) {
	if bytes.IndexByte(p.out[start:end], '\n') >= 0 {
		return
	}
	for k := start; k < end; k++ {
		if !IsIdentByte(p.out[k]) {
			p.out[k] = '_'
		}
	}
	if c := p.out[start]; c >= '0' && c <= '9' {
		p.out[start] = '_'
	}
}

// blankExpressionTypename blanks `typename` in front of a qualified type
// that is called or brace-initialised, `typename Gemm::Arguments{...}`,
// which the grammar only accepts in declarations.
func (p *prepass) blankExpressionTypename() {
	for i := 0; i < len(p.toks); i++ {
		if !p.isIdent(i) || p.blanked[i] || string(p.text(i)) != "typename" {
			continue
		}
		j := p.skipType(i + 1)
		if j < 0 {
			continue
		}
		// skipType also skips trailing * and &: only a bare type counts.
		last := j - 1
		if p.isPunct(last, '*') || p.isPunct(last, '&') {
			continue
		}
		if p.isPunct(j, '{') || p.isPunct(j, '(') || p.isIdent(p.prevToken(i)) && string(p.text(p.prevToken(i))) == "using" {
			// `using typename Base::T;` is also rejected: drop `typename`.
			p.blankRecorded(i, i)
		}
	}
}

// rewriteKeywordCasts turns functional casts to multi-word builtin types
// written with one word, `unsigned(x)`, `signed(x)`, `long(x)`, which the
// grammar rejects, into calls: `Unsigned(x)`; and `decltype(x){}` into
// `(x){}`.
func (p *prepass) rewriteKeywordCasts() {
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || !p.isPunct(i+1, '(') || !p.adjacent(i, i+1) {
			continue
		}
		switch string(p.text(i)) {
		case "unsigned", "signed", "long", "short":
		case "decltype":
			// decltype(x){} builds a value of x's type, which the grammar
			// rejects; (x){} parses (as a compound literal).
			prev := p.prevToken(i)
			trailingReturn := p.isPunct(prev, '>') && p.isPunct(prev-1, '-') && p.adjacent(prev-1, prev) // -> decltype(x) { body }
			if end, ok := p.balancedParens(i + 1); ok && p.isPunct(end+1, '{') && !trailingReturn {
				p.blankRecorded(i, i)
			}
			continue
		default:
			continue
		}
		if prev := p.prevToken(i); p.isIdent(prev) && declarationKeywords[string(p.text(prev))] {
			continue // unsigned long(x) and the like: leave alone
		}
		c := p.out[p.toks[i].Start]
		p.out[p.toks[i].Start] = c - 'a' + 'A'
	}
}

// blankAttributesBeforeFriend blanks `[[...]]` in front of `friend`
// (`[[nodiscard]] friend bool operator==`), which the grammar rejects.
func (p *prepass) blankAttributesBeforeFriend() {
	for i := 0; i < len(p.toks); i++ {
		if !p.isIdent(i) || p.blanked[i] || string(p.text(i)) != "friend" {
			continue
		}
		end := p.prevToken(i)
		if !p.isPunct(end, ']') || !p.isPunct(end-1, ']') {
			continue
		}
		depth := 0
		for j := end; j >= 0; j-- {
			if p.isPunct(j, ']') {
				depth++
			} else if p.isPunct(j, '[') {
				depth--
				if depth == 0 { // j is the first `[` of `[[`
					p.blankRecorded(j, end)
					break
				}
			}
		}
	}
}

// blankExternTemplate turns explicit instantiation declarations,
// `extern template void f<int>(int);`, which the grammar rejects, into
// explicit instantiations by blanking `extern`.
func (p *prepass) blankExternTemplate() {
	for i := 0; i+1 < len(p.toks); i++ {
		if p.isIdent(i) && string(p.text(i)) == "extern" && p.isIdent(i+1) && string(p.text(i+1)) == "template" && !p.isPunct(i+2, '<') {
			p.blankRecorded(i, i)
		}
	}
}

// blankStraySemicolons blanks the `;` after the `}` that closes a namespace
// or a function at namespace scope (`}; // namespace detail`): legal for
// compilers, an ERROR for the grammar.
func (p *prepass) blankStraySemicolons() {
	const (
		braceOther = iota
		braceNamespace
		braceFunction
	)
	var stack []int
	// Functions at namespace or class scope; a `}` inside a function body
	// closes a statement, where `};` is an empty statement and fine.
	atNamespaceScope := func() bool {
		for _, k := range stack {
			if k == braceFunction {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(p.toks); i++ {
		switch {
		case p.isPunct(i, '{'):
			kind := braceOther
			prev := p.prevToken(i)
			switch {
			case p.opensNamespace(i):
				kind = braceNamespace
			case p.isPunct(prev, ')') && !p.closesLambdaOrStatementHead(prev):
				kind = braceFunction
			case p.afterFunctionQualifiers(prev):
				kind = braceFunction // f() const { ... }; in a class
			}
			stack = append(stack, kind)
		case p.isPunct(i, '}'):
			if len(stack) == 0 {
				continue
			}
			kind := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if (kind == braceNamespace || kind == braceFunction && atNamespaceScope()) && !p.afterAssignment(i) {
				// Every semicolon of the run: blanking only the first would
				// leave the next one after the brace for a second pass.
				for next := p.nextToken(i); p.isPunct(next, ';'); next = p.nextToken(i) {
					p.blankRecorded(next, next)
				}
			}
		}
	}
}

// closesLambdaOrStatementHead reports whether the `)` at i closes a lambda's
// parameters or the head of if/for/while/switch/catch.
func (p *prepass) closesLambdaOrStatementHead(i int) bool {
	open, ok := p.openingParen(i)
	if !ok {
		return false
	}
	k := p.prevToken(open)
	if p.isPunct(k, ']') {
		return true
	}
	if p.isIdent(k) {
		switch string(p.text(k)) {
		case "if", "for", "while", "switch", "catch", "constexpr":
			return true
		}
	}
	return false
}

// afterAssignment reports whether the `}` at i closes a brace that follows
// `=` (an initializer), looking back at the statement it ends.
func (p *prepass) afterAssignment(i int) bool {
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case p.isPunct(j, '}'):
			depth++
		case p.isPunct(j, '{'):
			depth--
			if depth == 0 {
				for k := p.prevToken(j); k >= 0 && !p.isPunct(k, ';') && !p.isPunct(k, '{') && !p.isPunct(k, '}'); k = p.prevToken(k) {
					if p.isPunct(k, '=') {
						return true
					}
				}
				return false
			}
		}
	}
	return false
}

// rewriteStatementMacros turns a macro call whose arguments hold
// statements into a block, so that the statements parse as statements:
//
//	TYPE_SWITCH(dtype, T, launch<T>(x); n++;);  ->  {                 launch<T>(x); n++;};
//
// Only a macro can take statements as arguments (a `;` directly inside the
// parentheses, a last argument that is a `{...}` block, or a last argument
// that is such a macro call). The leading arguments (the switched value,
// the type name it binds) are blanked with the macro's name. Type-dispatch
// macros of ML libraries (TRANSFORMER_ENGINE_TYPE_SWITCH_ALL, DISPATCH_*)
// are the common case; nested ones are rewritten too.
func (p *prepass) rewriteStatementMacros() {
	startsStatement := map[int]bool{}
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || p.blanked[i] || !p.isPunct(i+1, '(') || statementKeywords[string(p.text(i))] {
			continue
		}
		if prev := p.prevCode(i); !startsStatement[i] && prev >= 0 && !p.isPunct(prev, ';') && !p.isPunct(prev, '{') &&
			!p.isPunct(prev, '}') && !p.isPunct(prev, ':') && !p.isPunct(prev, ')') {
			continue
		}
		open := i + 1
		end, ok := p.balancedParensAcross(open)
		if !ok {
			continue
		}
		// The top-level arguments, and whether any holds a statement.
		commas, firstSemi := p.topLevelSplit(open, end)
		statements := firstSemi >= 0
		lastArg := open + 1
		if len(commas) > 0 {
			lastArg = commas[len(commas)-1] + 1
		}
		for lastArg < end && p.toks[lastArg].Kind == TokComment {
			lastArg++
		}
		block := len(commas) > 0 && p.isPunct(lastArg, '{') && p.closingBrace(lastArg) == end-1 && p.holdsSemicolon(lastArg, end)
		// SWITCH(a, A, SWITCH(b, B, stmts;)): the last argument is itself
		// a macro call taking statements.
		nested := len(commas) > 0 && p.isIdent(lastArg) && p.isPunct(lastArg+1, '(') && func() bool {
			inner, ok := p.balancedParensAcross(lastArg + 1)
			return ok && inner == end-1 && p.takesStatements(lastArg+1, inner, maxMacroNesting)
		}()
		// CHECK(run(x), return false): the handler is no expression; the
		// checked call is kept and the handler blanked.
		if len(commas) > 0 && !statements && p.isIdent(lastArg) && jumpKeywords[string(p.text(lastArg))] {
			p.blankRecorded(commas[len(commas)-1], end-1)
			continue
		}
		// SWITCH(a, A, if (c) { f(); } else { g(); }): the last argument
		// is a statement that holds its `;` in braces.
		keyword := len(commas) > 0 && p.startsStatementKeyword(lastArg)
		if !statements && !block && !nested && !keyword {
			continue // f(a, {1, 2}) passes an initializer list
		}
		// The statements are the last argument when it is a block or a
		// nested statement macro; otherwise they start with the argument
		// that holds the first `;`, or the one before it when that one
		// opens a template argument list (`run<A, B>(x);` splits at its
		// comma).
		var body int
		switch {
		case block || nested || keyword && !statements:
			body = lastArg
		default:
			piece := 0
			for piece < len(commas) && commas[piece] < firstSemi {
				piece++
			}
			// Walk back over pieces that hold no angle bracket (`B`
			// in `run<A, B, C>(x);`) to the one that opens the list;
			// a piece that closes more than it opens ends the walk.
			if piece > 0 {
				for k := piece - 1; k >= 0 && piece-k <= maxTemplateArgs; k-- {
					n := p.angleBalance(pieceStart(open, commas, k), commas[piece-1])
					if n > 0 {
						piece = k
						break
					}
					if n < 0 {
						break
					}
				}
			}
			body = pieceStart(open, commas, piece)
		}
		p.blank(int(p.toks[i].Start), int(p.toks[body-1].End))
		p.out[p.toks[open].Start] = '{'
		p.out[p.toks[end].Start] = '}'
		p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[i].Start), int(p.toks[body-1].End)})
		for b := body; b < end && p.toks[b].Kind == TokComment; b++ {
			body = b + 1
		}
		startsStatement[body] = true
	}
}

// maxMacroNesting bounds how deep statement macros nested in each other's
// last argument are followed (apex dispatches on three types: three).
const maxMacroNesting = 8

// takesStatements reports whether the argument list from open to end holds
// statements: a `;` directly inside, or a last argument that is a call
// whose own arguments do (SWITCH(a, A, SWITCH(b, B, SWITCH(c, C, s;)))).
func (p *prepass) takesStatements(open, end, depth int) bool {
	commas, semi := p.topLevelSplit(open, end)
	if semi >= 0 {
		return true
	}
	if depth == 0 || len(commas) == 0 {
		return false
	}
	last := commas[len(commas)-1] + 1
	if p.startsStatementKeyword(last) {
		return true
	}
	if !p.isIdent(last) || !p.isPunct(last+1, '(') {
		return false
	}
	inner, ok := p.balancedParensAcross(last + 1)
	return ok && inner == end-1 && p.takesStatements(last+1, inner, depth-1)
}

// startsStatementKeyword reports whether token i is a keyword that can
// only start a statement, never an expression: a macro argument that
// starts with one is a statement.
func (p *prepass) startsStatementKeyword(i int) bool {
	if !p.isIdent(i) {
		return false
	}
	switch string(p.text(i)) {
	case "if", "for", "while", "switch", "do":
		return true
	}
	return false
}

// jumpKeywords start an error handler passed to a check macro without its
// `;`: CHECK(run(x), return false).
var jumpKeywords = map[string]bool{"return": true, "break": true, "continue": true, "throw": true, "goto": true}

// bracketDelta is 1 for a token that opens a bracket, -1 for one that
// closes it, 0 for any other.
func (p *prepass) bracketDelta(k int) int {
	if p.toks[k].Kind != TokPunct {
		return 0
	}
	switch p.src[p.toks[k].Start] {
	case '(', '[', '{':
		return 1
	case ')', ']', '}':
		return -1
	}
	return 0
}

// topLevelSplit returns the commas directly inside the parentheses from
// open to end, and the first `;` directly inside them (or -1).
func (p *prepass) topLevelSplit(open, end int) (commas []int, firstSemi int) {
	firstSemi = -1
	depth := 0
	for k := open + 1; k < end; k++ {
		if d := p.bracketDelta(k); d != 0 {
			depth += d
			continue
		}
		if p.toks[k].Kind != TokPunct {
			continue
		}
		switch p.src[p.toks[k].Start] {
		case ',':
			if depth == 0 {
				commas = append(commas, k)
			}
		case ';':
			if depth == 0 && firstSemi < 0 {
				firstSemi = k
			}
		}
	}
	return commas, firstSemi
}

// pieceStart is the first token of the k-th top-level argument.
func pieceStart(open int, commas []int, k int) int {
	if k == 0 {
		return open + 1
	}
	return commas[k-1] + 1
}

// maxTemplateArgs bounds how many macro arguments back a template
// argument list split by commas is looked for.
const maxTemplateArgs = 8

// angleBalance counts `<` minus `>` in tokens [from, to): above zero, a
// template argument list that a comma split opens there.
func (p *prepass) angleBalance(from, to int) int {
	n := 0
	for k := from; k < to; k++ {
		switch {
		case p.isPunct(k, '<'):
			n++
		case p.isPunct(k, '>'):
			n--
		}
	}
	return n
}

// statementKeywords take `;` inside their parentheses (`for (;;)`, C++17's
// `if (auto x = f(); x)`), or are no macros.
var statementKeywords = map[string]bool{
	"for": true, "if": true, "switch": true, "while": true, "catch": true, "return": true, "sizeof": true,
	"decltype": true, "alignof": true, "alignas": true, "noexcept": true, "static_assert": true, "typeid": true, "requires": true,
}

// afterFunctionQualifiers reports whether token i ends the qualifiers
// after a function's parameter list: `) const`, `) const noexcept`,
// `) override`, `) &`.
func (p *prepass) afterFunctionQualifiers(i int) bool {
	seen := false
	for ; i >= 0; i = p.prevToken(i) {
		switch {
		case p.isIdent(i):
			switch string(p.text(i)) {
			case "const", "noexcept", "override", "final", "volatile":
				seen = true
				continue
			}
			return false
		case p.isPunct(i, '&'):
			seen = true
			continue
		case p.isPunct(i, ')'):
			return seen && !p.closesLambdaOrStatementHead(i)
		}
		return false
	}
	return false
}

// holdsSemicolon reports whether tokens [from, to) hold a `;`.
func (p *prepass) holdsSemicolon(from, to int) bool {
	for k := from; k < to; k++ {
		if p.isPunct(k, ';') {
			return true
		}
	}
	return false
}

// closingBrace returns the token index of the `}` matching the `{` at i,
// or -1.
func (p *prepass) closingBrace(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		if p.isPunct(j, '{') {
			depth++
		} else if p.isPunct(j, '}') {
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// prevCode returns the index of the last token before i that is code (not
// a comment or directive), or -1.
func (p *prepass) prevCode(i int) int {
	for i--; i >= 0; i-- {
		if k := p.toks[i].Kind; k != TokComment && k != TokDirective {
			return i
		}
	}
	return -1
}

// blankPointerTypeMacroArguments blanks the `*` or `&` that ends an
// argument of a macro call written as a statement, where the argument is
// a type (`REDUCER_SETUP(MyMinLoc*, dmin, hmin, n, 1);`): no expression
// ends in `*` or `&`, so the grammar lost the statement and, recovering,
// the function's rest. Blanked, the argument is the type's name, which
// the grammar takes as an expression. Only in a call of a macro-like name
// (upper case) at a statement's start: `f(int*, float);` is a declaration.
func (p *prepass) blankPointerTypeMacroArguments() {
	for i := 0; i+1 < len(p.toks); i++ {
		end, ok := p.statementMacroCall(i)
		if !ok {
			continue
		}
		commas, _ := p.topLevelSplit(i+1, end)
		for _, k := range append(commas, end) {
			prev := k - 1
			for prev > i+1 && p.toks[prev].Kind == TokComment {
				prev--
			}
			if prev <= i+1 || p.blanked[prev] || !(p.isPunct(prev, '*') || p.isPunct(prev, '&')) {
				continue
			}
			// A name before it: `T*`, `T&`, not `a * ,` nor `&,` alone.
			if before := prev - 1; before > i+1 && (p.isIdent(before) || p.isPunct(before, '>')) {
				p.blankRecorded(prev, prev)
			}
		}
		i = end
	}
}

// blankPointerQualifierMacros blanks a macro standing where a pointer
// qualifier goes, between `*` (or `&`) and the declared name:
// `const float * GGML_CUDA_RESTRICT x = p;` (a project's spelling of
// __restrict__, defined in a header the file does not show). Only an
// upper-case name is taken, and only before a name that ends a declarator.
func (p *prepass) blankPointerQualifierMacros() {
	for i := 1; i+2 < len(p.toks); i++ {
		if !p.isIdent(i) || p.blanked[i] || !isUpperName(p.text(i)) {
			continue
		}
		prev, next := p.prevToken(i), p.nextToken(i)
		if !p.isPunct(prev, '*') && !p.isPunct(prev, '&') || !p.isIdent(next) {
			continue
		}
		after := p.nextToken(next)
		if p.isPunct(after, '=') || p.isPunct(after, ',') || p.isPunct(after, ')') || p.isPunct(after, ';') || p.isPunct(after, '[') {
			p.blankRecorded(i, i)
		}
	}
}

// isUpperName reports whether a name is written in capitals (and digits
// and underscores) with at least one letter: a macro's spelling.
func isUpperName(name []byte) bool {
	letters := 0
	for _, c := range name {
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9', c == '_':
		default:
			return false
		}
	}
	return letters > 0
}

// capitalizeTypeArguments turns a builtin type passed alone as an argument
// of an upper-case macro called as a statement into a name of the same
// length (`RUN_APPEND(float, 32, v);` becomes `RUN_APPEND(Float, 32, v);`):
// a type is no expression, and the call would be an ERROR.
func (p *prepass) capitalizeTypeArguments() {
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || p.blanked[i] || !isUpperName(p.text(i)) || !p.isPunct(i+1, '(') {
			continue
		}
		if prev := p.prevCode(i); prev >= 0 && !p.isPunct(prev, ';') && !p.isPunct(prev, '{') && !p.isPunct(prev, '}') && !p.isPunct(prev, ':') {
			continue
		}
		end, ok := p.balancedParens(i + 1)
		if !ok {
			continue
		}
		start := i + 2
		for k := i + 2; k <= end; k++ {
			if !p.isPunct(k, ',') && k != end {
				continue
			}
			if k == start+1 && p.isIdent(start) && builtinTypes[string(p.text(start))] {
				c := p.out[p.toks[start].Start]
				p.out[p.toks[start].Start] = c - 'a' + 'A'
			}
			start = k + 1
		}
	}
}

// builtinTypes are the one-word builtin types, and the fixed-width and
// size types the grammar also reads as primitive types (tree-sitter-c's
// primitive_type), which are no expressions either.
var builtinTypes = map[string]bool{
	"float": true, "double": true, "int": true, "char": true, "bool": true, "short": true, "long": true,
	"unsigned": true, "signed": true, "void": true,
	"size_t": true, "ssize_t": true, "ptrdiff_t": true, "intptr_t": true, "uintptr_t": true,
	"int8_t": true, "int16_t": true, "int32_t": true, "int64_t": true,
	"uint8_t": true, "uint16_t": true, "uint32_t": true, "uint64_t": true,
	"char8_t": true, "char16_t": true, "char32_t": true,
}

// blankClassScopeMacroCalls blanks an upper-case macro call that stands as
// a member of a class body, `EP_STATIC_ASSERT(N == 8, "...");` or
// `DECLARE_MEMBERS(float, x);`: a call is no member declaration, and its
// arguments (types, keywords) parse as nothing. Rules look at no such
// member.
func (p *prepass) blankClassScopeMacroCalls() {
	var classBody []bool
	for i := 0; i < len(p.toks); i++ {
		switch {
		case p.isPunct(i, '{'):
			classBody = append(classBody, p.opensClassBody(i))
		case p.isPunct(i, '}'):
			if n := len(classBody); n > 0 {
				classBody = classBody[:n-1]
			}
		case len(classBody) > 0 && classBody[len(classBody)-1] && p.isIdent(i) && !p.blanked[i] && isUpperName(p.text(i)) && p.isPunct(i+1, '('):
			prev := p.prevCode(i)
			if !p.isPunct(prev, ';') && !p.isPunct(prev, '{') && !p.isPunct(prev, '}') && !p.isPunct(prev, ':') {
				continue
			}
			end, ok := p.balancedParens(i + 1)
			if !ok {
				continue
			}
			if next := p.nextToken(end); p.isPunct(next, ';') {
				p.blankRecorded(i, next)
				i = next
			}
		}
	}
}

// opensClassBody reports whether the `{` at i opens a struct, class or
// union body: one of those keywords since the previous statement, and no
// parenthesis or `=` (a function's or an initializer's brace).
func (p *prepass) opensClassBody(i int) bool {
	for k, n := p.prevToken(i), 0; k >= 0 && n < 64; k, n = p.prevToken(k), n+1 {
		t := p.toks[k]
		switch {
		case t.Kind == TokDirective || p.isPunct(k, ';') || p.isPunct(k, '{') || p.isPunct(k, '}') || p.isPunct(k, '(') || p.isPunct(k, ')') || p.isPunct(k, '='):
			return false
		case t.Kind == TokIdent:
			switch string(p.text(k)) {
			case "struct", "class", "union":
				return true
			}
		}
	}
	return false
}

// blankMemberInitializers blanks the default initializers of all but the
// last declarator of a member declaration, which the grammar rejects
// (`uint32_t head = 0, tail = 0;` in a class body; it takes one
// initializer, at the end):
//
//	uint32_t head = 0, tail = 0;  ->  uint32_t head    , tail = 0;
//
// Only direct members of struct, class and union bodies are looked at
// (enumerators, `a = 1, b = 2` in an enum, are fine). A comma counts only
// when a declarator follows it (a name, then `=`, `,`, `;`, `[`, `{` or
// `:`), so `int x = f<A, B>(1);` keeps its template argument list.
func (p *prepass) blankMemberInitializers() {
	for open := range p.classNames() {
		end := p.closingBrace(open)
		if end < 0 {
			continue
		}
		declStart := open + 1
		depth := 0
		for k := open + 1; k < end; k++ {
			depth += p.bracketDelta(k)
			switch {
			case depth == 0 && p.isPunct(k, '}'):
				declStart = k + 1 // after a member function's body
			case depth == 0 && p.isPunct(k, ';'):
				p.blankInitializersBeforeComma(declStart, k)
				declStart = k + 1
			}
		}
	}
}

// blankInitializersBeforeComma blanks `= init` pieces followed by another
// declarator in the member declaration [from, semi).
func (p *prepass) blankInitializersBeforeComma(from, semi int) {
	for k := from; k < semi; k++ {
		if p.isIdent(k) {
			switch string(p.text(k)) {
			case "template", "operator", "using", "typedef", "friend", "static_assert", "enum":
				return
			}
		}
	}
	eq := -1
	depth, angles := 0, 0 // angles: template argument lists open in an initializer
	for k := from; k < semi; k++ {
		if d := p.bracketDelta(k); d != 0 || depth != 0 || p.toks[k].Kind != TokPunct {
			depth += d
			continue
		}
		switch c := p.src[p.toks[k].Start]; {
		case c == '<' && eq >= 0 && p.isIdent(k-1):
			angles++
		case c == '>' && angles > 0:
			angles--
		case c == '=' && p.isAssignment(k):
			eq = k
		case c == ',' && eq >= 0 && angles == 0 && p.declaratorFollows(k+1, semi):
			p.blankRecorded(eq, k-1)
			eq = -1
		}
	}
}

// declaratorFollows reports whether token i starts a declarator: a name
// (after pointer or reference marks) followed by `=`, `,`, `;`, `[`, `{`
// or `:`.
func (p *prepass) declaratorFollows(i, semi int) bool {
	for i < semi && (p.isPunct(i, '*') || p.isPunct(i, '&')) {
		i++
	}
	if i+1 > semi || !p.isIdent(i) {
		return false
	}
	next := i + 1
	if next == semi {
		return true
	}
	switch {
	case p.isPunct(next, ':'):
		return !(p.isPunct(next+1, ':') && p.adjacent(next, next+1)) // not `::`
	case p.isPunct(next, '='):
		return p.isAssignment(next)
	}
	return p.isPunct(next, ',') || p.isPunct(next, '[') || p.isPunct(next, '{')
}

// isAssignment reports whether the `=` at k stands alone: not part of
// `==`, `<=`, `+=` and the like (the lexer gives one token per byte).
func (p *prepass) isAssignment(k int) bool {
	if k > 0 && p.adjacent(k-1, k) && p.toks[k-1].Kind == TokPunct && bytes.IndexByte([]byte("=!<>+-*/%&|^"), p.src[p.toks[k-1].Start]) >= 0 {
		return false
	}
	return !(p.isPunct(k+1, '=') && p.adjacent(k, k+1))
}

// computedIncludeRE matches `#include NAME(` of a computed include.
var computedIncludeRE = regexp.MustCompile(`^#\s*include\s+[A-Za-z_]\w*\s*\(`)

// blankComputedIncludes blanks the arguments of a macro that computes an
// include's path, which the grammar reads as an expression:
//
//	#include BACKEND_HEADER(atomic.cuh)  ->  #include BACKEND_HEADER(          )
func (p *prepass) blankComputedIncludes() {
	for _, t := range p.toks {
		if t.Kind != TokDirective {
			continue
		}
		d := p.src[t.Start:t.End]
		m := computedIncludeRE.FindIndex(d)
		if m == nil {
			continue
		}
		open := int(t.Start) + m[1] - 1
		closeAt := bytes.IndexByte(d[m[1]:], ')')
		if closeAt <= 0 || bytes.ContainsAny(d[m[1]:m[1]+closeAt], "\n\\") {
			continue
		}
		p.blank(open+1, open+1+closeAt)
		p.rw.Blanked = append(p.rw.Blanked, Range{open + 1, open + 1 + closeAt})
	}
}

// eachTemplateList calls fn with each `template <...>` of the file: the
// index of `template` and the index after its closing `>`. fn returns the
// index to go on after (its first argument, or end-1 to skip the lists
// nested in this one).
func (p *prepass) eachTemplateList(fn func(i, end int) int) {
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || string(p.text(i)) != "template" || !p.isPunct(i+1, '<') {
			continue
		}
		if end := p.afterAngles(i + 1); end >= 0 {
			i = fn(i, end)
		}
	}
}

// rewriteTemplateParameterMacros turns a macro call that stands for a
// whole template parameter into an unnamed `int` parameter, which the
// grammar takes (the call's argument, an enable_if condition, it does
// not):
//
//	template <typename T, ENABLE_IF(is_integral_v<T> || x)>  ->  template <typename T, int                              >
func (p *prepass) rewriteTemplateParameterMacros() {
	p.eachTemplateList(func(i, end int) int {
		for k := i + 2; k < end-1; k++ {
			if !p.isIdent(k) || !isMacroLikeName(p.text(k)) || !p.isPunct(k+1, '(') || !(p.isPunct(k-1, '<') || p.isPunct(k-1, ',')) {
				continue
			}
			closing, ok := p.balancedParensAcross(k + 1)
			if !ok || !(p.isPunct(closing+1, ',') || closing+1 == end-1) || p.toks[k].End-p.toks[k].Start < 3 {
				continue
			}
			start := int(p.toks[k].Start)
			p.blank(start, int(p.toks[closing].End))
			copy(p.out[start:], "int")
			p.rw.Blanked = append(p.rw.Blanked, Range{start, int(p.toks[closing].End)})
			k = closing
		}
		return i
	})
}

// rewriteExplicitOperatorCalls turns an operator function called by name
// in an expression into a plain name, which the grammar takes there:
//
//	return !operator bool();   ->  return !operator_bool();
//	this->operator[](n)        ->  this->operator__(n)
//
// Only after `.`, `->`, `!` and `return`, where no declaration can start.
func (p *prepass) rewriteExplicitOperatorCalls() {
	for i := 1; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || string(p.text(i)) != "operator" {
			continue
		}
		prev := i - 1
		inExpression := p.isPunct(prev, '.') || p.isPunct(prev, '!') ||
			p.isPunct(prev, '>') && p.isPunct(prev-1, '-') && p.adjacent(prev-1, prev) ||
			p.isIdent(prev) && string(p.text(prev)) == "return"
		if !inExpression {
			continue
		}
		// The operator's name runs to the `(` of the call: symbols
		// (`[]`, `==`, `()`) or a conversion's type name.
		k := i + 1
		if p.isPunct(k, '(') && p.isPunct(k+1, ')') && p.isPunct(k+2, '(') {
			k += 2 // the call operator: its name is the first pair of parentheses
		}
		for k < len(p.toks) && k < i+6 && !(p.isPunct(k, '(') && k > i+1) {
			k++
		}
		if !p.isPunct(k, '(') {
			continue
		}
		from, to := int(p.toks[i].End), int(p.toks[k].Start)
		if bytes.ContainsAny(p.src[from:to], "\n") {
			continue
		}
		for b := from; b < to; b++ {
			if c := p.src[b]; c == ' ' || c == '\t' || !IsIdentByte(c) {
				p.out[b] = '_'
			}
		}
		p.rw.Blanked = append(p.rw.Blanked, Range{from, to})
	}
}

// statementMacroCall reports whether token i starts a call of a
// macro-like name that stands as a statement (after `;`, a brace, a label
// or a directive), and returns its closing parenthesis.
func (p *prepass) statementMacroCall(i int) (end int, ok bool) {
	if !p.isIdent(i) || !isMacroLikeName(p.text(i)) || !p.isPunct(i+1, '(') || p.blanked[i] {
		return 0, false
	}
	if prev := p.prevCode(i); prev >= 0 && !p.isStatementBoundary(prev) {
		return 0, false
	}
	return p.balancedParensAcross(i + 1)
}

// onlyNames reports whether tokens [from, to) are names separated by
// commas.
func (p *prepass) onlyNames(from, to int) bool {
	if from >= to {
		return false
	}
	for k := from; k < to; k++ {
		if (k-from)%2 == 0 && !p.isIdent(k) || (k-from)%2 == 1 && !p.isPunct(k, ',') {
			return false
		}
	}
	return (to-from)%2 == 1
}

// blankTrailingParameterMacros blanks macros that add parameters at the
// end of a parameter list, after the last declared parameter:
//
//	f(double cap ADDITIONAL_PARAMS PROFILER_PARAMS) {  ->  f(double cap                                  ) {
//
// A macro-like name counts when it follows a parameter's type and name
// (or another such macro) and is followed by `)` or another one.
func (p *prepass) blankTrailingParameterMacros() {
	for i := 2; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || !isMacroLikeName(p.text(i)) || p.blanked[i] || p.isPunct(i+1, '(') {
			continue
		}
		// The run of macro-like names must end the list.
		j := i
		for p.isIdent(j) && isMacroLikeName(p.text(j)) && !p.isPunct(j+1, '(') && j < i+4 {
			j++
		}
		if !p.isPunct(j, ')') {
			continue
		}
		name, typ := i-1, i-2
		if !p.isIdent(name) || isMacroLikeName(p.text(name)) || declarationKeywords[string(p.text(name))] {
			continue
		}
		if !(p.isIdent(typ) || p.isPunct(typ, '*') || p.isPunct(typ, '&') || p.isPunct(typ, '>')) {
			continue
		}
		if p.isIdent(typ) && statementKeywords[string(p.text(typ))] {
			continue // return X MACRO)
		}
		p.blankRecorded(i, j-1)
		i = j
	}
}

// blankBareTemplateKeyword blanks the `template` disambiguator of a member
// call that has no template argument list, which the grammar rejects:
//
//	smem.template store(x)  ->  smem          store(x)
func (p *prepass) blankBareTemplateKeyword() {
	for i := 1; i+2 < len(p.toks); i++ {
		if !p.isIdent(i) || string(p.text(i)) != "template" || !p.isIdent(i+1) || p.isPunct(i+2, '<') {
			continue
		}
		if p.isPunct(i-1, '.') || p.isPunct(i-1, '>') && p.isPunct(i-2, '-') || p.isPunct(i-1, ':') && p.isPunct(i-2, ':') {
			p.blankRecorded(i, i)
		}
	}
}

// terminateMacroStatements ends with `;` a statement-macro call written
// without one, where the next line starts another statement the grammar
// cannot join to it: a case label, the end of the block, or another macro
// call.
//
//	case Int8: CASE_TY(int8_t, uint8_t)\n  case Int32:  ->  ...CASE_TY(int8_t, uint8_t);  case Int32:
//
// The `;` takes the place of a space or tab after `)`, so offsets and line
// breaks stay; with none there, a call whose arguments are names only is
// rewritten into a declaration of them (`CASE_TY Int8_t, Uint8_t;`), which
// rules look at no more than at the call.
func (p *prepass) terminateMacroStatements() {
	for i := 0; i+1 < len(p.toks); i++ {
		if p.isIdent(i) && p.statements[string(p.text(i))] {
			p.terminateObjectMacro(i)
			continue
		}
		end, ok := p.statementMacroCall(i)
		if !ok || end+1 >= len(p.toks) {
			continue
		}
		next := end + 1
		if !p.toks[next].LineStart && !p.closesOneLineBlock(i, next) || p.toks[next].Kind == TokComment || p.toks[next].Kind == TokDirective {
			continue
		}
		startsOther := p.isPunct(next, '}') ||
			p.isIdent(next) && (string(p.text(next)) == "case" || string(p.text(next)) == "default") ||
			p.isIdent(next) && isMacroLikeName(p.text(next)) && p.isPunct(next+1, '(')
		if !startsOther {
			continue
		}
		at := int(p.toks[end].End)
		switch c := p.src[at]; {
		case c == ' ' || c == '\t':
			p.out[at] = ';'
			p.rw.Blanked = append(p.rw.Blanked, Range{at, at + 1})
		case p.onlyNames(i+2, end):
			// No room after `)` (line breaks stay where they are): a call
			// of names only becomes a declaration of the same names,
			// CASE_TY Int8_t, Uint8_t; (types were capitalized before).
			p.out[p.toks[i+1].Start] = ' '
			p.out[p.toks[end].Start] = ';'
			p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[i+1].Start), int(p.toks[end].End)})
		default:
			continue
		}
		i = end
	}
}

// launchStatement reports whether an object-like macro's body is a launch
// statement of its own, ended by `;`: `#define CALL_SWEEP
// sweep<<<grid, block>>>(...);`. Other bodies ended so may be declarations
// (`#define INSTANTIATE template void f<float>(float *);`), which stand
// alone at file scope and are left to isStandaloneMacro.
func launchStatement(body []byte) bool {
	body = bytes.TrimRight(body, " \t\r\n\\")
	return bytes.HasSuffix(body, []byte(";")) && bytes.Contains(body, []byte("<<<"))
}

// terminateObjectMacro ends with `;` the use at i of an object-like
// statement macro written alone on its line without one, where the
// grammar would join it to the next line's statement or, before a `}`,
// drop it: `CALL_SWEEP\n  } else {`. The `;` takes the place of a blank
// after the name or, where the line ends there, of one of the next line's
// indentation, so that offsets and line breaks stay.
func (p *prepass) terminateObjectMacro(i int) {
	if p.blanked[i] || p.isPunct(i+1, '(') {
		return
	}
	if prev := p.prevCode(i); prev >= 0 && !p.isStatementBoundary(prev) {
		return
	}
	next := i + 1
	if next >= len(p.toks) || !p.toks[next].LineStart || p.isPunct(next, ';') {
		return
	}
	for at := int(p.toks[i].End); at < int(p.toks[next].Start); at++ {
		if c := p.src[at]; c == ' ' || c == '\t' {
			p.out[at] = ';'
			p.rw.Blanked = append(p.rw.Blanked, Range{at, at + 1})
			return
		}
	}
}

// closesOneLineBlock reports whether the macro call at i is the only
// statement of a block written on one line, next its closing brace: `[&]
// (int tx) { BODY(n) }`. The block's `{` must follow a parameter list or
// condition (`)`), `else` or `do`: after `=` or `,` it is an initializer
// list, where `{ F(x) }` is an element.
func (p *prepass) closesOneLineBlock(i, next int) bool {
	if !p.isPunct(next, '}') {
		return false
	}
	open := p.prevCode(i)
	if open < 0 || !p.isPunct(open, '{') {
		return false
	}
	before := p.prevCode(open)
	return before >= 0 && (p.isPunct(before, ')') || p.isIdent(before) && (string(p.text(before)) == "else" || string(p.text(before)) == "do"))
}

// blankTemplateDefaultDeclarators blanks the `*` and `&` that end a
// template parameter's default type, which the grammar rejects:
//
//	template <typename T = void*>  ->  template <typename T = void >
func (p *prepass) blankTemplateDefaultDeclarators() {
	p.eachTemplateList(func(i, end int) int {
		depth, hasDefault := 0, false
		for k := i + 2; k < end-1; k++ {
			switch {
			case p.isPunct(k, '<') || p.isPunct(k, '('):
				depth++
			case p.isPunct(k, '>') || p.isPunct(k, ')'):
				depth--
			case depth == 0 && p.isPunct(k, ','):
				hasDefault = false
			case depth == 0 && p.isPunct(k, '=') && p.isAssignment(k):
				hasDefault = true
			case depth == 0 && hasDefault && (p.isPunct(k, '*') || p.isPunct(k, '&')) && (p.isPunct(k+1, ',') || k+1 == end-1 || p.isPunct(k+1, '*') || p.isPunct(k+1, '&')):
				p.blankRecorded(k, k)
			}
		}
		return end - 1 // nested lists were looked at with this one
	})
}

// rewriteDeclarationArguments turns a macro call whose first argument
// declares a variable (GoogleTest's EXPECT_THROW(T x(args), E) and the
// like) into a block holding the declaration:
//
//	EXPECT_THROW(Buffer b(nullptr, 1), logic_error);  ->  {           Buffer b(nullptr, 1);             };
//	EXPECT_NO_THROW(Buffer b(4));                      ->                 {Buffer b(4);}
func (p *prepass) rewriteDeclarationArguments() {
	for i := 0; i+2 < len(p.toks); i++ {
		end, ok := p.statementMacroCall(i)
		if !ok {
			continue
		}
		first := i + 2
		if !p.isIdent(first) || declarationKeywords[string(p.text(first))] && string(p.text(first)) != "const" {
			continue
		}
		name := p.skipType(first)
		if name < 0 || name >= end || !p.isIdent(name) || !(p.isPunct(name+1, '(') || p.isPunct(name+1, '{') || p.isPunct(name+1, '=')) {
			continue
		}
		commas, semi := p.topLevelSplit(i+1, end)
		if semi >= 0 {
			continue // statements: rewriteStatementMacros' case
		}
		from := int(p.toks[i].Start)
		switch {
		case len(commas) > 0:
			p.blank(from, int(p.toks[i].End))
			p.out[p.toks[i+1].Start] = '{'
			p.out[p.toks[commas[0]].Start] = ';'
			p.blank(int(p.toks[commas[0]].End), int(p.toks[end].Start))
			p.out[p.toks[end].Start] = '}'
		case p.isPunct(end+1, ';'):
			p.blank(from, int(p.toks[i].End))
			p.out[p.toks[i+1].Start] = '{'
			p.out[p.toks[end].Start] = ';'
			p.out[p.toks[end+1].Start] = '}'
		default:
			continue
		}
		p.rw.Blanked = append(p.rw.Blanked, Range{from, int(p.toks[end].End)})
		i = end
	}
}

// rewriteScopeMacros blanks a pair of argument-less macros that open and
// close a block statement, `BEGIN_CHECK { ... } END_CHECK;` (do and
// while (0) in a project header), leaving the block.
func (p *prepass) rewriteScopeMacros() {
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || !isMacroLikeName(p.text(i)) || !p.isPunct(i+1, '{') || p.blanked[i] || !p.toks[i].LineStart {
			continue
		}
		if prev := p.prevCode(i); prev < 0 || !(p.isPunct(prev, ';') || p.isPunct(prev, '{') || p.isPunct(prev, '}')) {
			continue
		}
		closing := p.closingBrace(i + 1)
		if closing < 0 || closing+2 >= len(p.toks) {
			continue
		}
		after := closing + 1
		if !p.isIdent(after) || !isMacroLikeName(p.text(after)) || !p.isPunct(after+1, ';') {
			continue
		}
		p.blankRecorded(i, i)
		p.blankRecorded(after, after)
	}
}

// blankCommentsInDefines blanks block comments inside a #define, which
// end the grammar's macro body token (`{n, /*hint=*/nullptr}` in a
// 170-line macro turned the whole definition into an ERROR). Line
// continuations inside a comment stay, so the definition keeps its lines.
func (p *prepass) blankCommentsInDefines() {
	for _, t := range p.toks {
		if t.Kind != TokDirective || DirectiveName(p.src[t.Start:t.End]) != "define" {
			continue
		}
		var quote byte
		for b := int(t.Start); b+1 < int(t.End); b++ {
			c := p.src[b]
			switch {
			case quote != 0:
				switch c {
				case '\\':
					b++
				case quote:
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '/' && p.src[b+1] == '*':
				end := bytes.Index(p.src[b+2:t.End], []byte("*/"))
				if end < 0 {
					break
				}
				end += b + 4
				for k := b; k < end; k++ {
					if c := p.src[k]; c != '\n' && c != '\r' && !(c == '\\' && k+1 < end && (p.src[k+1] == '\n' || p.src[k+1] == '\r')) {
						p.out[k] = ' '
					}
				}
				p.rw.Blanked = append(p.rw.Blanked, Range{b, end})
				b = end - 1
			}
		}
	}
}

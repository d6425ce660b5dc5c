package cudaparse

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// The pre-pass turns CUDA source into text that tree-sitter's C++ grammar
// parses, without moving a single byte: every rewrite replaces a range with
// text of the same length and leaves newlines where they were, so offsets,
// lines and columns in the tree are those of the original file. What it
// removes is recorded in Rewrites for the facts built after the parse.

// QualifierKind says which CUDA declaration qualifier a rewrite removed.
type QualifierKind uint8

const (
	QualOther    QualifierKind = iota // __forceinline__, __restrict__, unknown qualifier macros...
	QualGlobal                        // __global__: a kernel
	QualDevice                        // __device__
	QualHost                          // __host__
	QualShared                        // __shared__
	QualConstant                      // __constant__
	QualManaged                       // __managed__
)

var qualifierNames = [...]string{"other", "global", "device", "host", "shared", "constant", "managed"}

func (k QualifierKind) String() string { return qualifierNames[k] }

// Qualifier is one blanked qualifier: a CUDA keyword, or a macro that
// expands to qualifiers (Macro is its name then).
type Qualifier struct {
	Kind       QualifierKind
	Start, End int
	Macro      string
}

// Range is a half-open byte range of the source.
type Range struct{ Start, End int }

// LaunchSyntax is one `k<<<cfg>>>(args)` as the pre-pass saw it: the offsets
// of its `<<<` and `>>>`, and the byte ranges of each configuration argument
// (grid, block, shared memory, stream).
type LaunchSyntax struct {
	Open, Close int
	Config      []Range
}

// Rewrites records what the pre-pass changed.
type Rewrites struct {
	Qualifiers []Qualifier
	Launches   []LaunchSyntax
	// Blanked are other ranges turned into spaces: attribute-like calls such
	// as __launch_bounds__(...), pragma macros, `#if 0` blocks.
	Blanked []Range
}

// Keywords of CUDA that the C++ grammar does not know, with what they mean.
var cudaQualifiers = map[string]QualifierKind{
	"__global__":                    QualGlobal,
	"__device__":                    QualDevice,
	"__host__":                      QualHost,
	"__shared__":                    QualShared,
	"__constant__":                  QualConstant,
	"__managed__":                   QualManaged,
	"__forceinline__":               QualOther,
	"__noinline__":                  QualOther,
	"__restrict__":                  QualOther,
	"__grid_constant__":             QualOther,
	"__inline_hint__":               QualOther,
	"__device_builtin__":            QualOther,
	"__cudart_builtin__":            QualOther,
	"__thrust_exec_check_disable__": QualOther,
	"__nv_exec_check_disable__":     QualOther,
	"__noinline":                    QualOther,
	"__nv_pure__":                   QualOther,
}

// Attribute-like CUDA constructs that take an argument list; they are
// blanked with their parentheses.
var cudaAttributeCalls = map[string]bool{
	"__launch_bounds__":      true,
	"__cluster_dims__":       true,
	"__maxnreg__":            true,
	"__align__":              true,
	"__builtin_align__":      true,
	"_Pragma":                true,
	"__pragma":               true,
	"__nv_register_params__": true,
	"__block_size__":         true,
}

// Qualifier macros of widely used CUDA libraries, defined in headers that a
// single-file parse does not see. Macros whose definition is in the file are
// discovered from the file itself; unknown ones in declaration position are
// found by shape (see isDeclarationMacro).
var knownQualifierMacros = map[string]QualifierKind{
	"CUTLASS_GLOBAL":               QualGlobal,
	"CUTE_GLOBAL":                  QualGlobal,
	"_CCCL_KERNEL_ATTRIBUTES":      QualGlobal,
	"CUB_DETAIL_KERNEL_ATTRIBUTES": QualGlobal,
	"__global_":                    QualGlobal,
	"CUTLASS_DEVICE":               QualDevice,
	"CUTE_DEVICE":                  QualDevice,
	"_CCCL_DEVICE":                 QualDevice,
	"_CCCL_DEVICE_API":             QualDevice,
	"CUTLASS_HOST_DEVICE":          QualDevice,
	"CUTE_HOST_DEVICE":             QualDevice,
	"_CCCL_HOST_DEVICE":            QualDevice,
	"_CCCL_API":                    QualDevice,
	"_CCCL_HOST_API":               QualHost,
	"_CCCL_HOST":                   QualHost,
	"CUTLASS_HOST":                 QualHost,
	"CUTE_HOST":                    QualHost,
	"__HOST_DEVICE__":              QualDevice,
	"__DEVICE__":                   QualDevice,
	"QUALIFIERS":                   QualDevice,
}

// Words the C++ grammar already understands: never treated as macros.
var grammarDunders = map[string]bool{
	"__attribute__": true, "__attribute": true, "__extension__": true, "__asm__": true,
	"__asm": true, "__volatile__": true, "__inline__": true, "__inline": true,
	"__declspec": true, "__cdecl": true, "__stdcall": true, "__fastcall": true,
	"__thiscall": true, "__vectorcall": true, "__based": true, "__restrict": true,
	"__unaligned": true, "__typeof__": true, "__typeof": true, "__alignof__": true,
	"__thread": true, "__forceinline": true, "__try": true, "__except": true,
	"__finally": true, "__leave": true, "__int64": true, "__int128": true,
	"__w64": true, "__ptr32": true, "__ptr64": true, "__sptr": true, "__uptr": true,
	"__cplusplus": true, "__FILE__": true, "__LINE__": true, "__func__": true,
	"__FUNCTION__": true, "__PRETTY_FUNCTION__": true, "__VA_ARGS__": true,
	"__builtin_offsetof": true, "__alignof": true, "__clrcall": true,
}

// Keywords that start or continue a declaration: a macro-like word in front
// of one of them can only be a qualifier macro.
var declarationKeywords = map[string]bool{
	"void": true, "int": true, "char": true, "bool": true, "float": true, "double": true,
	"short": true, "long": true, "signed": true, "unsigned": true, "auto": true,
	"static": true, "inline": true, "constexpr": true, "consteval": true, "constinit": true,
	"extern": true, "template": true, "typename": true, "struct": true, "class": true,
	"union": true, "enum": true, "const": true, "volatile": true, "friend": true,
	"explicit": true, "virtual": true, "operator": true, "decltype": true,
	"thread_local": true, "typedef": true, "using": true, "register": true,
	"size_t": true, "wchar_t": true, "char8_t": true, "char16_t": true, "char32_t": true,
	"__int128": true, "mutable": true,
}

// cppKeywords may never be taken for macro names, even when a file
// `#define`s them (`#define extern extern` exists in the wild).
var cppKeywords = map[string]bool{
	"alignas": true, "alignof": true, "and": true, "asm": true, "auto": true, "bool": true,
	"break": true, "case": true, "catch": true, "char": true, "class": true, "const": true,
	"constexpr": true, "const_cast": true, "continue": true, "decltype": true, "default": true,
	"delete": true, "do": true, "double": true, "dynamic_cast": true, "else": true, "enum": true,
	"explicit": true, "export": true, "extern": true, "false": true, "float": true, "for": true,
	"friend": true, "goto": true, "if": true, "inline": true, "int": true, "long": true,
	"mutable": true, "namespace": true, "new": true, "noexcept": true, "not": true,
	"nullptr": true, "operator": true, "or": true, "private": true, "protected": true,
	"public": true, "register": true, "reinterpret_cast": true, "return": true, "short": true,
	"signed": true, "sizeof": true, "static": true, "static_assert": true, "static_cast": true,
	"struct": true, "switch": true, "template": true, "this": true, "thread_local": true,
	"throw": true, "true": true, "try": true, "typedef": true, "typeid": true, "typename": true,
	"union": true, "unsigned": true, "using": true, "virtual": true, "void": true,
	"volatile": true, "while": true, "concept": true, "requires": true, "co_await": true,
	"co_return": true, "co_yield": true, "consteval": true, "constinit": true,
}

// isMacroLikeName reports whether name is spelled like a macro: upper case
// letters, digits and underscores, or a __word__ the grammar does not know.
func isMacroLikeName(name []byte) bool {
	if len(name) < 2 {
		return false
	}
	if len(name) > 4 && name[0] == '_' && name[1] == '_' && name[len(name)-1] == '_' && name[len(name)-2] == '_' {
		return !grammarDunders[string(name)]
	}
	letters := 0
	for _, c := range name {
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9' || c == '_':
		default:
			return false
		}
	}
	return letters > 0 && !grammarDunders[string(name)]
}

// prepass holds the state of one run of the pre-pass over a file.
type prepass struct {
	src  []byte
	out  []byte
	toks []token // code tokens only: comments dropped, directives kept
	rw   Rewrites
	// macros maps object-like macros defined in this file to the qualifier
	// kind they expand to.
	macros map[string]QualifierKind
	// blanked marks tokens already rewritten, so that they are transparent
	// when looking at neighbours.
	blanked []bool
}

// Neutralize returns a copy of src in which CUDA syntax is replaced by
// same-length text the C++ grammar parses, and what was replaced.
func Neutralize(src []byte) ([]byte, Rewrites) {
	p := &prepass{src: src, out: bytes.Clone(src)}
	all := lex(src)
	p.toks = all[:0:0]
	for _, t := range all {
		if t.kind != tokComment {
			p.toks = append(p.toks, t)
		}
	}
	p.blanked = make([]bool, len(p.toks))
	p.discoverMacros()
	p.resolveConditionals()
	p.rewriteLaunches()
	p.rewriteTargetMacros()
	p.rewriteConceptMacros()
	p.rewriteAsmOperands()
	p.rewriteQualifiers()
	p.blankExpressionTypename()
	p.rewriteKeywordCasts()
	p.blankAttributesBeforeFriend()
	p.blankExternTemplate()
	p.blankFileScopeMacroArguments()
	p.blankStraySemicolons()
	return p.out, p.rw
}

func (p *prepass) text(i int) []byte { t := p.toks[i]; return p.src[t.start:t.end] }

func (p *prepass) isPunct(i int, c byte) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tokPunct && p.src[p.toks[i].start] == c
}

func (p *prepass) isIdent(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == tokIdent
}

// blank replaces src[start:end] with spaces in the output, keeping line
// breaks so that lines and columns stay put.
func (p *prepass) blank(start, end int) {
	for k := start; k < end; k++ {
		if c := p.out[k]; c != '\n' && c != '\r' {
			p.out[k] = ' '
		}
	}
}

func (p *prepass) blankTokens(from, to int) { // tokens [from, to]
	p.blank(int(p.toks[from].start), int(p.toks[to].end))
	for k := from; k <= to; k++ {
		p.blanked[k] = true
	}
}

// discoverMacros records object-like macros of this file whose expansion is
// nothing, or only declaration qualifiers: `#define HD __host__ __device__`.
func (p *prepass) discoverMacros() {
	p.macros = map[string]QualifierKind{}
	for _, t := range p.toks {
		if t.kind != tokDirective {
			continue
		}
		name, body, ok := objectLikeDefine(p.src[t.start:t.end])
		if !ok || cppKeywords[name] {
			continue
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

func rank(k QualifierKind) int {
	switch k {
	case QualGlobal:
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
	if len(d) == 0 || !isSpace(d[0]) {
		return "", nil, false
	}
	d = bytes.TrimLeft(d, " \t")
	j := 0
	for j < len(d) && isIdentByte(d[j]) {
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
	toks := lex(body)
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		w := body[t.start:t.end]
		switch t.kind {
		case tokComment:
			continue
		case tokPunct:
			if w[0] == '\\' {
				continue
			}
			return 0, false
		case tokIdent:
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
			depth := 0
			for i+1 < len(toks) {
				i++
				if toks[i].kind == tokPunct {
					switch body[toks[i].start] {
					case '(':
						depth++
					case ')':
						depth--
					}
				}
				if depth == 0 {
					break
				}
			}
		default:
			return 0, false
		}
	}
	return kind, true
}

// resolveConditionals handles #if groups the C++ grammar cannot parse as
// they stand. `#if 0` blocks are dead: their first branch is blanked. A group
// that splits a construct (a branch with unbalanced brackets, directives in
// the middle of an expression or argument list, a branch that ends in the
// middle of a statement) is flattened: its first branch is kept, its other
// branches and its directive lines are blanked. Rules then see one
// consistent variant of the code; docs/parsing.md says what that costs.
func (p *prepass) resolveConditionals() {
	type group struct{ dirs []int } // token indexes: #if, #elif/#else..., #endif
	var stack []*group
	var groups []*group
	depthAt := make([]int, len(p.toks)) // bracket depth before each token
	depth := 0
	for i, t := range p.toks {
		depthAt[i] = depth
		switch t.kind {
		case tokPunct:
			switch p.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		case tokDirective:
			switch directiveName(p.src[t.start:t.end]) {
			case "if", "ifdef", "ifndef":
				g := &group{dirs: []int{i}}
				stack = append(stack, g)
				groups = append(groups, g)
			case "elif", "else", "elifdef", "elifndef":
				if len(stack) > 0 {
					stack[len(stack)-1].dirs = append(stack[len(stack)-1].dirs, i)
				}
			case "endif":
				if len(stack) > 0 {
					g := stack[len(stack)-1]
					g.dirs = append(g.dirs, i)
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	for _, g := range groups {
		for _, d := range g.dirs {
			p.simplifyCondition(d)
		}
		last := g.dirs[len(g.dirs)-1]
		if len(g.dirs) < 2 || directiveName(p.text(last)) != "endif" || p.blanked[g.dirs[0]] {
			continue // unterminated, or inside a branch already blanked
		}
		if isIfZero(p.text(g.dirs[0])) {
			p.blankBetween(g.dirs[0], g.dirs[1])
			continue
		}
		if p.groupParses(g.dirs, depthAt) {
			continue
		}
		// Flatten: keep the first branch, blank the rest and the directives.
		p.blankTokens(g.dirs[0], g.dirs[0])
		p.blankBetween(g.dirs[1]-1, last+1)
		p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[g.dirs[0]].start), int(p.toks[g.dirs[0]].end)})
	}
}

// compareArgument matches a comparison operator passed as a macro argument,
// `_CCCL_COMPILER(GCC, >=, 8)`, which no expression grammar accepts.
var compareArgument = regexp.MustCompile(`[(,]\s*(>=|<=|==|!=|<|>)\s*[,)]`)

// simplifyCondition replaces the condition of an #if or #elif that passes
// operators as macro arguments by `1` and spaces: the condition means
// nothing to rules, and left in, it is an ERROR node.
func (p *prepass) simplifyCondition(d int) {
	t := p.toks[d]
	text := p.src[t.start:t.end]
	name := directiveName(text)
	if name != "if" && name != "elif" || !compareArgument.Match(text) {
		return
	}
	at := bytes.Index(text, []byte(name)) + len(name)
	start := int(t.start) + at
	for start < int(t.end) && isSpace(p.src[start]) {
		start++
	}
	if start >= int(t.end) {
		return
	}
	p.blank(start, int(t.end))
	p.out[start] = '1'
	p.rw.Blanked = append(p.rw.Blanked, Range{start, int(t.end)})
}

// blankBetween blanks the tokens strictly between token indexes a and b.
func (p *prepass) blankBetween(a, b int) {
	if b <= a+1 {
		return
	}
	start := int(p.toks[a].end)
	end := int(p.toks[b-1].end)
	if b < len(p.toks) {
		end = int(p.toks[b].start)
	}
	p.blank(start, end)
	p.rw.Blanked = append(p.rw.Blanked, Range{start, end})
	for k := a + 1; k < b; k++ {
		p.blanked[k] = true
	}
}

// groupParses reports whether each branch of a conditional group holds
// whole declarations or statements, which the grammar handles.
func (p *prepass) groupParses(dirs []int, depthAt []int) bool {
	if depthAt[dirs[0]] > 0 && !p.isStatementBoundary(dirs[0]-1) {
		return false
	}
	for k := 0; k+1 < len(dirs); k++ {
		a, b := dirs[k], dirs[k+1]
		if depthAt[a] != depthAt[b] && k+1 < len(dirs) {
			// Brackets opened in one branch and closed after the group.
			return false
		}
		if prev := p.lastCodeToken(a, b); prev >= 0 && !p.isStatementBoundary(prev) {
			return false
		}
	}
	return p.isStatementBoundary(p.lastCodeToken(-1, dirs[0]))
}

// lastCodeToken returns the last non-directive token strictly between a and
// b, or -1 (for a = -1: the last before b, or -1 at the start).
func (p *prepass) lastCodeToken(a, b int) int {
	for k := b - 1; k > a && k >= 0; k-- {
		if p.toks[k].kind != tokDirective {
			return k
		}
	}
	return -1
}

func (p *prepass) isStatementBoundary(i int) bool {
	if i < 0 || p.toks[i].kind == tokDirective {
		return true
	}
	if p.toks[i].kind != tokPunct {
		return false
	}
	switch p.src[p.toks[i].start] {
	case ';', '{', '}', ':':
		return true
	}
	return false
}

func directiveName(d []byte) string {
	d = bytes.TrimLeft(d[1:], " \t")
	j := 0
	for j < len(d) && isIdentByte(d[j]) {
		j++
	}
	return string(d[:j])
}

func isIfZero(d []byte) bool {
	if directiveName(d) != "if" {
		return false
	}
	d = bytes.TrimLeft(d[1:], " \t")[2:]
	if i := bytes.Index(d, []byte("//")); i >= 0 {
		d = d[:i]
	}
	if i := bytes.Index(d, []byte("/*")); i >= 0 {
		d = d[:i]
	}
	switch string(bytes.TrimSpace(d)) {
	case "0", "(0)", "false":
		return true
	}
	return false
}

// rewriteLaunches turns each `k<<<cfg>>>(args)` into `k(  cfg  )(args)`: a
// call of a call whose inner argument list is the launch configuration.
func (p *prepass) rewriteLaunches() {
	for i := 0; i+2 < len(p.toks); i++ {
		if !p.isTriple(i, '<') || p.blanked[i] {
			continue
		}
		// A run of more than three (a conflict marker) is not a launch.
		if p.isPunct(i-1, '<') && p.adjacent(i-1, i) || p.isPunct(i+3, '<') && p.adjacent(i+2, i+3) {
			i += 2
			continue
		}
		// The launched expression ends in a name, a template's `>` or a `)`.
		if i == 0 || !(p.isIdent(i-1) || p.isPunct(i-1, '>') || p.isPunct(i-1, ')')) {
			continue
		}
		closeTok, config, ok := p.findLaunchClose(i + 3)
		if !ok {
			continue
		}
		open, closeAt := int(p.toks[i].start), int(p.toks[closeTok].start)
		copy(p.out[open:], "(  ")
		copy(p.out[closeAt:], "  )")
		p.rw.Launches = append(p.rw.Launches, LaunchSyntax{Open: open, Close: closeAt, Config: config})
		i = closeTok + 2
	}
}

// isTriple reports whether tokens i, i+1, i+2 are c c c with nothing between.
func (p *prepass) isTriple(i int, c byte) bool {
	return p.isPunct(i, c) && p.isPunct(i+1, c) && p.isPunct(i+2, c) && p.adjacent(i, i+1) && p.adjacent(i+1, i+2)
}

func (p *prepass) adjacent(i, j int) bool { return p.toks[i].end == p.toks[j].start }

// findLaunchClose finds the `>>>` that closes a launch configuration starting
// at token i: the first one at bracket depth zero that is followed by `(`.
func (p *prepass) findLaunchClose(i int) (int, []Range, bool) {
	depth := 0
	var config []Range
	argStart := -1
	for j := i; j < len(p.toks); j++ {
		t := p.toks[j]
		if t.kind == tokDirective {
			continue
		}
		if argStart < 0 {
			argStart = int(t.start)
		}
		if t.kind != tokPunct {
			continue
		}
		switch p.src[t.start] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return 0, nil, false
			}
		case ';':
			if depth == 0 {
				return 0, nil, false
			}
		case ',':
			if depth == 0 {
				config = append(config, Range{argStart, int(p.toks[j-1].end)})
				argStart = -1
			}
		case '>':
			if depth == 0 && p.isTriple(j, '>') && !(p.isPunct(j+3, '>') && p.adjacent(j+2, j+3)) && p.isPunct(j+3, '(') {
				if argStart >= 0 && argStart < int(t.start) {
					config = append(config, Range{argStart, int(p.toks[j-1].end)})
				}
				return j, config, true
			}
		}
	}
	return 0, nil, false
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
		if t.kind != tokIdent || p.blanked[i] {
			continue
		}
		w := p.text(i)
		s := string(w)
		if k, ok := cudaQualifiers[s]; ok {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.start), End: int(t.end)})
			continue
		}
		if cudaAttributeCalls[s] {
			if end, ok := p.balancedParensAcross(i + 1); ok {
				p.blankTokens(i, end)
				p.rw.Blanked = append(p.rw.Blanked, Range{int(t.start), int(p.toks[end].end)})
			}
			continue
		}
		if p.isStringMacro(i) {
			p.blankTokens(i, i)
			p.rw.Blanked = append(p.rw.Blanked, Range{int(t.start), int(t.end)})
			continue
		}
		if !isMacroLikeName(w) || typeNames[s] {
			continue
		}
		if k, ok := knownQualifierMacros[s]; ok && (!p.isPunct(i+1, '(') || p.afterLambdaIntroducer(i)) {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.start), End: int(t.end), Macro: s})
			continue
		}
		if k, ok := p.macros[s]; ok && (!p.isPunct(i+1, '(') || p.afterLambdaIntroducer(i)) {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.start), End: int(t.end), Macro: s})
			continue
		}
		if p.isPragmaMacro(i) {
			end := i
			if p.isPunct(i+1, '(') {
				end, _ = p.balancedParens(i + 1)
			}
			p.blankTokens(i, end)
			p.rw.Blanked = append(p.rw.Blanked, Range{int(t.start), int(p.toks[end].end)})
			continue
		}
		if p.isStandaloneMacro(i) || p.isClassHeadMacro(i) || p.isAliasMacro(i) {
			end := i
			if p.isPunct(i+1, '(') {
				end, _ = p.balancedParens(i + 1)
			}
			p.blankTokens(i, end)
			p.rw.Blanked = append(p.rw.Blanked, Range{int(t.start), int(p.toks[end].end)})
			continue
		}
		if p.isAccessMacro(i, classes) {
			// _CUDAX_SEMI_PRIVATE: becomes `public` and spaces.
			copy(p.out[t.start:], "public")
			p.blank(int(t.start)+len("public"), int(t.end))
			p.blanked[i] = true
			p.rw.Blanked = append(p.rw.Blanked, Range{int(t.start), int(t.end)})
			continue
		}
		if p.isCallingConventionMacro(i) || p.isConditionMacro(i) {
			p.blankTokens(i, i)
			p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: QualOther, Start: int(t.start), End: int(t.end), Macro: s})
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
		p.rw.Qualifiers = append(p.rw.Qualifiers, Qualifier{Kind: k, Start: int(t.start), End: int(t.end), Macro: s})
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
	depth := 0
	for j := prev; j >= 0; j-- {
		if p.isPunct(j, ')') {
			depth++
		} else if p.isPunct(j, '(') {
			depth--
			if depth == 0 {
				k := p.prevToken(j)
				return p.isPunct(k, ']') && !p.isPunct(k-1, ']')
			}
		}
	}
	return false
}

// isStandaloneMacro reports whether the macro at i (with its argument list,
// if any) stands alone between two declarations or statements, where it can
// only expand to a declaration or pragma of its own: _CCCL_DIAG_PUSH,
// _CCCL_DIAG_SUPPRESS_MSVC(4244). Macros whose arguments hold calls are left
// alone: CUDA_CHECK(cudaMalloc(&p, n)) written without a semicolon is a call
// that rules need to see.
func (p *prepass) isStandaloneMacro(i int) bool {
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
	if prev >= 0 && !(p.toks[prev].kind == tokDirective || p.isPunct(prev, ';') || p.isPunct(prev, '{') || p.isPunct(prev, '}')) {
		return false
	}
	if prev >= 0 && p.toks[prev].kind != tokDirective && !p.toks[i].lineStart {
		return false
	}
	next := end + 1
	if next >= len(p.toks) {
		return true
	}
	if p.isPunct(next, ';') || p.isPunct(next, '{') || p.isPunct(next, '=') || p.isPunct(next, '.') || p.isPunct(next, '-') || p.isPunct(next, ',') {
		return false
	}
	return p.toks[next].lineStart || p.toks[next].kind == tokDirective
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
	if !(prev < 0 || p.isPunct(prev, ';') || p.isPunct(prev, '{') || p.isPunct(prev, '}') || p.isPunct(prev, ':') || p.toks[prev].kind == tokDirective) {
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
	prev, next := i-1, i+1
	isString := func(k int) bool { return k >= 0 && k < len(p.toks) && p.toks[k].kind == tokString }
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
	next := i + 1
	if p.isPunct(next, '(') {
		e, ok := p.balancedParens(next)
		if !ok {
			return false
		}
		next = e + 1
	}
	return p.isPunct(next, '=')
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
	next := i + 1
	if p.isPunct(next, '(') {
		e, ok := p.balancedParens(next)
		if !ok {
			return false
		}
		next = e + 1
	}
	return p.isIdent(next)
}

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
		p.blank(int(p.toks[i].start), int(p.toks[i+1].end))
		p.out[p.toks[end].start] = ' '
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
						p.out[p.toks[argStart].start] = '{'
						p.out[p.toks[k-1].start] = '}'
					}
				}
				if k != end {
					p.out[p.toks[k].start] = ';'
				}
				argStart = k + 1
			}
		}
		p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[i].start), int(p.toks[i+1].end)})
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
			p.blank(int(t.start), int(t.end))
			copy(p.out[t.start:], "template")
			p.out[p.toks[i+1].start] = '<'
			p.out[p.toks[end].start] = '>'
		case "_CCCL_REQUIRES", "_CCCL_REQUIRES_EXPR":
			if !p.isPunct(i+1, '(') {
				continue
			}
			p.blank(int(t.start), int(t.end))
			copy(p.out[t.start:], "requires")
		case "_CCCL_AND":
			p.blank(int(t.start), int(t.end))
			copy(p.out[t.start:], "&&")
		default:
			continue
		}
		p.blanked[i] = true
		p.rw.Blanked = append(p.rw.Blanked, Range{int(t.start), int(t.end)})
	}
}

// balancedParensAcross is balancedParens for arguments that hold statements.
func (p *prepass) balancedParensAcross(i int) (int, bool) {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		if p.toks[j].kind != tokPunct {
			continue
		}
		switch p.src[p.toks[j].start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

// rewriteAsmOperands makes the output operands of inline asm parse: the
// grammar takes only a plain name there, so `"=r"(v.x)` becomes
// `"=r"(v_x)` (same length; the asm template string is left as it is).
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
			switch {
			case p.isPunct(k, '('):
				if depth == 0 && section == 1 && p.toks[k-1].kind == tokString {
					if e, ok := p.balancedParensAcross(k); ok && e > k+2 {
						p.flattenToName(int(p.toks[k+1].start), int(p.toks[e-1].end))
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
		if !isIdentByte(p.out[k]) {
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
			p.blankTokens(i, i)
			p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[i].start), int(p.toks[i].end)})
		}
	}
}

// rewriteKeywordCasts turns functional casts to multi-word builtin types
// written with one word, `unsigned(x)`, `signed(x)`, `long(x)`, which the
// grammar rejects, into calls: `Unsigned(x)`.
func (p *prepass) rewriteKeywordCasts() {
	for i := 0; i+1 < len(p.toks); i++ {
		if !p.isIdent(i) || !p.isPunct(i+1, '(') || !p.adjacent(i, i+1) {
			continue
		}
		switch string(p.text(i)) {
		case "unsigned", "signed", "long", "short":
		default:
			continue
		}
		if prev := p.prevToken(i); p.isIdent(prev) && declarationKeywords[string(p.text(prev))] {
			continue // unsigned long(x) and the like: leave alone
		}
		c := p.out[p.toks[i].start]
		p.out[p.toks[i].start] = c - 'a' + 'A'
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
					p.blankTokens(j, end)
					p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[j].start), int(p.toks[end].end)})
					break
				}
			}
		}
	}
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
			prev := p.prevToken(i)
			ns := p.isIdent(prev) && string(p.text(prev)) == "namespace" ||
				p.isIdent(prev) && p.isIdent(p.prevToken(prev)) && string(p.text(p.prevToken(prev))) == "namespace" ||
				prev >= 0 && p.toks[prev].kind == tokString && p.isIdent(p.prevToken(prev)) && string(p.text(p.prevToken(prev))) == "extern"
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
			if !(prev < 0 || p.toks[prev].kind == tokDirective || p.isPunct(prev, ';') || p.isPunct(prev, '}') || p.isPunct(prev, '{')) {
				continue
			}
			end, ok := p.balancedParensAcross(i + 1)
			if !ok || end == i+2 {
				continue
			}
			if next := p.nextToken(end); p.isPunct(next, '{') || p.isPunct(next, ';') {
				start, stop := int(p.toks[i+1].end), int(p.toks[end].start)
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

// blankExternTemplate turns explicit instantiation declarations,
// `extern template void f<int>(int);`, which the grammar rejects, into
// explicit instantiations by blanking `extern`.
func (p *prepass) blankExternTemplate() {
	for i := 0; i+1 < len(p.toks); i++ {
		if p.isIdent(i) && string(p.text(i)) == "extern" && p.isIdent(i+1) && string(p.text(i+1)) == "template" && !p.isPunct(i+2, '<') {
			p.blankTokens(i, i)
			p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[i].start), int(p.toks[i].end)})
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
			case p.isIdent(prev) && string(p.text(prev)) == "namespace",
				p.isIdent(prev) && p.isIdent(p.prevToken(prev)) && string(p.text(p.prevToken(prev))) == "namespace",
				prev >= 0 && p.toks[prev].kind == tokString && p.isIdent(p.prevToken(prev)) && string(p.text(p.prevToken(prev))) == "extern":
				kind = braceNamespace
			case p.isPunct(prev, ')') && !p.closesLambdaOrStatementHead(prev):
				kind = braceFunction
			}
			stack = append(stack, kind)
		case p.isPunct(i, '}'):
			if len(stack) == 0 {
				continue
			}
			kind := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			next := p.nextToken(i)
			if (kind == braceNamespace || kind == braceFunction && atNamespaceScope()) && p.isPunct(next, ';') && !p.afterAssignment(i) {
				p.blankTokens(next, next)
				p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[next].start), int(p.toks[next].end)})
			}
		}
	}
}

// closesLambdaOrStatementHead reports whether the `)` at i closes a lambda's
// parameters or the head of if/for/while/switch/catch.
func (p *prepass) closesLambdaOrStatementHead(i int) bool {
	depth := 0
	for j := i; j >= 0; j-- {
		if p.isPunct(j, ')') {
			depth++
		} else if p.isPunct(j, '(') {
			depth--
			if depth == 0 {
				k := p.prevToken(j)
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

// balancedParens returns the token index of the `)` matching the `(` at i.
func (p *prepass) balancedParens(i int) (int, bool) {
	if !p.isPunct(i, '(') {
		return 0, false
	}
	depth := 0
	for j := i; j < len(p.toks); j++ {
		if p.toks[j].kind != tokPunct {
			continue
		}
		switch p.src[p.toks[j].start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j, true
			}
		case ';', '{', '}':
			return 0, false
		}
	}
	return 0, false
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
		case t.kind == tokIdent:
			s := string(p.text(i))
			if (s == "struct" || s == "class" || s == "union") && !p.isPunct(i-1, '<') && !p.isPunct(i-1, ',') {
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
		case t.kind == tokPunct && p.src[t.start] == '{':
			if pending != "" {
				names[i] = pending
				pending = ""
			}
		case t.kind == tokPunct && (p.src[t.start] == ';' || p.src[t.start] == '(' || p.src[t.start] == '='):
			pending = ""
		}
	}
	return names
}

// enclosingClass returns the name of the class whose body contains token i.
func (p *prepass) enclosingClass(i int, classes map[int]string) string {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		if p.toks[j].kind != tokPunct {
			continue
		}
		switch p.src[p.toks[j].start] {
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

func (p *prepass) prevToken(i int) int {
	i--
	for i >= 0 && p.blanked[i] {
		i--
	}
	return i
}

func (p *prepass) nextToken(i int) int {
	i++
	for i < len(p.toks) && p.blanked[i] {
		i++
	}
	return i
}

func (p *prepass) atDeclarationStart(i, depth int) bool {
	prev := p.prevToken(i)
	switch {
	case prev < 0 || p.toks[prev].kind == tokDirective:
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
	if j := p.skipType(next); j >= 0 && p.isIdent(j) {
		if string(p.text(j)) == "operator" {
			return true // HD self_type operator++(int)
		}
		for p.isIdent(j) && p.isPunct(j+1, ':') && p.isPunct(j+2, ':') {
			j += 3
		}
		if p.isIdent(j) && (p.isPunct(j+1, '(') || p.isPunct(j+1, ';') || p.isPunct(j+1, '=') || p.isPunct(j+1, '[') || p.isPunct(j+1, '{') || p.isPunct(j+1, ',')) {
			return true
		}
	}
	return depth < maxMacroChain && isMacroLikeName(nw) && !p.isPunct(next+1, '(') && p.beforeDeclaration(next, classes, depth+1)
}

// skipType skips a type name starting at token i and returns the index after
// it, or -1.
func (p *prepass) skipType(i int) int {
	for {
		if !p.isIdent(i) {
			return -1
		}
		i = p.nextToken(i)
		if p.isPunct(i, '<') {
			depth := 0
			for ; i < len(p.toks); i++ {
				if p.isPunct(i, '<') {
					depth++
				} else if p.isPunct(i, '>') {
					depth--
					if depth == 0 {
						i++
						break
					}
				} else if p.isPunct(i, ';') || p.isPunct(i, '{') || p.isPunct(i, '}') {
					return -1
				}
			}
		}
		if p.isPunct(i, ':') && p.isPunct(i+1, ':') {
			i += 2
			continue
		}
		break
	}
	for p.isPunct(i, '*') || p.isPunct(i, '&') || p.isIdent(i) && (string(p.text(i)) == "const" || string(p.text(i)) == "volatile") {
		i = p.nextToken(i)
	}
	return i
}

package syntax

import (
	"bytes"
	"fmt"
	"slices"
	"time"

	"github.com/lazylint/lazylint/knowledge"
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

// ShapeKept reports how out, the pre-pass's output for src, breaks its
// contract: the same length, every line break in place (nil when it keeps
// it). Offsets and positions into the rewritten text are then those of
// the source.
func ShapeKept(src, out []byte) error {
	if len(out) != len(src) {
		return fmt.Errorf("length changed: %d -> %d", len(src), len(out))
	}
	for i := range src {
		if (src[i] == '\n' || src[i] == '\r') != (out[i] == '\n' || out[i] == '\r') || (src[i] == '\n') != (out[i] == '\n') {
			return fmt.Errorf("line break moved at offset %d", i)
		}
	}
	return nil
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

func init() {
	for _, m := range knowledge.LibraryQualifierMacros {
		knownQualifierMacros[m] = QualDevice
	}
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
	toks []Token // code tokens only: comments dropped, directives kept
	rw   Rewrites
	// macros maps object-like macros defined in this file to the qualifier
	// kind they expand to.
	macros map[string]QualifierKind
	// statements are the object-like macros defined in this file whose
	// body is a launch statement (launchStatement).
	statements map[string]bool
	// blanked marks tokens already rewritten, so that they are transparent
	// when looking at neighbours.
	blanked []bool
	// macroEvents are the #defines and #undefs of the names the file
	// #undefs, in order (noteUndefs); nil for a file that #undefs none.
	macroEvents map[string][]macroEvent
}

// Neutralize returns a copy of src in which CUDA syntax is replaced by
// same-length text the C++ grammar parses, and what was replaced.
func Neutralize(src []byte) ([]byte, Rewrites) {
	out, rw, _ := NeutralizeBy(src, time.Time{}, nil)
	return out, rw
}

// maxRounds bounds how often the pre-pass is repeated on its own output.
const maxRounds = 4

// NeutralizeBy is Neutralize that gives up, returning false, when the
// deadline (if not zero) passes: it is looked at between passes, each
// linear in the file, so a giant file overruns it by one pass at most.
//
// Each pass decides by the tokens around a construct, and a later pass may
// blank a neighbour an earlier one judged by: the last of a run of unknown
// qualifier macros is judged while the others still stand, and junk such as
// `A<<<0""A>>>(` does it in ways the fuzzer finds in seconds. So the
// pre-pass is repeated on its own output until that no longer changes,
// which makes it idempotent by construction. A second round changes 35 of
// the 15,419 files of a real 151 MB corpus (docs/parsing.md); the round
// that confirms nothing changes makes the pre-pass take twice as long, a
// file that needs a parse 5 to 10% longer.
func NeutralizeBy(src []byte, deadline time.Time, scratch *[]Token) ([]byte, Rewrites, bool) {
	if scratch == nil {
		scratch = new([]Token)
	}
	out, rw, ok := neutralizeRound(src, deadline, scratch)
	if !ok || bytes.Equal(out, src) {
		return out, rw, ok
	}
	for range maxRounds - 1 {
		next, more, ok := neutralizeRound(out, deadline, scratch)
		if !ok {
			return nil, Rewrites{}, false
		}
		if bytes.Equal(next, out) {
			break
		}
		rw.merge(more)
		out = next
	}
	return out, rw, true
}

// merge adds what a later round rewrote, keeping each list in source order.
func (rw *Rewrites) merge(more Rewrites) {
	rw.Qualifiers = append(rw.Qualifiers, more.Qualifiers...)
	sortQualifiers(rw.Qualifiers)
	rw.Launches = append(rw.Launches, more.Launches...)
	slices.SortFunc(rw.Launches, func(a, b LaunchSyntax) int { return a.Open - b.Open })
	rw.Blanked = append(rw.Blanked, more.Blanked...)
	slices.SortFunc(rw.Blanked, func(a, b Range) int { return a.Start - b.Start })
}

// neutralizeRound is one run of every pass over src. Its tokens go to
// *scratch, whose memory later rounds and files reuse: a large file's
// tokens are megabytes, and allocating (zeroing) them again for each round
// was a tenth of an editor's check. No pass keeps a token past the round
// (Rewrites hold offsets).
func neutralizeRound(src []byte, deadline time.Time, scratch *[]Token) ([]byte, Rewrites, bool) {
	p := &prepass{src: src, out: bytes.Clone(src)}
	all := LexAppend((*scratch)[:0], src)
	defer func() { *scratch = all[:0] }()
	p.toks = all[:0] // filtered in place: the write index never passes the read one
	for _, t := range all {
		if t.Kind != TokComment {
			p.toks = append(p.toks, t)
		}
	}
	p.blanked = make([]bool, len(p.toks))
	passes := []func(){
		p.asciiIdentifiers,
		p.discoverMacros,
		p.resolveConditionals,
		p.rewriteLaunches,
		p.rewriteTargetMacros,
		p.rewriteConceptMacros,
		p.rewriteAsmOperands,
		p.blankPointerTypeMacroArguments,
		p.rewriteStatementMacros,
		p.rewriteLambdaMacros,
		p.rewriteQualifiers,
		p.blankPointerQualifierMacros,
		p.capitalizeTypeArguments,
		p.blankClassScopeMacroCalls,
		p.blankExpressionTypename,
		p.rewriteKeywordCasts,
		p.blankAttributesBeforeFriend,
		p.blankExternTemplate,
		p.blankFileScopeMacroArguments,
		p.blankMemberInitializers,
		p.blankComputedIncludes,
		p.rewriteTemplateParameterMacros,
		p.rewriteExplicitOperatorCalls,
		p.blankTrailingParameterMacros,
		p.blankBareTemplateKeyword,
		p.terminateMacroStatements,
		p.blankTemplateDefaultDeclarators,
		p.rewriteDeclarationArguments,
		p.rewriteScopeMacros,
		p.blankCommentsInDefines,
		p.blankStraySemicolons,
	}
	for _, pass := range passes {
		if !deadline.IsZero() && time.Now().After(deadline) {
			return nil, Rewrites{}, false
		}
		pass()
	}
	return p.out, p.rw, true
}

// asciiIdentifiers writes '_' for each byte above 0x7f in an identifier
// or number. The lexers here take any such byte for part of a name, as a
// UTF-8 letter would be; the grammar takes only letters, so a stray byte
// (Latin-1, a broken encoding) split a name there and the parser saw
// `do {...} while (...)` in `\xf9do {...} while (...)` where every
// lexical view (prefilters, summaries of files not parsed) saw a name:
// the views must agree (found by FuzzRules). Names keep their length, and
// findings quote the original text.
func (p *prepass) asciiIdentifiers() {
	for _, t := range p.toks {
		if t.Kind != TokIdent && t.Kind != TokNumber {
			continue
		}
		for k := t.Start; k < t.End; k++ {
			if p.out[k] >= 0x80 {
				p.out[k] = '_'
			}
		}
	}
}

// rewriteLambdaMacros writes the capture a lambda macro opens in its place
// (KOKKOS_LAMBDA(int i) { ... } parses as [=](int i) { ... }), padded with
// blanks.
func (p *prepass) rewriteLambdaMacros() {
	for i := range p.toks {
		if !p.isIdent(i) || p.blanked[i] {
			continue
		}
		capture, ok := knowledge.LambdaMacros[string(p.text(i))]
		if !ok {
			continue
		}
		t := p.toks[i]
		p.blank(int(t.Start), int(t.End))
		copy(p.out[t.Start:t.End], capture)
		p.blanked[i] = true
	}
}

func (p *prepass) text(i int) []byte { t := p.toks[i]; return p.src[t.Start:t.End] }

func (p *prepass) isPunct(i int, c byte) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].Kind == TokPunct && p.src[p.toks[i].Start] == c
}

func (p *prepass) isIdent(i int) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].Kind == TokIdent
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

// blankRecorded blanks tokens [from, to] and records the range in
// Rewrites.Blanked.
func (p *prepass) blankRecorded(from, to int) {
	p.blankTokens(from, to)
	p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[from].Start), int(p.toks[to].End)})
}

func (p *prepass) blankTokens(from, to int) { // tokens [from, to]
	p.blank(int(p.toks[from].Start), int(p.toks[to].End))
	for k := from; k <= to; k++ {
		p.blanked[k] = true
	}
}

func (p *prepass) adjacent(i, j int) bool { return p.toks[i].End == p.toks[j].Start }

// balancedParens returns the token index of the `)` matching the `(` at i,
// within one statement: a `;` or brace on the way means no match.
func (p *prepass) balancedParens(i int) (int, bool) { return p.closingParen(i, true) }

// balancedParensAcross is balancedParens for arguments that hold statements
// or braces (NV_IF_TARGET(c, ({ ... })), __launch_bounds__(T{}.n)).
func (p *prepass) balancedParensAcross(i int) (int, bool) { return p.closingParen(i, false) }

// openingParen returns the token index of the `(` matching the `)` at i.
func (p *prepass) openingParen(i int) (int, bool) {
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case p.isPunct(j, ')'):
			depth++
		case p.isPunct(j, '('):
			depth--
			if depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

// afterArguments returns the token after the macro name at i and its
// argument list, if it has one (MACRO or MACRO(args)).
func (p *prepass) afterArguments(i int) (int, bool) {
	if !p.isPunct(i+1, '(') {
		return i + 1, true
	}
	end, ok := p.balancedParens(i + 1)
	return end + 1, ok
}

func (p *prepass) closingParen(i int, withinStatement bool) (int, bool) {
	if !p.isPunct(i, '(') {
		return 0, false
	}
	depth := 0
	for j := i; j < len(p.toks); j++ {
		if p.toks[j].Kind != TokPunct {
			continue
		}
		switch p.src[p.toks[j].Start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j, true
			}
		case ';', '{', '}':
			if withinStatement {
				return 0, false
			}
		}
	}
	return 0, false
}

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

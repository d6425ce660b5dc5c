package syntax

import (
	"bytes"
	"regexp"
	"strings"
)

// Preprocessor conditionals the grammar cannot parse as they stand.

// resolveConditionals handles #if groups the C++ grammar cannot parse as
// they stand. `#if 0` blocks are dead: their first branch is blanked. A group
// that splits a construct (a branch with unbalanced brackets, directives in
// the middle of an expression or argument list, a branch that ends in the
// middle of a statement) is flattened: its first branch is kept, its other
// branches and its directive lines are blanked. Rules then see one
// consistent variant of the code; docs/parsing.md says what that costs.
func (p *prepass) resolveConditionals() {
	depthAt := make([]int, len(p.toks)) // bracket depth before each token
	depth := 0
	for i, t := range p.toks {
		depthAt[i] = depth
		if t.Kind == TokPunct {
			switch p.src[t.Start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
	}
	zero := p.zeroMacros()
	off := p.switchedOff()
	p.noteUndefs()
	for _, dirs := range ConditionalGroups(p.src, p.toks) {
		for _, d := range dirs {
			p.simplifyCondition(d)
		}
		last := dirs[len(dirs)-1]
		if len(dirs) < 2 || DirectiveName(p.text(last)) != "endif" || p.blanked[dirs[0]] {
			continue // unterminated, or inside a branch already blanked
		}
		if isIfZero(p.text(dirs[0]), zero) {
			p.blankBetween(dirs[0], dirs[1])
			continue
		}
		if isIfdefOff(p.text(dirs[0]), off) || p.undefinedAt(dirs[0]) {
			// The switch is off: its branch is dead, and the next one is
			// what compiles, kept alone as a flattened group keeps its
			// first (`#ifdef X } while (a && b); #else } while (a);
			// #endif` closes a loop either way).
			p.blankBetween(dirs[0], dirs[1])
			if len(dirs) > 2 {
				p.blankTokens(dirs[0], dirs[0])
				p.blankTokens(dirs[1], dirs[1])
				p.blankBetween(dirs[2]-1, last+1)
				p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[dirs[0]].Start), int(p.toks[dirs[0]].End)})
			}
			continue
		}
		if isIfOne(p.text(dirs[0])) {
			// `#if 1 ... #else ... #endif`: the later branches are dead
			// (code switched off by hand, kept for reference).
			for k := 1; k+1 < len(dirs); k++ {
				p.blankBetween(dirs[k], dirs[k+1])
			}
			continue
		}
		// Branches compiled for AMD GPUs only are not CUDA code: blanked
		// like #if 0 (the group is left as it is otherwise).
		amd := false
		for k := 0; k+1 < len(dirs); k++ {
			d := p.text(dirs[k])
			if amdOnlyCondition.Match(d) || k == 1 && DirectiveName(d) == "else" && notAMDCondition.Match(p.text(dirs[0])) {
				p.blankBetween(dirs[k], dirs[k+1])
				amd = true
			}
		}
		if amd {
			continue
		}
		if p.groupParses(dirs, depthAt) {
			continue
		}
		// Flatten: keep the first branch, blank the rest and the directives.
		p.blankTokens(dirs[0], dirs[0])
		p.blankBetween(dirs[1]-1, last+1)
		p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[dirs[0]].Start), int(p.toks[dirs[0]].End)})
	}
}

// ConditionalGroups returns the file's #if groups, in the order of their
// #if: each as the indexes in toks of its directives (#if, #elif and
// #else, #endif when the group has one).
func ConditionalGroups(src []byte, toks []Token) [][]int {
	var groups [][]int
	var open []int // indexes in groups of the groups not closed yet
	for i, t := range toks {
		if t.Kind != TokDirective {
			continue
		}
		switch DirectiveName(src[t.Start:t.End]) {
		case "if", "ifdef", "ifndef":
			open = append(open, len(groups))
			groups = append(groups, []int{i})
		case "elif", "else", "elifdef", "elifndef":
			if len(open) > 0 {
				g := open[len(open)-1]
				groups[g] = append(groups[g], i)
			}
		case "endif":
			if len(open) > 0 {
				g := open[len(open)-1]
				groups[g] = append(groups[g], i)
				open = open[:len(open)-1]
			}
		}
	}
	return groups
}

// zeroMacros returns the names the file defines as 0 (or false) and
// never defines otherwise nor #undefs: a group under `#if NAME` of one is
// dead code, like `#if 0`.
func (p *prepass) zeroMacros() map[string]bool {
	var zero map[string]bool
	other := map[string]bool{}
	for _, t := range p.toks {
		if t.Kind != TokDirective {
			continue
		}
		d := p.src[t.Start:t.End]
		switch DirectiveName(d) {
		case "define":
			m, ok := ParseDefine(bytes.TrimSpace(d[bytes.Index(d, []byte("define"))+len("define"):]))
			if !ok {
				continue
			}
			if !m.FunctionLike && (m.Body == "0" || m.Body == "(0)" || m.Body == "false") && !other[m.Name] {
				if zero == nil {
					zero = map[string]bool{}
				}
				zero[m.Name] = true
				continue
			}
			other[m.Name] = true
			delete(zero, m.Name)
		case "undef":
			for _, w := range DirectiveWords(d)[1:] {
				other[string(w)] = true
				delete(zero, string(w))
			}
		}
	}
	return zero
}

// compareArgument matches a comparison operator passed as a macro argument,
// `_CCCL_COMPILER(GCC, >=, 8)`, which no expression grammar accepts.
var compareArgument = regexp.MustCompile(`[(,]\s*(>=|<=|==|!=|<|>)\s*[,)]`)

// alternativeOperator matches C++'s word spellings of operators
// (`#if defined(A) and not defined(B)`), which the grammar's preprocessor
// expressions do not accept.
var alternativeOperator = regexp.MustCompile(`(^|[^A-Za-z0-9_])(and|or|not|bitand|bitor|xor|compl|not_eq)([^A-Za-z0-9_]|$)`)

// simplifyCondition replaces the condition of an #if or #elif that passes
// operators as macro arguments, spells operators as words, or asks
// `__has_include(<header>)`, by `1` and
// spaces: the condition means nothing to rules, and left in, it is an
// ERROR node.
func (p *prepass) simplifyCondition(d int) {
	t := p.toks[d]
	text := p.src[t.Start:t.End]
	name := DirectiveName(text)
	if name != "if" && name != "elif" {
		return
	}
	if cond := text[bytes.Index(text, []byte(name))+len(name):]; !compareArgument.Match(text) && !alternativeOperator.Match(cond) &&
		!bytes.Contains(cond, []byte("__has_include")) {
		return
	}
	at := bytes.Index(text, []byte(name)) + len(name)
	start := int(t.Start) + at
	for start < int(t.End) && IsSpace(p.src[start]) {
		start++
	}
	if start >= int(t.End) {
		return
	}
	p.blank(start, int(t.End))
	p.out[start] = '1'
	p.rw.Blanked = append(p.rw.Blanked, Range{start, int(t.End)})
}

// blankBetween blanks the tokens strictly between token indexes a and b.
func (p *prepass) blankBetween(a, b int) {
	if b <= a+1 {
		return
	}
	start := int(p.toks[a].End)
	end := int(p.toks[b-1].End)
	if b < len(p.toks) {
		end = int(p.toks[b].Start)
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
		// A branch that starts with `else` or `catch` continues a
		// statement before the group: #if V2 \n else { ... } \n #endif.
		if first := a + 1; first < b && p.isIdent(first) && (string(p.text(first)) == "else" || string(p.text(first)) == "catch") {
			return false
		}
	}
	return p.isStatementBoundary(p.lastCodeToken(-1, dirs[0]))
}

// lastCodeToken returns the last non-directive token strictly between a and
// b, or -1 (for a = -1: the last before b, or -1 at the start).
func (p *prepass) lastCodeToken(a, b int) int {
	for k := b - 1; k > a && k >= 0; k-- {
		if p.toks[k].Kind != TokDirective {
			return k
		}
	}
	return -1
}

func (p *prepass) isStatementBoundary(i int) bool {
	if i < 0 || p.toks[i].Kind == TokDirective {
		return true
	}
	if p.toks[i].Kind != TokPunct {
		return false
	}
	switch p.src[p.toks[i].Start] {
	case ';', '{', '}', ':':
		return true
	}
	return false
}

func DirectiveName(d []byte) string {
	d = bytes.TrimLeft(d[1:], " \t")
	j := 0
	for j < len(d) && IsIdentByte(d[j]) {
		j++
	}
	return string(d[:j])
}

// switchedOff returns the names whose only #define in the file is
// commented out, and that no live #define or #undef names: a debugging
// switch kept off by hand, whose `#ifdef NAME` branches are dead code
// (its timers, prints and checks are not compiled).
func (p *prepass) switchedOff() map[string]bool {
	var off map[string]bool
	for _, name := range commentedDefines(p.src) {
		if off == nil {
			off = map[string]bool{}
		}
		off[name] = true
	}
	if off == nil {
		return nil
	}
	for _, t := range p.toks {
		if t.Kind != TokDirective {
			continue
		}
		d := p.src[t.Start:t.End]
		if name := DirectiveName(d); name == "define" || name == "undef" {
			if w := DirectiveWords(d); len(w) > 1 {
				delete(off, string(w[1]))
			}
		}
	}
	return off
}

// macroEvent is a #define or #undef of a name: the token of its
// directive, and whether it sits in no conditional group (it always
// takes effect).
type macroEvent struct {
	tok           int
	undef, always bool
}

// noteUndefs notes, for the names the file #undefs, every #define and
// #undef of them in order (undefinedAt).
func (p *prepass) noteUndefs() {
	p.macroEvents = nil
	if !bytes.Contains(p.src, []byte("undef")) {
		return // most files
	}
	depth := 0
	events := map[string][]macroEvent{}
	undefined := false
	for i, t := range p.toks {
		if t.Kind != TokDirective {
			continue
		}
		d := p.src[t.Start:t.End]
		switch name := DirectiveName(d); name {
		case "if", "ifdef", "ifndef":
			depth++
		case "endif":
			depth--
		case "define", "undef":
			if w := DirectiveWords(d); len(w) > 1 {
				events[string(w[1])] = append(events[string(w[1])], macroEvent{tok: i, undef: name == "undef", always: depth == 0})
				undefined = undefined || name == "undef"
			}
		}
	}
	if undefined {
		p.macroEvents = events
	}
}

// undefinedAt reports whether the directive at token i is `#ifdef NAME`
// or `#if defined(NAME)` for a name the file #undefs before it outside
// any conditional group, with no #define of it between: its branch never
// compiles (Rodinia's srad.cu includes srad.h, which defines TIMER, then
// `#undef TIMER`).
func (p *prepass) undefinedAt(i int) bool {
	if p.macroEvents == nil {
		return false
	}
	d := p.text(i)
	var name string
	switch DirectiveName(d) {
	case "ifdef":
		if w := DirectiveWords(d); len(w) == 2 {
			name = string(w[1])
		}
	case "if":
		cond := strings.TrimSpace(strings.TrimPrefix(ifCondition(d), "defined"))
		if cond != ifCondition(d) {
			name = strings.Trim(cond, "() ")
		}
	}
	var last *macroEvent
	for k, e := range p.macroEvents[name] {
		if e.tok < i {
			last = &p.macroEvents[name][k]
		}
	}
	return last != nil && last.undef && last.always
}

// commentedDefines returns the names of the lines `// #define NAME`
// (blanks allowed around `//` and `#`), found from each "define" by the
// bytes before it on its line: a regular expression anchored at line
// starts read every byte of every parsed file and cost 3% of a run.
func commentedDefines(src []byte) []string {
	var out []string
	word := []byte("define")
	for i := 0; ; {
		k := bytes.Index(src[i:], word)
		if k < 0 {
			return out
		}
		at := i + k
		i = at + len(word)
		j := at
		blanks := func() {
			for j > 0 && (src[j-1] == ' ' || src[j-1] == '\t') {
				j--
			}
		}
		blanks()
		if j == 0 || src[j-1] != '#' {
			continue
		}
		j--
		blanks()
		if j < 2 || src[j-1] != '/' || src[j-2] != '/' {
			continue
		}
		j -= 2
		blanks()
		if j > 0 && src[j-1] != '\n' {
			continue
		}
		n := i
		for n < len(src) && (src[n] == ' ' || src[n] == '\t') {
			n++
		}
		e := n
		for e < len(src) && IsIdentByte(src[e]) {
			e++
		}
		if e > n && n > i {
			out = append(out, string(src[n:e]))
		}
	}
}

// isIfdefOff reports whether d is `#ifdef NAME` or `#if defined(NAME)`
// for a name switched off (switchedOff).
func isIfdefOff(d []byte, off map[string]bool) bool {
	if len(off) == 0 {
		return false
	}
	switch DirectiveName(d) {
	case "ifdef":
		w := DirectiveWords(d)
		return len(w) == 2 && off[string(w[1])]
	case "if":
		cond := strings.TrimSpace(strings.TrimPrefix(ifCondition(d), "defined"))
		return cond != ifCondition(d) && off[strings.Trim(cond, "() ")]
	}
	return false
}

func isIfZero(d []byte, zero map[string]bool) bool {
	if DirectiveName(d) != "if" {
		return false
	}
	switch cond := ifCondition(d); cond {
	case "0", "(0)", "false":
		return true
	default:
		// #if USE_FAST with `#define USE_FAST 0` in the file.
		return zero[strings.Trim(cond, "() ")]
	}
}

// isIfOne reports whether the #if directive d is always true: `#if 1`.
func isIfOne(d []byte) bool {
	if DirectiveName(d) != "if" {
		return false
	}
	switch ifCondition(d) {
	case "1", "(1)", "true":
		return true
	}
	return false
}

// ifCondition returns the condition of the #if directive d, without its
// comments.
func ifCondition(d []byte) string {
	d = bytes.TrimLeft(d[1:], " \t")[2:]
	if i := bytes.Index(d, []byte("//")); i >= 0 {
		d = d[:i]
	}
	if i := bytes.Index(d, []byte("/*")); i >= 0 {
		d = d[:i]
	}
	return string(bytes.TrimSpace(d))
}

// Define is one #define, read by ParseDefine.
type Define struct {
	Name string
	// Params are a function-like macro's parameter names ("..." last for
	// a variadic one); nil for an object-like macro.
	Params       []string
	FunctionLike bool
	Body         string
}

// ParseDefine reads what follows #define: ` NAME body` or ` NAME(a, b) body`.
func ParseDefine(rest []byte) (Define, bool) {
	rest = bytes.TrimLeft(rest, " \t")
	j := 0
	for j < len(rest) && IsIdentByte(rest[j]) {
		j++
	}
	if j == 0 {
		return Define{}, false
	}
	m := Define{Name: string(rest[:j])}
	rest = rest[j:]
	if len(rest) > 0 && rest[0] == '(' {
		k := bytes.IndexByte(rest, ')')
		if k < 0 {
			return Define{}, false
		}
		m.FunctionLike = true
		m.Params = []string{}
		for _, p := range strings.Split(string(rest[1:k]), ",") {
			if p = strings.TrimSpace(p); p != "" {
				m.Params = append(m.Params, p)
			}
		}
		rest = rest[k+1:]
	}
	m.Body = strings.TrimSpace(string(rest))
	return m, true
}

// amdOnlyCondition matches a conditional whose branch is compiled for AMD
// GPUs only: `#ifdef __HIP_PLATFORM_AMD__`, `#if defined(USE_ROCM)`.
var amdOnlyCondition = regexp.MustCompile(`^#\s*(ifdef\s+|(el)?if\s+(defined\s*\(?\s*)?)(__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP__|__HIP_DEVICE_COMPILE__|__AMDGCN__|__gfx\w+__|USE_ROCM|USE_HIP|\w+_(?:USE|ENABLE|HAVE)_(?:HIP|ROCM))\s*\)?\s*$`)

// notAMDCondition matches the opposite test, whose #else branch is AMD's:
// `#ifndef USE_ROCM`, `#if !defined(__HIP_PLATFORM_AMD__)`.
var notAMDCondition = regexp.MustCompile(`^#\s*(ifndef\s+|if\s+!\s*(defined\s*\(?\s*)?)(__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIPCC__|__HIP__|__HIP_DEVICE_COMPILE__|__AMDGCN__|USE_ROCM|USE_HIP|\w+_(?:USE|ENABLE|HAVE)_(?:HIP|ROCM))\s*\)?\s*$`)

var directiveWords = regexp.MustCompile(`[A-Za-z_]\w*`)

// DirectiveWords returns the words of a directive, its name first.
func DirectiveWords(d []byte) [][]byte { return directiveWords.FindAll(d, -1) }

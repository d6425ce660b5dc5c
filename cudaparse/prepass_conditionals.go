package cudaparse

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
		if t.kind == tokPunct {
			switch p.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
		}
	}
	zero := p.zeroMacros()
	for _, dirs := range conditionalGroups(p.src, p.toks) {
		for _, d := range dirs {
			p.simplifyCondition(d)
		}
		last := dirs[len(dirs)-1]
		if len(dirs) < 2 || directiveName(p.text(last)) != "endif" || p.blanked[dirs[0]] {
			continue // unterminated, or inside a branch already blanked
		}
		if isIfZero(p.text(dirs[0]), zero) {
			p.blankBetween(dirs[0], dirs[1])
			continue
		}
		// Branches compiled for AMD GPUs only are not CUDA code: blanked
		// like #if 0 (the group is left as it is otherwise).
		amd := false
		for k := 0; k+1 < len(dirs); k++ {
			d := p.text(dirs[k])
			if amdOnlyCondition.Match(d) || k == 1 && directiveName(d) == "else" && notAMDCondition.Match(p.text(dirs[0])) {
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
		p.rw.Blanked = append(p.rw.Blanked, Range{int(p.toks[dirs[0]].start), int(p.toks[dirs[0]].end)})
	}
}

// conditionalGroups returns the file's #if groups, in the order of their
// #if: each as the indexes in toks of its directives (#if, #elif and
// #else, #endif when the group has one).
func conditionalGroups(src []byte, toks []token) [][]int {
	var groups [][]int
	var open []int // indexes in groups of the groups not closed yet
	for i, t := range toks {
		if t.kind != tokDirective {
			continue
		}
		switch directiveName(src[t.start:t.end]) {
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
		if t.kind != tokDirective {
			continue
		}
		d := p.src[t.start:t.end]
		switch directiveName(d) {
		case "define":
			m, ok := parseDefine(bytes.TrimSpace(d[bytes.Index(d, []byte("define"))+len("define"):]))
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
			for _, w := range directiveWords.FindAll(d, -1)[1:] {
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
	text := p.src[t.start:t.end]
	name := directiveName(text)
	if name != "if" && name != "elif" {
		return
	}
	if cond := text[bytes.Index(text, []byte(name))+len(name):]; !compareArgument.Match(text) && !alternativeOperator.Match(cond) &&
		!bytes.Contains(cond, []byte("__has_include")) {
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

func isIfZero(d []byte, zero map[string]bool) bool {
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
	switch cond := string(bytes.TrimSpace(d)); cond {
	case "0", "(0)", "false":
		return true
	default:
		// #if USE_FAST with `#define USE_FAST 0` in the file.
		return zero[strings.Trim(cond, "() ")]
	}
}

package cudaparse

import (
	"bytes"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// A cheap index of the function names a file defines and calls, without a
// parse: what decides which files take part in project-wide analysis. A
// file that calls a name some other file defines with facts is parsed
// again with those facts; a file that defines a name a candidate calls is
// parsed for its summary. Everything else is never parsed for the project.

// controlWords are followed by a parenthesis without being calls.
var controlWords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"sizeof": true, "alignof": true, "decltype": true, "typeof": true, "defined": true,
	"__attribute__": true, "__declspec": true, "static_assert": true, "noexcept": true,
	"alignas": true, "throw": true, "requires": true, "__launch_bounds__": true, "asm": true, "__asm__": true,
	"static_cast": true, "reinterpret_cast": true, "const_cast": true, "dynamic_cast": true,
}

// NameIndex is the names a file defines as functions and the names it calls.
type NameIndex struct {
	Defines []string
	Calls   []string
}

// ScanNames returns the names src defines as functions (a name, its
// parameter list, then a body: `f(...) const {`) and the names it calls
// (a name followed by a parenthesis), each once, in order of first
// appearance. Comments, strings and preprocessor lines are skipped. It is a
// heuristic: a macro call followed by a block looks like a definition,
// which costs a parse at most.
func ScanNames(src []byte) NameIndex {
	var out NameIndex
	seenDef := map[string]bool{}
	seenCall := map[string]bool{}
	EachName(src, func(name []byte, def bool) {
		switch {
		case def && !seenDef[string(name)]:
			seenDef[string(name)] = true
			out.Defines = append(out.Defines, string(name))
		case !def && !seenCall[string(name)]:
			seenCall[string(name)] = true
			out.Calls = append(out.Calls, string(name))
		}
	})
	return out
}

// EachName calls visit with each name src defines as a function (def) or
// calls, as ScanNames finds them, repeats included; name is only valid
// during the call.
func EachName(src []byte, visit func(name []byte, def bool)) {
	n := len(src)
	atLineStart := true
	for i := 0; i < n; {
		c := src[i]
		switch {
		case c == '\n':
			atLineStart = true
			i++
			continue
		case syntax.IsSpace(c):
			i++
			continue
		case c == '#' && atLineStart:
			i = syntax.SkipDirective(src, i)
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			i = syntax.SkipLineComment(src, i)
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = syntax.SkipBlockComment(src, i)
			atLineStart = false
			continue
		case c == '"' || c == '\'':
			i = syntax.SkipQuoted(src, i, c)
			atLineStart = false
			continue
		case c >= '0' && c <= '9':
			i = syntax.SkipNumber(src, i)
			atLineStart = false
			continue
		case syntax.IsIdentStart(c):
			start := i
			for i < n && syntax.IsIdentByte(src[i]) {
				i++
			}
			atLineStart = false
			if i < n && src[i] == '"' && syntax.IsLiteralPrefix(src[start:i]) {
				if i-start > 0 && src[i-1] == 'R' {
					i = syntax.SkipRawString(src, i)
				} else {
					i = syntax.SkipQuoted(src, i, '"')
				}
				continue
			}
			j := i
			for j < n && (syntax.IsSpace(src[j]) || src[j] == '\n') {
				j++
			}
			if j < n && src[j] == '<' {
				// An explicit template call: launch<4096>(g).
				j = afterTemplateArguments(src, j)
			}
			if j >= n || src[j] != '(' || controlWords[string(src[start:i])] {
				continue
			}
			visit(src[start:i], isDefinitionAt(src, j))
			continue
		default:
			atLineStart = false
			i++
		}
	}
}

// isDefinitionAt reports whether the parameter list opening at src[open]
// is followed by a function body: `) {`, `) const {`, `) noexcept {`,
// `) -> int {`, `) : member(x) {` is left out (a constructor's initializer
// list reads like a call).
func isDefinitionAt(src []byte, open int) bool { return bodyAfter(src, open) >= 0 }

// bodyAfter returns the offset of the '{' that opens the body after the
// parameter list opening at src[open], or -1.
func bodyAfter(src []byte, open int) int {
	depth := 0
	i := open
	for ; i < len(src); i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				goto closed
			}
		case ';', '{', '}':
			return -1
		case '"', '\'':
			i = syntax.SkipQuoted(src, i, src[i]) - 1
		}
	}
	return -1
closed:
	for i++; i < len(src); i++ {
		c := src[i]
		switch {
		case syntax.IsSpace(c) || c == '\n':
		case c == '{':
			return i
		case syntax.IsIdentStart(c):
			start := i
			for i < len(src) && syntax.IsIdentByte(src[i]) {
				i++
			}
			switch string(src[start:i]) {
			case "const", "noexcept", "override", "final", "volatile", "mutable", "__host__", "__device__", "__forceinline__":
			default:
				return -1
			}
			i--
		case c == '&':
		default:
			return -1
		}
	}
	return -1
}

// LoaderDefinitions returns the names src defines as functions whose
// body (by brace matching, without a parse) spells one of the literals:
// `launch_scale(...) { scale<<<...>>>(...); }` for "<<<", or that call
// such a function of the same file. A cheap way to tell the functions that
// launch or preload from the many others a header defines.
func LoaderDefinitions(src []byte, literals [][]byte) []string {
	var out []string
	seen := map[string]bool{}
	var others []string // definitions whose own body spells none
	bodies := map[string][][]byte{}
	eachDefinition(src, func(name, body []byte) {
		bodies[string(name)] = append(bodies[string(name)], body)
		if seen[string(name)] {
			return
		}
		for _, lit := range literals {
			if bytes.Contains(body, lit) {
				seen[string(name)] = true
				out = append(out, string(name))
				return
			}
		}
		others = append(others, string(name))
	})
	// A function that calls one of the file's loaders loads too (a public
	// resize() calling the file's static resizeCore(), which launches), to
	// a fixed point.
	for changed := len(out) > 0; changed; {
		changed = false
		for _, name := range others {
			if seen[name] {
				continue
			}
			for _, body := range bodies[name] {
				calls := false
				EachName(body, func(n []byte, d bool) {
					calls = calls || !d && seen[string(n)]
				})
				if calls {
					seen[name] = true
					out = append(out, name)
					changed = true
					break
				}
			}
		}
	}
	return out
}

// eachDefinition calls fn with the name and the body (by brace matching,
// braces included) of each function src seems to define.
func eachDefinition(src []byte, fn func(name, body []byte)) {
	eachDefinitionHead(src, func(name, _, body []byte) { fn(name, body) })
}

// eachDefinitionHead is eachDefinition that also hands fn the text from
// the parameter list's parenthesis to the body.
func eachDefinitionHead(src []byte, fn func(name, head, body []byte)) {
	EachName(src, func(name []byte, def bool) {
		if !def {
			return
		}
		// name is a slice of src: find its parameter list, then its body.
		at := cap(src) - cap(name)
		open := at + len(name)
		for open < len(src) && src[open] != '(' {
			open++
		}
		start := bodyAfter(src, open)
		if start < 0 {
			return
		}
		fn(name, src[open:start], src[start:matchingBrace(src, start)])
	})
}

// matchingBrace returns the offset just past the '}' that closes the '{'
// at src[open], skipping comments and literals (the end of src if none).
func matchingBrace(src []byte, open int) int {
	depth := 0
	for i := open; i < len(src); i++ {
		switch c := src[i]; {
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = syntax.SkipLineComment(src, i) - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = syntax.SkipBlockComment(src, i) - 1
		case c == '"' || c == '\'':
			i = syntax.SkipQuoted(src, i, c) - 1
		}
	}
	return len(src)
}

// maxTemplateArguments bounds how far a template argument list is looked
// for its end.
const maxTemplateArguments = 256

// afterTemplateArguments returns the index of the first byte after the
// template argument list opening at src[lt] ('<') and the space after it,
// or lt when no list ends there (a shift or a launch's <<<, a comparison
// joined by && or ||, or a list longer than maxTemplateArguments or
// crossing a statement).
func afterTemplateArguments(src []byte, lt int) int {
	if lt+1 < len(src) && src[lt+1] == '<' {
		return lt // a shift, or a kernel launch's <<<
	}
	depth, parens := 0, 0
	for k := lt; k < len(src) && k < lt+maxTemplateArguments; k++ {
		if parens == 0 && k+1 < len(src) && (src[k] == '&' && src[k+1] == '&' || src[k] == '|' && src[k+1] == '|') {
			return lt // a comparison: a < b && c > (d)
		}
		switch src[k] {
		case '<':
			depth++
		case '>':
			if parens == 0 {
				depth--
			}
		case '(':
			parens++
		case ')':
			parens--
			if parens < 0 {
				return lt
			}
		case ';', '{', '}':
			return lt
		}
		if depth == 0 {
			k++
			for k < len(src) && (syntax.IsSpace(src[k]) || src[k] == '\n') {
				k++
			}
			return k
		}
	}
	return lt
}

// CalledAsFunction reports whether src spells name other than as a member
// of an object (after `.` or `->`): a call of a free or qualified function
// (name(, ns::name(), or a declaration. Comments and strings are not told
// apart from code: when unsure, it says yes.
func CalledAsFunction(src []byte, name string) bool {
	if name == "" {
		return false
	}
	found := false
	eachWord(src, []byte(name), func(at, _ int) bool {
		j := at - 1
		for j >= 0 && isBlank(src[j]) {
			j--
		}
		// Not a member: x.name, p->name.
		found = !(j >= 0 && src[j] == '.' || j >= 1 && src[j] == '>' && src[j-1] == '-')
		return !found
	})
	return found
}

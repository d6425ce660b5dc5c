package cudaparse

import (
	"bytes"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// Macros that spell CUDA calls. Portable code names the API through a
// layer of macros, often in a project header: `#define gpuMalloc cudaMalloc`
// (hipMalloc under another #if), `#define GPU_API(x) cuda##x`, or a
// pass-through `#define gpuMemGetInfo(...) cudaMemGetInfo(__VA_ARGS__)`.
// A call through such a macro is a call of what it expands to: the parser
// names it so (Call.Name), keeping what was written (Call.Spelled), so
// every rule sees the CUDA call. Only macros that expand to a name are
// applied; the text is never rewritten.

// Macro is one #define.
type Macro struct {
	Name string
	// Params are a function-like macro's parameter names ("..." last for
	// a variadic one); nil for an object-like macro.
	Params       []string
	FunctionLike bool
	Body         string
}

// Include is one #include directive.
type Include struct {
	Path   string
	Quoted bool // "..." rather than <...>
}

// ScanDirectives returns the #define and #include directives of src, in
// order, without a parse: lines whose first character is '#', with their
// continuation lines. (A directive inside a block comment is taken for one;
// that costs a spurious macro at most.)
func ScanDirectives(src []byte) (macros []Macro, includes []Include) {
	for i := 0; i < len(src); {
		// Jump to the next '#', rare outside directives, and keep it only
		// when nothing but blanks precedes it on its line.
		k := bytes.IndexByte(src[i:], '#')
		if k < 0 {
			break
		}
		j := i + k
		lineStart := j
		for lineStart > 0 && (src[lineStart-1] == ' ' || src[lineStart-1] == '\t') {
			lineStart--
		}
		if lineStart > 0 && src[lineStart-1] != '\n' {
			i = j + 1
			continue
		}
		end := syntax.SkipDirective(src, j)
		d := src[j:end]
		i = end + 1
		word, rest := directiveWord(d)
		switch word {
		case "define":
			if m, ok := parseDefine(rest); ok {
				macros = append(macros, m)
			}
		case "include", "include_next", "import":
			rest = bytes.TrimSpace(rest)
			if len(rest) < 2 {
				continue
			}
			open, closer := rest[0], byte('"')
			if open == '<' {
				closer = '>'
			} else if open != '"' {
				continue
			}
			if k := bytes.IndexByte(rest[1:], closer); k > 0 {
				includes = append(includes, Include{Path: string(rest[1 : 1+k]), Quoted: open == '"'})
			}
		}
	}
	return macros, includes
}

// directiveWord splits `#  define X 1` into "define" and " X 1", with
// continuation lines joined and comments removed.
func directiveWord(d []byte) (string, []byte) {
	d = joinContinuations(d)
	d = bytes.TrimLeft(d[1:], " \t")
	j := 0
	for j < len(d) && syntax.IsIdentByte(d[j]) {
		j++
	}
	return string(d[:j]), d[j:]
}

// joinContinuations removes backslash-newlines and comments.
func joinContinuations(d []byte) []byte {
	if bytes.IndexByte(d, '\\') < 0 && bytes.IndexByte(d, '/') < 0 {
		return d
	}
	out := make([]byte, 0, len(d))
	for i := 0; i < len(d); i++ {
		switch {
		case d[i] == '\\' && i+1 < len(d) && d[i+1] == '\n':
			i++
			out = append(out, ' ')
		case d[i] == '\\' && i+2 < len(d) && d[i+1] == '\r' && d[i+2] == '\n':
			i += 2
			out = append(out, ' ')
		case d[i] == '/' && i+1 < len(d) && d[i+1] == '*':
			i = syntax.SkipBlockComment(d, i) - 1
			out = append(out, ' ')
		case d[i] == '/' && i+1 < len(d) && d[i+1] == '/':
			i = syntax.SkipLineComment(d, i) - 1
		case d[i] == '"' || d[i] == '\'':
			j := syntax.SkipQuoted(d, i, d[i])
			out = append(out, d[i:j]...)
			i = j - 1
		default:
			out = append(out, d[i])
		}
	}
	return out
}

// parseDefine reads ` NAME body` or ` NAME(a, b) body`.
func parseDefine(rest []byte) (Macro, bool) {
	d, ok := syntax.ParseDefine(rest)
	return Macro{Name: d.Name, Params: d.Params, FunctionLike: d.FunctionLike, Body: d.Body}, ok
}

// MacroTable holds the macros visible to a file, by name. A name defined
// more than once (in different #if branches, or headers) keeps every
// definition.
type MacroTable map[string][]Macro

// Add adds definitions; later ones do not replace earlier ones.
func (t MacroTable) Add(ms ...Macro) {
	for _, m := range ms {
		t[m.Name] = append(t[m.Name], m)
	}
}

// maxExpansionDepth bounds macro expansion: a macro that expands into
// itself, directly or not, stops there.
const maxExpansionDepth = 8

// calleeName returns the function a call of the macro name with the given
// argument texts reaches, when the macro expands to a name followed by the
// call's own arguments: an alias (`#define gpuMalloc cudaMalloc`) or a
// pass-through (`#define gpuFree(p) cudaFree(p)`). Of several
// definitions, one that reaches a CUDA API wins (portable code checked for
// CUDA).
func (t MacroTable) calleeName(name string, depth int) (string, bool) {
	defs := t[name]
	if len(defs) == 0 || depth > maxExpansionDepth {
		return "", false
	}
	best := ""
	for _, m := range defs {
		target := ""
		if !m.FunctionLike {
			if isQualifiedName(m.Body) {
				target = lastComponent(m.Body)
			}
		} else if open := strings.IndexByte(m.Body, '('); open > 0 && strings.HasSuffix(m.Body, ")") {
			callee := strings.TrimSpace(m.Body[:open])
			args := compactSpace(m.Body[open+1 : len(m.Body)-1])
			if isQualifiedName(callee) && (args == strings.Join(m.Params, ",") || args == "__VA_ARGS__" && len(m.Params) == 1 && m.Params[0] == "...") {
				target = lastComponent(callee)
			}
		}
		if target == "" || target == name {
			continue
		}
		if deeper, ok := t.calleeName(target, depth+1); ok {
			target = deeper
		}
		if best == "" || isCUDAName(target) && !isCUDAName(best) {
			best = target
		}
	}
	return best, best != ""
}

// pastedName returns the name a function-like macro call `name(args)`
// expands to when its body pastes tokens into one name:
// `#define GPU_API(x) cuda##x` makes GPU_API(Malloc) cudaMalloc. Nested
// macros in the body are expanded first, up to maxExpansionDepth.
func (t MacroTable) pastedName(name string, args []string, depth int) (string, bool) {
	if depth > maxExpansionDepth {
		return "", false
	}
	best := ""
	for _, m := range t[name] {
		if !m.FunctionLike || len(m.Params) != len(args) {
			continue
		}
		body := m.Body
		// Substitute parameters (whole words only), then paste.
		out := substituteParams(body, m.Params, args)
		out = strings.ReplaceAll(out, " ", "")
		out = strings.ReplaceAll(out, "##", "")
		if isIdentifier(out) {
			if deeper, ok := t.calleeName(out, depth+1); ok {
				out = deeper
			}
			if best == "" || isCUDAName(out) && !isCUDAName(best) {
				best = out
			}
			continue
		}
		// CAT(cuda, x): a call of another function-like macro.
		if open := strings.IndexByte(out, '('); open > 0 && strings.HasSuffix(out, ")") && isIdentifier(out[:open]) {
			inner := strings.Split(out[open+1:len(out)-1], ",")
			if got, ok := t.pastedName(out[:open], inner, depth+1); ok && (best == "" || isCUDAName(got) && !isCUDAName(best)) {
				best = got
			}
		}
	}
	return best, best != ""
}

func substituteParams(body string, params, args []string) string {
	var b strings.Builder
	for i := 0; i < len(body); {
		if syntax.IsIdentStart(body[i]) {
			j := i
			for j < len(body) && syntax.IsIdentByte(body[j]) {
				j++
			}
			word := body[i:j]
			replaced := false
			for k, p := range params {
				if p == word && k < len(args) {
					b.WriteString(strings.TrimSpace(args[k]))
					replaced = true
					break
				}
			}
			if !replaced {
				b.WriteString(word)
			}
			i = j
			continue
		}
		b.WriteByte(body[i])
		i++
	}
	return b.String()
}

func isIdentifier(s string) bool {
	if s == "" || !syntax.IsIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !syntax.IsIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// isQualifiedName reports whether s is a name, possibly qualified (ns::f).
func isQualifiedName(s string) bool {
	s = strings.TrimPrefix(strings.TrimSpace(s), "::")
	for _, part := range strings.Split(s, "::") {
		if !isIdentifier(strings.TrimSpace(part)) {
			return false
		}
	}
	return s != ""
}

func lastComponent(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return strings.TrimSpace(s[i+2:])
	}
	return s
}

// Relevant reports whether a macro can rename a call to a CUDA API: an
// alias or pass-through whose target is a CUDA name (through the macro
// alone); a paste of cuda or cu with a parameter (`cuda##x`); a bare paste
// of parameters (`CAT(a, b) a##b`); or a call of another macro with a
// cuda or cu argument (`CAT(cuda, x)`). Only these are shared with the
// files that include a header: a rename to anything else changes no
// rule's answer, and test macros that paste names are many.
func (m Macro) Relevant() bool {
	t := MacroTable{}
	t.Add(m)
	if to, ok := t.calleeName(m.Name, 0); ok {
		return isCUDAName(to)
	}
	if !m.FunctionLike || len(m.Params) == 0 {
		return false
	}
	body := compactSpace(m.Body)
	if strings.Contains(body, "cuda##") || strings.Contains(body, "cu##") {
		return true
	}
	if parts := strings.Split(body, "##"); len(parts) == 2 && slices.Contains(m.Params, parts[0]) && slices.Contains(m.Params, parts[1]) {
		return true
	}
	if open := strings.IndexByte(body, '('); open > 0 && strings.HasSuffix(body, ")") && isIdentifier(body[:open]) {
		for _, arg := range strings.Split(body[open+1:len(body)-1], ",") {
			if arg == "cuda" || arg == "cu" {
				return true
			}
		}
	}
	return false
}

// renamesCall reports whether a macro can rename a call at all (to any
// name): an alias, a pass-through or a paste. A file's own such macro
// replaces a header's of the same name.
func (m Macro) renamesCall() bool {
	t := MacroTable{}
	t.Add(m)
	_, ok := t.calleeName(m.Name, 0)
	return ok || m.FunctionLike && strings.Contains(m.Body, "##")
}

// accessesVolatile reports whether a function-like macro reads or writes
// its argument through a volatile lvalue, as the kernel-style access
// macros do: `#define ACCESS_ONCE(x) (*(volatile typeof(x) *)&(x))`.
func (m Macro) accessesVolatile() bool {
	return m.FunctionLike && len(m.Params) > 0 && strings.Contains(m.Body, "volatile")
}

// VolatileAccess reports whether a call of the macro name accesses its
// first argument through a volatile lvalue, directly or through another
// such macro (`#define READ_ONCE(x) ACCESS_ONCE(x)`), and whether it
// writes it (`#define WRITE_ONCE(x, v) (ACCESS_ONCE(x) = (v))`).
func (t MacroTable) VolatileAccess(name string) (write, ok bool) {
	seen := map[string]bool{name: true}
	for _, m := range t[name] {
		if m.FunctionLike && len(m.Params) > 0 && (m.accessesVolatile() || t.reachesVolatile(m, seen)) {
			return assigns(m.Body), true
		}
	}
	return false, false
}

// reachesVolatile reports whether the body of m calls a macro that
// accesses memory through a volatile lvalue, directly or through others.
// Each name is looked into once (seen): a macro that expands into itself
// ends there, and a header of many macros calling each other costs one
// walk, not one per chain.
func (t MacroTable) reachesVolatile(m Macro, seen map[string]bool) bool {
	for _, callee := range calledNames(m.Body) {
		if seen[callee] {
			continue
		}
		seen[callee] = true
		for _, c := range t[callee] {
			if c.FunctionLike && len(c.Params) > 0 && (c.accessesVolatile() || t.reachesVolatile(c, seen)) {
				return true
			}
		}
	}
	return false
}

// VolatileAccessNames returns the names of the table's macros for which
// VolatileAccess holds: those that access volatile memory, and those that
// call one, found backwards from the first in one pass over the table.
func (t MacroTable) VolatileAccessNames() map[string]bool {
	callers := map[string][]string{}
	out := map[string]bool{}
	var todo []string
	for name, ms := range t {
		for _, m := range ms {
			if !m.FunctionLike || len(m.Params) == 0 {
				continue
			}
			if m.accessesVolatile() && !out[name] {
				out[name] = true
				todo = append(todo, name)
			}
			for _, callee := range calledNames(m.Body) {
				if callee != name {
					callers[callee] = append(callers[callee], name)
				}
			}
		}
	}
	for len(todo) > 0 {
		name := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, caller := range callers[name] {
			if !out[caller] {
				out[caller] = true
				todo = append(todo, caller)
			}
		}
	}
	return out
}

// calledNames returns the names in body that are followed by '('.
func calledNames(body string) []string {
	var out []string
	eachCalledName(body, func(name string, _, _ int) { out = append(out, name) })
	return out
}

// assigns reports whether an expression holds a plain assignment (`=`,
// not `==`, `!=`, `<=` or `>=`).
func assigns(body string) bool {
	for i := 0; i < len(body); i++ {
		if body[i] != '=' {
			continue
		}
		if i+1 < len(body) && body[i+1] == '=' {
			i++
			continue
		}
		if i > 0 && strings.IndexByte("=!<>", body[i-1]) >= 0 {
			continue
		}
		return true
	}
	return false
}

// SharedMacros returns the macros of a header that matter to the files
// including it: those that can rename a call to a CUDA API (Relevant),
// volatile access macros with the macros of the same header that reach
// them (READ_ONCE through ACCESS_ONCE), which make a spin read, and macros
// that read a clock (through the header's other macros too), and launch
// macros (`#define hipLaunchKernelGGL(F, G, B, M, S, ...)
// F<<<G, B, M, S>>>(__VA_ARGS__)` of a portability header).
func SharedMacros(ms []Macro) []Macro {
	t := MacroTable{}
	t.Add(ms...)
	volatile := t.VolatileAccessNames()
	var out []Macro
	for _, m := range ms {
		if m.Relevant() || volatile[m.Name] || touchesClock(m.Body, t) || m.FunctionLike && strings.Contains(m.Body, "<<<") {
			out = append(out, m)
		}
	}
	return out
}

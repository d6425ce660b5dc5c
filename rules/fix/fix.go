// Package fix builds the suggested fixes rules share.
package fix

import (
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/knowledge"
)

// InsertBeforeStatement returns an edit that inserts lines (each without
// its line break) before the statement holding at, with the statement's
// indentation. It fails when the statement does not start its line.
func InsertBeforeStatement(f *cudaparse.File, at cudaparse.Node, lines ...string) (rule.TextEdit, bool) {
	stmt := at
	for stmt.Valid() && !stmt.Parent().Is("compound_statement") {
		stmt = stmt.Parent()
	}
	if !stmt.Valid() {
		return rule.TextEdit{}, false
	}
	lineStart := stmt.Start()
	for lineStart > 0 && f.Src[lineStart-1] != '\n' {
		lineStart--
	}
	indent := string(f.Src[lineStart:stmt.Start()])
	if strings.TrimSpace(indent) != "" {
		return rule.TextEdit{}, false
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(indent + l + "\n")
	}
	return rule.TextEdit{Range: cudaparse.Range{Start: lineStart, End: lineStart}, NewText: b.String()}, true
}

// PreloadKernel returns a fix that loads kernel (a kernel symbol, with any
// template arguments) with cudaFuncGetAttributes before the statement
// holding at. Driver-API handles cannot be preloaded this way: callers pass
// only kernels named by their symbol. A template instantiation whose
// arguments are unknown (cudaparse.UnknownInstantiation) gets no fix.
func PreloadKernel(f *cudaparse.File, at cudaparse.Node, kernel, why string) (rule.Fix, bool) {
	if cudaparse.UnknownInstantiation(kernel) {
		return rule.Fix{}, false // k<?>: no instantiation to name
	}
	line := fmt.Sprintf("{ cudaFuncAttributes preload; cudaFuncGetAttributes(&preload, %s); }  // %s", kernel, why)
	edit, ok := InsertBeforeStatement(f, at, line)
	if !ok {
		return rule.Fix{}, false
	}
	return rule.Fix{Message: "preload " + kernel + " with cudaFuncGetAttributes", Edits: []rule.TextEdit{edit}}, true
}

// PreloadKernelAtTop is PreloadKernel before the statement of the
// function's body (its top level) that holds at: outside the loops and
// conditions around at. It fails where that would move the preload out of
// a preprocessor conditional around use (the kernel may exist only under
// it), or before a local the kernel's template arguments name.
func PreloadKernelAtTop(f *cudaparse.File, at, use cudaparse.Node, kernel, why string) (rule.Fix, bool) {
	fn := f.FunctionOf(at)
	if fn == nil || !fn.Body.Valid() {
		return rule.Fix{}, false
	}
	top := at
	for top.Valid() && top.Parent() != fn.Body {
		top = top.Parent()
	}
	if !top.Valid() || directiveBetween(f.Src, top.Start(), use.Start()) || localAfter(f, fn, kernel, top.Start()) {
		return rule.Fix{}, false
	}
	return PreloadKernel(f, top, kernel, why)
}

// directiveBetween reports whether a conditional directive (#if, #ifdef,
// #ifndef, #elif, #else, #endif) starts a line of src[from:to].
func directiveBetween(src []byte, from, to int) bool {
	if from < 0 || to > len(src) || from >= to {
		return false
	}
	for _, line := range strings.Split(string(src[from:to]), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "#") {
			continue
		}
		word := strings.TrimSpace(strings.TrimPrefix(t, "#"))
		for _, d := range []string{"if", "else", "elif", "endif"} {
			if strings.HasPrefix(word, d) {
				return true
			}
		}
	}
	return false
}

// localAfter reports whether the kernel's template arguments name a
// variable fn declares after offset at (a constexpr block size).
func localAfter(f *cudaparse.File, fn *cudaparse.Function, kernel string, at int) bool {
	open := strings.IndexByte(kernel, '<')
	if open < 0 {
		return false
	}
	names := map[string]bool{}
	for _, w := range strings.FieldsFunc(kernel[open:], func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		names[w] = true
	}
	found := false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if found || n.Start() < at && n.End() < at {
			return !found
		}
		if n.Is("init_declarator", "declaration") && n.Start() >= at {
			if d := n.ChildByField("declarator"); d.Valid() && names[strings.TrimSpace(declaredName(d))] {
				found = true
			}
		}
		return !found
	})
	return found
}

// declaredName is the name a declarator declares (x of `x = 1`, `*x`).
func declaredName(d cudaparse.Node) string {
	for d.Valid() && !d.Is("identifier") {
		d = d.ChildByField("declarator")
	}
	return d.Text()
}

// IsSymbolLaunch reports whether a launch names its kernel by symbol (<<<>>>,
// the runtime launch APIs, a library's launch of a kernel pointer), so
// that the kernel can be preloaded with cudaFuncGetAttributes.
func IsSymbolLaunch(l *cudaparse.Launch) bool {
	return l.API == "" || !knowledge.DriverLaunch(l.API)
}

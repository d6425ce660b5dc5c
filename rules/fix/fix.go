// Package fix builds the suggested fixes rules share.
package fix

import (
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
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
// only kernels named by their symbol.
func PreloadKernel(f *cudaparse.File, at cudaparse.Node, kernel, why string) (rule.Fix, bool) {
	line := fmt.Sprintf("{ cudaFuncAttributes preload; cudaFuncGetAttributes(&preload, %s); }  // %s", kernel, why)
	edit, ok := InsertBeforeStatement(f, at, line)
	if !ok {
		return rule.Fix{}, false
	}
	return rule.Fix{Message: "preload " + kernel + " with cudaFuncGetAttributes", Edits: []rule.TextEdit{edit}}, true
}

// IsSymbolLaunch reports whether a launch names its kernel by symbol (<<<>>>
// or the runtime launch APIs), so that the kernel can be preloaded with
// cudaFuncGetAttributes.
func IsSymbolLaunch(l *cudaparse.Launch) bool {
	return l.API == "" || strings.HasPrefix(l.API, "cuda")
}

package lsp

import (
	"go/parser"
	"go/token"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/suppress"
)

// suppressCandidate is one way to write a suppression comment.
type suppressCandidate struct {
	title string
	edit  rule.TextEdit
	// line is where the finding's line is after the edit; goSyntax selects
	// the comment syntax the suppress package must find the directive in.
	line     int
	goSyntax bool
}

// suppressEdit returns the title and the edit of a code action that adds a
// comment silencing rule r on line (1-based) of text; at is the finding's
// start offset. Each way of writing the comment is tried in turn, and one
// is offered only when the suppress package, reading the edited text,
// finds a directive that silences r on the finding's line, with no new
// malformed directive (and a Go file that parsed still parses). So a
// comment that would land inside a string, a raw string or a block comment
// that began on an earlier line is never offered.
//
// C, C++ and CUDA: ` // NOLINT(lazylint-LL001)` at the end of the line; on
// a line continued with a backslash, ` /* NOLINT(lazylint-LL001) */` before
// the backslash; else a `// NOLINTNEXTLINE(lazylint-LL001)` line above
// (unless the line above is continued), else `/* NOLINT(...) */` before the
// finding.
//
// Go: golangci-lint's ` //nolint:lazylint` at the end of a line of Go code
// (it silences every lazylint rule there, as in golangci-lint); in a cgo
// preamble written as // comments, the C form after the C code. Preambles
// written as one /* */ comment get no action: no directive inside one can
// name a line (the suppress package reads a comment's directives as being
// on the comment's first line).
func suppressEdit(text string, goFile bool, r *rule.Rule, line, at int) (string, rule.TextEdit, bool) {
	x := newTextIndex(text)
	if line < 1 || line > len(x.starts) {
		return "", rule.TextEdit{}, false
	}
	ls, le := x.starts[line-1], x.lineEnd(line-1)
	content := text[ls:le]
	trimmed := strings.TrimRight(content, " \t")
	codeEnd := ls + len(trimmed)
	continued := strings.HasSuffix(trimmed, `\`)
	eol := "\n"
	if le < len(text) && text[le] == '\r' {
		eol = "\r\n"
	}
	nolint := "NOLINT(lazylint-" + r.ID + ")"
	title := "Suppress " + r.ID + " on this line"
	insert := func(off int, s string) rule.TextEdit {
		return rule.TextEdit{Range: cudaparse.Range{Start: off, End: off}, NewText: s}
	}
	// The C form at the end of the line, or before its continuation.
	var atEnd suppressCandidate
	if continued {
		pre := strings.TrimRight(trimmed[:len(trimmed)-1], " \t")
		atEnd = suppressCandidate{title, insert(ls+len(pre), " /* "+nolint+" */"), line, false}
	} else {
		atEnd = suppressCandidate{title, rule.TextEdit{Range: cudaparse.Range{Start: codeEnd, End: le}, NewText: " // " + nolint}, line, false}
	}

	var candidates []suppressCandidate
	if goFile {
		if !continued {
			candidates = append(candidates, suppressCandidate{
				"Suppress lazylint on this line (//nolint:lazylint)",
				rule.TextEdit{Range: cudaparse.Range{Start: codeEnd, End: le}, NewText: " //nolint:lazylint"}, line, true,
			})
		}
		candidates = append(candidates, atEnd)
	} else {
		candidates = append(candidates, atEnd)
		prevContinued := line > 1 && strings.HasSuffix(strings.TrimRight(text[x.starts[line-2]:x.lineEnd(line-2)], " \t"), `\`)
		if !prevContinued {
			indent := content[:len(content)-len(strings.TrimLeft(content, " \t"))]
			candidates = append(candidates, suppressCandidate{title, insert(ls, indent+"// NOLINTNEXTLINE(lazylint-"+r.ID+")"+eol), line + 1, false})
		}
		if at >= ls && at <= le {
			candidates = append(candidates, suppressCandidate{title, insert(at, "/* "+nolint+" */ "), line, false})
		}
	}

	problems := map[bool]int{}
	for _, syntax := range []bool{false, true} {
		if syntax && !goFile {
			continue
		}
		problems[syntax] = len(suppress.Parse([]byte(text), syntax).Problems)
	}
	goParsed := goFile && goParses(text)
	for _, c := range candidates {
		edited := text[:c.edit.Range.Start] + c.edit.NewText + text[c.edit.Range.End:]
		set := suppress.Parse([]byte(edited), c.goSyntax)
		if set.Match(r, c.line) == nil || len(set.Problems) > problems[c.goSyntax] {
			continue
		}
		if goParsed && !goParses(edited) {
			continue
		}
		return c.title, c.edit, true
	}
	return "", rule.TextEdit{}, false
}

func goParses(text string) bool {
	_, err := parser.ParseFile(token.NewFileSet(), "", text, parser.ParseComments|parser.SkipObjectResolution)
	return err == nil
}

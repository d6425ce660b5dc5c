package engine

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/suppress"
)

// Suppression says which comment silenced a finding.
type Suppression struct {
	Kind          string // NOLINT, NOLINTNEXTLINE, NOLINTBEGIN, lazylint:ignore, nolint
	Directive     string // as written
	Line          int
	Justification string
}

// suppressions applies the suppression comments of one file: findings they
// silence move to suppressed, and malformed comments (and, with
// reportUnused, comments that silenced nothing) become LL000 findings.
func suppressions(path string, text *rule.Text, goFile bool, findings []Finding, catalog, ran []*rule.Rule, reportUnused bool) (kept, suppressed []Finding) {
	src := text.Src
	fillSnippets(findings, src)
	set := suppress.ParseText(text, false)
	if goFile {
		goSet := suppress.ParseText(text, true)
		set.Directives = append(set.Directives, goSet.Directives...)
		set.Problems = append(set.Problems, goSet.Problems...)
	}
	if len(set.Directives) == 0 && len(set.Problems) == 0 {
		return findings, nil
	}
	// Names are judged against every rule lazylint has (a directive for a
	// rule this run left out is not a typo) and the ones that ran (tests'
	// own rules).
	set.CheckNames(append(append([]*rule.Rule{suppress.Rule}, catalog...), ran...))
	for _, f := range findings {
		if d := set.Match(f.Rule, f.Start.Line); d != nil {
			f.Suppression = &Suppression{Kind: d.Kind, Directive: d.Text, Line: d.Line, Justification: d.Reason}
			suppressed = append(suppressed, f)
			continue
		}
		kept = append(kept, f)
	}
	lines := syntax.NewLineIndex(src)
	meta := func(line, byteCol int, msg string) Finding {
		// The suppress package counts bytes; findings count characters.
		off := lines.Offset(cudaparse.Position{Line: line, Column: 1}) + byteCol - 1
		off = min(max(off, 0), len(src))
		pos := lines.Position(off)
		return Finding{
			Finding: rule.Finding{Rule: suppress.Rule, Message: msg, Range: cudaparse.Range{Start: off, End: off}},
			Path:    path, Start: pos, End: pos, Severity: suppress.Rule.Severity,
		}
	}
	for _, p := range set.Problems {
		kept = append(kept, meta(p.Line, p.Column, p.Message))
	}
	if reportUnused {
		for _, d := range set.Unused(ran) {
			kept = append(kept, meta(d.Line, d.Column, fmt.Sprintf("%s silences no finding; delete it", d.Text)))
		}
		for _, u := range set.UnusedChecks(ran) {
			kept = append(kept, meta(u.Directive.Line, u.Directive.Column, fmt.Sprintf("%s in %s silences no finding; drop it from the list", u.Check, u.Directive.Text)))
		}
	}
	SortFindings(kept)
	return kept, suppressed
}

// fillSnippets sets each finding's normalized line text.
func fillSnippets(findings []Finding, src []byte) {
	if len(findings) == 0 {
		return
	}
	lines := bytes.Split(src, []byte("\n"))
	for i := range findings {
		if l := findings[i].Start.Line; l >= 1 && l <= len(lines) {
			findings[i].Snippet = strings.Join(strings.Fields(string(lines[l-1])), " ")
		}
	}
}

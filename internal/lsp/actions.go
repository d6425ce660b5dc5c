package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/suppress"
)

// current returns the document of u and its last check when the check ran
// on the document's present text; nil otherwise (positions could have
// moved).
func (s *server) current(u protocol.DocumentURI) (*document, *checked) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[u]
	if d == nil || d.last == nil || d.last.textSeq != d.textSeq {
		return nil, nil
	}
	return d, d.last
}

// hover shows, on a finding, the rule, the finding's message and the
// rule's documentation; nil elsewhere.
func (s *server) hover(p *hoverParams) *protocol.Hover {
	_, c := s.current(p.TextDocument.uri())
	if c == nil {
		return nil
	}
	off := c.index.offset(p.Position)
	var parts []string
	var rng *protocol.Range
	for i, f := range c.findings {
		start, end := c.index.span(f.Start, f.End)
		if off < start || off > end {
			continue
		}
		parts = append(parts, hoverText(f))
		if rng == nil {
			r := c.diags[i].Range
			rng = &r
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    rng,
	}
}

func hoverText(f engine.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s %s**\n\n%s\n\n", f.Rule.ID, f.Rule.Name, escapeMarkdown(f.Message))
	if doc := strings.TrimSpace(f.Rule.Doc); doc != "" {
		b.WriteString(doc)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "[%s documentation](%s)", f.Rule.ID, f.Rule.DocURL())
	return b.String()
}

// escapeMarkdown makes text show as written in Markdown: messages name
// code such as `axpy<float>` or `free_bytes`.
func escapeMarkdown(text string) string {
	var b strings.Builder
	for _, r := range text {
		if strings.ContainsRune("\\`*_[]<>|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codeActions offers, for the findings in the requested range, their
// suggested fixes and a comment that suppresses each one's rule on its
// line. Both are made against the text the findings were found in, and
// are only offered while the document still has that text.
func (s *server) codeActions(p *codeActionParams) []protocol.CodeAction {
	actions := []protocol.CodeAction{}
	if !wantsQuickFix(p.Context.Only) {
		return actions
	}
	d, c := s.current(p.TextDocument.uri())
	if c == nil {
		return actions
	}
	from, to := c.index.offset(p.Range.Start), c.index.offset(p.Range.End)
	type ruleLine struct {
		rule string
		line int
	}
	suppressed := map[ruleLine]bool{}
	for i, f := range c.findings {
		start, end := c.index.span(f.Start, f.End)
		if end < from || start > to {
			continue
		}
		diag := c.diags[i]
		for _, fix := range f.Fixes {
			title := fix.Message
			if title == "" {
				title = "Apply the suggested fix for " + f.Rule.ID
			}
			edits := make([]protocol.TextEdit, 0, len(fix.Edits))
			for _, e := range fix.Edits {
				edits = append(edits, protocol.TextEdit{Range: c.index.byteRange(e.Range), NewText: e.NewText})
			}
			actions = append(actions, protocol.CodeAction{
				Title:       title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{diag},
				IsPreferred: true,
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{d.uri: edits}},
			})
		}
		// LL000 reports a malformed suppression comment: it is mended,
		// not suppressed.
		key := ruleLine{f.Rule.ID, f.Start.Line}
		if f.Rule == suppress.Rule || suppressed[key] {
			continue
		}
		if title, edit, ok := suppressEdit(c.text, d.goFile, f.Rule, f.Start.Line, start); ok {
			suppressed[key] = true
			actions = append(actions, protocol.CodeAction{
				Title:       title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{diag},
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
					d.uri: {{Range: c.index.byteRange(edit.Range), NewText: edit.NewText}},
				}},
			})
		}
	}
	return actions
}

// wantsQuickFix reports whether a request limited to the kinds only admits
// quick fixes: a kind admits itself and its sub-kinds, and quickfix is a
// sub-kind of the empty kind only.
func wantsQuickFix(only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == "" || k == protocol.QuickFix {
			return true
		}
	}
	return false
}

package lsp

import (
	"os"
	"path/filepath"
	"sort"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
)

// textIndex converts between the engine's places in a text (byte offsets,
// and 1-based lines with columns counted in code points) and LSP positions
// (0-based lines, columns counted in UTF-16 code units, the encoding every
// client supports).
type textIndex struct {
	text   string
	starts []int                // byte offset of the start of each line
	lines  *cudaparse.LineIndex // the engine's own conversions
}

func newTextIndex(text string) *textIndex {
	starts := make([]int, 1, 64+len(text)/32)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &textIndex{text: text, starts: starts, lines: syntax.NewLineIndex([]byte(text))}
}

// lineEnd returns the offset of the end of 0-based line n, before its
// line break ("\n" or "\r\n").
func (x *textIndex) lineEnd(n int) int {
	start := x.starts[n]
	end := len(x.text)
	if n+1 < len(x.starts) {
		end = x.starts[n+1] - 1
	}
	if end > start && x.text[end-1] == '\r' {
		end--
	}
	return end
}

// utf16Len is the number of UTF-16 code units of r; an invalid byte
// (utf8.RuneError of width 1) counts as the one U+FFFD an editor shows.
func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// position returns the LSP position of byte offset off.
func (x *textIndex) position(off int) protocol.Position {
	off = min(max(off, 0), len(x.text))
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	units := 0
	for _, r := range x.text[x.starts[line]:off] {
		units += utf16Len(r)
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

// offset returns the byte offset of LSP position p. A character past the
// end of its line means the end of the line, a line past the end of the
// text the end of the text, and a position inside a surrogate pair the
// start of its character.
func (x *textIndex) offset(p protocol.Position) int {
	line := int(p.Line)
	if line >= len(x.starts) {
		return len(x.text)
	}
	start, end := x.starts[line], x.lineEnd(line)
	want := int(p.Character)
	units := 0
	for i, r := range x.text[start:end] {
		n := utf16Len(r)
		if units+n > want {
			return start + i
		}
		units += n
	}
	return end
}

// enginePos returns the byte offset of an engine position.
func (x *textIndex) enginePos(p cudaparse.Position) int { return x.lines.Offset(p) }

// span returns the byte offsets of the engine range from start to end.
func (x *textIndex) span(start, end cudaparse.Position) (int, int) {
	s, e := x.enginePos(start), x.enginePos(end)
	return s, max(s, e)
}

// lspRange returns the LSP range of the engine range from start to end.
func (x *textIndex) lspRange(start, end cudaparse.Position) protocol.Range {
	s, e := x.span(start, end)
	return protocol.Range{Start: x.position(s), End: x.position(e)}
}

// byteRange returns the LSP range of a byte range.
func (x *textIndex) byteRange(r cudaparse.Range) protocol.Range {
	return protocol.Range{Start: x.position(r.Start), End: x.position(max(r.Start, r.End))}
}

func severity(s rule.Severity) protocol.DiagnosticSeverity {
	switch s {
	case rule.Error:
		return protocol.DiagnosticSeverityError
	case rule.Warning:
		return protocol.DiagnosticSeverityWarning
	default:
		return protocol.DiagnosticSeverityInformation
	}
}

// source is the diagnostics' source, and marks the diagnostics of this
// server in a code action request.
const source = "lazylint"

// diagnose turns a check of d's text into diagnostics.
func (s *server) diagnose(d *document, text string, textSeq uint64, res engine.FileResult) *checked {
	x := newTextIndex(text)
	c := &checked{textSeq: textSeq, text: text, index: x, findings: res.Findings, diags: make([]protocol.Diagnostic, 0, len(res.Findings)+1)}
	others := map[string]*textIndex{} // related files other than d, by path
	for _, f := range res.Findings {
		c.diags = append(c.diags, diagnostic(d, x, f, others))
	}
	if res.Err != nil {
		c.diags = append(c.diags, protocol.Diagnostic{
			Severity: protocol.DiagnosticSeverityError,
			Source:   source,
			Message:  "lazylint could not check this file: " + res.Err.Message,
		})
	}
	return c
}

func diagnostic(d *document, x *textIndex, f engine.Finding, others map[string]*textIndex) protocol.Diagnostic {
	msg := f.Message
	if f.LowConfidence {
		msg += " [low confidence: the code around it did not parse cleanly]"
	}
	diag := protocol.Diagnostic{
		Range:           x.lspRange(f.Start, f.End),
		Severity:        severity(f.Severity),
		Code:            f.Rule.ID,
		CodeDescription: &protocol.CodeDescription{Href: protocol.URI(f.Rule.DocURL())},
		Source:          source,
		Message:         msg,
	}
	for _, r := range f.Related {
		loc := protocol.Location{URI: d.uri}
		rx := x
		if r.Path != "" && r.Path != f.Path {
			loc.URI, rx = relatedFile(d, f, r.Path, others)
		}
		loc.Range = rx.lspRange(r.Start, r.End)
		diag.RelatedInformation = append(diag.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: r.Message})
	}
	return diag
}

// relatedFile returns the URI and the text of a related location in
// another file than the finding's (no rule reports one today), read from
// disk; an unreadable file gives an empty text, so positions in it become
// its start.
func relatedFile(d *document, f engine.Finding, path string, others map[string]*textIndex) (protocol.DocumentURI, *textIndex) {
	if !filepath.IsAbs(path) {
		// f.Path is d.path relative to the run's base folder: path is
		// relative to the same folder.
		base := d.path
		for p := f.Path; p != "." && p != string(filepath.Separator) && p != ""; p = filepath.Dir(p) {
			base = filepath.Dir(base)
		}
		path = filepath.Join(base, path)
	}
	x := others[path]
	if x == nil {
		b, _ := os.ReadFile(path)
		x = newTextIndex(string(b))
		others[path] = x
	}
	return uri.File(path), x
}

package engine

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/lazylint/lazylint/analyzers"
	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// Go files that call CUDA through cgo are checked with the analyzers of
// package analyzers, the ones go vet and golangci-lint run. lazylint runs
// them syntax-only, one pass per folder: they re-parse the raw files and
// need no types, so a package that does not build here (no CUDA headers)
// is checked all the same.

// preambleSource returns a copy of a Go file's bytes in which everything
// but the C code of its cgo preambles (the comments before `import "C"`)
// is blanked, line breaks kept: the C rules then report positions in the
// .go file itself.
func preambleSource(fset *token.FileSet, f *ast.File, src []byte) ([]byte, bool) {
	out := make([]byte, len(src))
	for i, c := range src {
		if c == '\n' || c == '\r' {
			out[i] = c
		} else {
			out[i] = ' '
		}
	}
	found := false
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Doc == nil || gd.Tok != token.IMPORT {
			continue
		}
		isC := false
		for _, spec := range gd.Specs {
			if is, ok := spec.(*ast.ImportSpec); ok && is.Path.Value == `"C"` {
				isC = true
			}
		}
		if !isC {
			continue
		}
		for _, c := range gd.Doc.List {
			start := fset.Position(c.Pos()).Offset
			end := fset.Position(c.End()).Offset
			if start < 0 || end > len(src) || end-start < 2 {
				continue
			}
			body := start + 2 // after // or /*
			stop := end
			if src[start+1] == '*' && end-start >= 4 {
				stop = end - 2 // before */
			}
			copy(out[body:stop], src[body:stop])
			found = true
		}
	}
	return out, found
}

// importsC reports, with a byte search, whether Go source imports "C".
func importsC(src []byte) bool {
	return bytes.Contains(src, []byte(`"C"`)) && bytes.Contains(src, []byte("import"))
}

// goResult is what the cgo checks of Go files found.
type goResult struct {
	findings, suppressed []Finding
	errors               []FileError
	skipped              int // files not checked: unreadable, or not Go
}

// checkGo runs the analyzers over the cgo files among paths, grouped by
// folder, and the C rules over their preambles, each file under its own
// settings, and applies the files' suppression comments. read reads a file
// (the LSP server passes the editor's text for one of them).
func checkGo(paths []string, settingsFor func(string) Settings, base string, read func(string) ([]byte, error), opts Options) goResult {
	var res goResult
	type goFile struct {
		path, shown string
		src         []byte
		settings    Settings
	}
	dirs := map[string][]goFile{}
	for _, p := range paths {
		shown := relPath(base, p)
		src, err := read(p)
		if err != nil {
			res.errors = append(res.errors, FileError{Path: shown, Message: cleanErr(err).Error()})
			res.skipped++
			continue
		}
		if importsC(src) {
			dir := filepath.Dir(p)
			dirs[dir] = append(dirs[dir], goFile{path: p, shown: shown, src: src, settings: settingsFor(absPath(p))})
		}
	}
	dirNames := make([]string, 0, len(dirs))
	for d := range dirs {
		dirNames = append(dirNames, d)
	}
	sort.Strings(dirNames)
	for _, dir := range dirNames {
		files := dirs[dir]
		fset := token.NewFileSet()
		var parsed []*ast.File
		found := map[string][]Finding{} // by shown path
		byFilename := map[string]*goFile{}
		// An analyzer runs over the folder when one of its files enables
		// it; its findings are kept for the files that enable it.
		enabled := map[string]bool{}
		for i := range files {
			f := &files[i]
			byFilename[f.path] = f
			for _, r := range f.settings.Rules {
				enabled[r.ID] = true
			}
			af, err := parser.ParseFile(fset, f.path, f.src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				res.errors = append(res.errors, FileError{Path: f.shown, Message: "cannot parse: " + err.Error()})
				res.skipped++
				continue
			}
			parsed = append(parsed, af)
			// The preamble is C: the C/C++/CUDA rules check it too.
			if c, ok := preambleSource(fset, af, f.src); ok {
				checker := &Checker{Rules: f.settings.Rules, RuleOptions: f.settings.RuleOptions, LowConfidence: opts.LowConfidence, ParseLimit: opts.ParseLimit, MaxParseBytes: opts.MaxParseBytes, Additions: f.settings.Additions}
				out, err := checker.Check(f.shown, c)
				found[f.shown] = append(found[f.shown], out...)
				if err != nil {
					res.errors = append(res.errors, FileError{Path: f.shown, Message: "cgo preamble: " + err.Error()})
				}
			}
		}
		for _, a := range analyzers.All {
			if !enabled[a.Name] {
				continue
			}
			pass := &analysis.Pass{
				Analyzer: a,
				Fset:     fset,
				Files:    parsed,
				ReadFile: read,
				ResultOf: map[*analysis.Analyzer]any{},
				Report: func(d analysis.Diagnostic) {
					f := byFilename[fset.Position(d.Pos).Filename]
					if f == nil {
						return
					}
					for _, r := range f.settings.Rules {
						if r.ID == a.Name {
							found[f.shown] = append(found[f.shown], goFinding(fset, f.shown, f.src, r, d))
						}
					}
				},
			}
			if _, err := a.Run(pass); err != nil {
				res.errors = append(res.errors, FileError{Path: files[0].shown, Message: a.Name + ": " + err.Error()})
			}
		}
		for i := range files {
			f := &files[i]
			setSeverities(found[f.shown], &f.settings)
			kept, suppressed := suppressions(f.shown, rule.NewText(f.src), true, found[f.shown], opts.Catalog, f.settings.Rules, opts.ReportUnusedSuppressions)
			res.findings = append(res.findings, kept...)
			res.suppressed = append(res.suppressed, suppressed...)
		}
	}
	sort.Slice(res.errors, func(i, j int) bool { return res.errors[i].Path < res.errors[j].Path })
	return res
}

// goFinding turns a diagnostic in the file src into a finding; columns
// become characters, suggested fixes byte-offset edits.
func goFinding(fset *token.FileSet, shown string, src []byte, r *rule.Rule, d analysis.Diagnostic) Finding {
	lines := cudaparse.NewLineIndex(src)
	offset := func(p token.Pos) int { return min(max(fset.Position(p).Offset, 0), len(src)) }
	start := offset(d.Pos)
	end := start
	if d.End.IsValid() {
		end = offset(d.End)
	}
	msg := d.Message
	if len(msg) > len(r.ID)+1 && msg[:len(r.ID)+1] == r.ID+" " {
		msg = msg[len(r.ID)+1:] // the text output prints the ID itself
	}
	out := Finding{
		Finding:  rule.Finding{Rule: r, Message: msg, Range: cudaparse.Range{Start: start, End: end}},
		Path:     shown,
		Start:    lines.Position(start),
		End:      lines.Position(end),
		Severity: r.Severity,
	}
	for _, sf := range d.SuggestedFixes {
		fix := rule.Fix{Message: sf.Message}
		for _, e := range sf.TextEdits {
			to := offset(e.Pos)
			if e.End.IsValid() {
				to = offset(e.End)
			}
			fix.Edits = append(fix.Edits, rule.TextEdit{Range: cudaparse.Range{Start: offset(e.Pos), End: to}, NewText: string(e.NewText)})
		}
		out.Fixes = append(out.Fixes, fix)
	}
	return out
}

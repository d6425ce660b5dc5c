package engine

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/lazylint/lazylint/analyzers"
	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/rule"
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

// checkGo runs the enabled analyzers over the cgo files among paths,
// grouped by folder, and returns their findings and errors.
func checkGo(paths []string, rules []*rule.Rule, base string) ([]Finding, []FileError) {
	byID := map[string]*rule.Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	var enabled []*analysis.Analyzer
	for _, a := range analyzers.All {
		if byID[a.Name] != nil {
			enabled = append(enabled, a)
		}
	}
	if len(enabled) == 0 {
		return nil, nil
	}
	dirs := map[string][]string{}
	var errs []FileError
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, FileError{Path: relPath(base, p), Message: cleanErr(err).Error()})
			continue
		}
		if importsC(src) {
			dirs[filepath.Dir(p)] = append(dirs[filepath.Dir(p)], p)
		}
	}
	var out []Finding
	preambleChecker := &Checker{Rules: rules}
	for _, files := range dirs {
		fset := token.NewFileSet()
		var parsed []*ast.File
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				errs = append(errs, FileError{Path: relPath(base, p), Message: cleanErr(err).Error()})
				continue
			}
			f, err := parser.ParseFile(fset, p, src, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				errs = append(errs, FileError{Path: relPath(base, p), Message: "cannot parse: " + err.Error()})
				continue
			}
			parsed = append(parsed, f)
			// The preamble is C: the C/C++/CUDA rules check it too.
			if c, ok := preambleSource(fset, f, src); ok {
				found, err := preambleChecker.Check(relPath(base, p), c)
				out = append(out, found...)
				if err != nil {
					errs = append(errs, FileError{Path: relPath(base, p), Message: "cgo preamble: " + err.Error()})
				}
			}
		}
		for _, a := range enabled {
			pass := &analysis.Pass{
				Analyzer:   a,
				Fset:       fset,
				Files:      parsed,
				ReadFile:   os.ReadFile,
				ResultOf:   map[*analysis.Analyzer]any{},
				TypesInfo:  nil,
				TypesSizes: nil,
				Report: func(d analysis.Diagnostic) {
					out = append(out, goFinding(fset, base, byID[a.Name], d))
				},
			}
			if _, err := a.Run(pass); err != nil {
				errs = append(errs, FileError{Path: relPath(base, files[0]), Message: a.Name + ": " + err.Error()})
			}
		}
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].Path < errs[j].Path })
	return out, errs
}

// goFinding turns a diagnostic into a finding; columns become characters.
func goFinding(fset *token.FileSet, base string, r *rule.Rule, d analysis.Diagnostic) Finding {
	start := fset.Position(d.Pos)
	end := start
	if d.End.IsValid() {
		end = fset.Position(d.End)
	}
	path := relPath(base, start.Filename)
	msg := d.Message
	if len(msg) > len(r.ID)+1 && msg[:len(r.ID)+1] == r.ID+" " {
		msg = msg[len(r.ID)+1:] // the text output prints the ID itself
	}
	return Finding{
		Finding: rule.Finding{Rule: r, Message: msg},
		Path:    path,
		Start:   charPosition(start),
		End:     charPosition(end),
	}
}

// charPosition converts go/token's byte columns into character columns.
func charPosition(p token.Position) cudaparse.Position {
	src, err := os.ReadFile(p.Filename)
	if err != nil || p.Line < 1 {
		return cudaparse.Position{Line: p.Line, Column: p.Column}
	}
	lines := cudaparse.NewLineIndex(src)
	off := lines.Offset(cudaparse.Position{Line: p.Line, Column: 1}) + p.Column - 1
	return lines.Position(off)
}

package engine

import (
	"go/ast"
	"go/token"
	"os"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/lazylint/lazylint/analyzers"
	"github.com/lazylint/lazylint/analyzers/syntaxdriver"
	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/internal/rule"
)

// Go files that call CUDA through cgo, or through binding packages that
// do, are checked with the analyzers of package analyzers, the ones go vet
// and golangci-lint run. lazylint runs them syntax-only, package by
// package in import order (analyzers/syntaxdriver): they need no types, so
// a package that does not build here (no CUDA headers) is checked all the
// same, and the bindings' facts reach their callers as under go vet.

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

// goResult is what the cgo checks of Go files found.
type goResult struct {
	findings, suppressed []Finding
	errors               []FileError
	skipped              int // files not checked: unreadable, or not Go
}

// goFile is one Go file given to checkGo. Its text is read while its
// package is analyzed and again for its suppression comments, not held
// between: a tree's Go files were held all at once (their text and trees
// were the peak of eight copies of the corpus checked as one project).
type goFile struct {
	path, shown string
	settings    Settings
	hasSettings bool
}

// checkGo runs the analyzers over the Go packages among paths that call
// CUDA (through cgo, or through binding packages that do, in the tree or
// in a local module its go.mod or go.work names), in import order with
// the bindings' facts carried to their callers (analyzers/syntaxdriver),
// and the C rules over the cgo preambles, each file under its own
// settings; then it applies the files' suppression comments. read reads a
// file (the LSP server passes the editor's text for one of them).
func checkGo(paths []string, settingsFor func(string) Settings, base string, read func(string) ([]byte, error), opts Options) goResult {
	var res goResult
	byAbs, inputs := readGoFiles(paths, base, read, &res)
	prog := syntaxdriver.Load(inputs, syntaxdriver.Options{Read: func(p string) ([]byte, error) { return readGo(read, p) }, Known: analyzers.KnownBinding, Reread: true})
	found := map[string][]Finding{} // by shown path
	settings := func(f *goFile) *Settings {
		if !f.hasSettings {
			f.settings, f.hasSettings = settingsFor(absPath(f.path)), true
		}
		return &f.settings
	}
	// The files checked, and their preambles checked while their package
	// is analyzed (its trees are forgotten next).
	var checked []*goFile
	var preambleErrs []FileError
	prog.AfterPackage = func(pkg *syntaxdriver.Package) {
		if !pkg.Report {
			return
		}
		for _, sf := range pkg.Files {
			if f := byAbs[sf.Path]; f != nil {
				settings(f)
				checked = append(checked, f)
				if sf.Cgo {
					preambleErrs = append(preambleErrs, checkPreamble(prog.Fset, sf, f, found, opts)...)
				}
			}
		}
	}
	errs := prog.Run(analyzers.All, func(pkg *syntaxdriver.Package, a *analysis.Analyzer) bool {
		return enabledIn(pkg, a.Name, byAbs, settings)
	}, func(d syntaxdriver.Diagnostic) {
		name := prog.Fset.Position(d.Diagnostic.Pos).Filename
		f, sf := byAbs[name], sourceOf(d.Package, name)
		if f == nil || sf == nil {
			return
		}
		for _, r := range settings(f).Rules {
			if r.ID == d.Analyzer.Name {
				found[f.shown] = append(found[f.shown], goFinding(prog.Fset, f.shown, sf.Src, r, d.Diagnostic))
			}
		}
	})
	for _, e := range prog.Errors {
		if f := byAbs[e.Path]; f != nil {
			res.errors = append(res.errors, FileError{Path: f.shown, Message: "cannot parse: " + e.Err.Error()})
			res.skipped++
		}
	}
	for _, e := range errs {
		if f := firstFile(e.Package, byAbs); f != nil {
			res.errors = append(res.errors, FileError{Path: f.shown, Message: e.Analyzer.Name + ": " + e.Err.Error()})
		}
	}
	res.errors = append(res.errors, preambleErrs...)
	sort.Slice(checked, func(i, j int) bool { return checked[i].shown < checked[j].shown })
	for _, f := range checked {
		setSeverities(found[f.shown], &f.settings)
		src, err := readGo(read, f.path)
		if err != nil {
			res.errors = append(res.errors, FileError{Path: f.shown, Message: cleanErr(err).Error()})
			continue
		}
		kept, suppressed := suppressions(f.shown, rule.NewText(src), true, found[f.shown], opts.Catalog, f.settings.Rules, opts.ReportUnusedSuppressions)
		res.findings = append(res.findings, kept...)
		res.suppressed = append(res.suppressed, suppressed...)
	}
	sort.Slice(res.errors, func(i, j int) bool { return res.errors[i].Path < res.errors[j].Path })
	return res
}

// readGoFiles lists the Go files given, by absolute path; the ones that
// cannot be read are errors of res.
func readGoFiles(paths []string, base string, read func(string) ([]byte, error), res *goResult) (map[string]*goFile, []syntaxdriver.File) {
	byAbs := map[string]*goFile{}
	var inputs []syntaxdriver.File
	for _, p := range paths {
		shown := relPath(base, p)
		// Read to know it can be: its text is read again, a file at a
		// time, for its header and with its package.
		if _, err := read(p); err != nil {
			res.errors = append(res.errors, FileError{Path: shown, Message: cleanErr(err).Error()})
			res.skipped++
			continue
		}
		abs := absPath(p)
		byAbs[abs] = &goFile{path: p, shown: shown}
		inputs = append(inputs, syntaxdriver.File{Path: abs})
	}
	return byAbs, inputs
}

// sourceOf returns the file of pkg at path, or nil.
func sourceOf(pkg *syntaxdriver.Package, path string) *syntaxdriver.SourceFile {
	if pkg == nil {
		return nil
	}
	for _, sf := range pkg.Files {
		if sf.Path == path {
			return sf
		}
	}
	return nil
}

// firstFile is the first given file of a package, or nil.
func firstFile(pkg *syntaxdriver.Package, byAbs map[string]*goFile) *goFile {
	for _, sf := range pkg.Files {
		if f := byAbs[sf.Path]; f != nil {
			return f
		}
	}
	return nil
}

// readGo reads the files the driver asks for beyond those given: go.mod,
// go.work, and the .go files of imported packages of local modules.
func readGo(read func(string) ([]byte, error), p string) ([]byte, error) {
	if read == nil {
		return os.ReadFile(p)
	}
	return read(p)
}

// enabledIn reports whether one of the package's files enables the rule:
// an analyzer runs over a package when one of its files enables it, and
// its findings are kept for the files that enable it.
func enabledIn(pkg *syntaxdriver.Package, id string, byAbs map[string]*goFile, settings func(*goFile) *Settings) bool {
	for _, sf := range pkg.Files {
		if f := byAbs[sf.Path]; f != nil {
			for _, r := range settings(f).Rules {
				if r.ID == id {
					return true
				}
			}
		}
	}
	return false
}

// checkPreamble checks the C code of a cgo file's preamble with the C/C++/
// CUDA rules, positions in the .go file.
func checkPreamble(fset *token.FileSet, sf *syntaxdriver.SourceFile, f *goFile, found map[string][]Finding, opts Options) []FileError {
	c, ok := preambleSource(fset, sf.AST, sf.Src)
	if !ok {
		return nil
	}
	checker := &Checker{Rules: f.settings.Rules, RuleOptions: f.settings.RuleOptions, LowConfidence: opts.LowConfidence, ParseLimit: opts.ParseLimit, MaxParseBytes: opts.MaxParseBytes}
	out, err := checker.Check(f.shown, c)
	found[f.shown] = append(found[f.shown], out...)
	if err != nil {
		return []FileError{{Path: f.shown, Message: "cgo preamble: " + err.Error()}}
	}
	return nil
}

// goFinding turns a diagnostic in the file src into a finding; columns
// become characters, suggested fixes byte-offset edits.
func goFinding(fset *token.FileSet, shown string, src []byte, r *rule.Rule, d analysis.Diagnostic) Finding {
	lines := syntax.NewLineIndex(src)
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

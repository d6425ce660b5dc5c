package syntaxdriver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
	"github.com/lazylint/lazylint/analyzers/syntaxdriver"
)

// goFiles returns the .go files under dir.
func goFiles(t *testing.T, dir string) []syntaxdriver.File {
	t.Helper()
	var out []syntaxdriver.File
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		out = append(out, syntaxdriver.File{Path: path, Src: src})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// syntaxFindings runs the analyzers with the syntax driver over the files
// under dir: "file:line:col: message" lines, sorted.
func syntaxFindings(t *testing.T, dir string, as []*analysis.Analyzer) []string {
	t.Helper()
	prog := syntaxdriver.Load(goFiles(t, dir), syntaxdriver.Options{Known: analyzers.KnownBinding})
	for _, e := range prog.Errors {
		t.Errorf("%s: %v", e.Path, e.Err)
	}
	var out []string
	errs := prog.Run(as, nil, func(d syntaxdriver.Diagnostic) {
		out = append(out, position(prog.Fset.Position(d.Diagnostic.Pos).String(), d.Diagnostic.Message))
	})
	for _, err := range errs {
		t.Error(err)
	}
	sort.Strings(out)
	return out
}

func position(pos, msg string) string {
	return fmt.Sprintf("%s: %s", filepath.ToSlash(pos), msg)
}

// ignored is an analysistest.Testing that ignores the `// want`
// expectations of the other analyzers (each analyzer's own test checks
// its own) but not failures to load.
type ignored struct{ t *testing.T }

func (i ignored) Errorf(format string, args ...any) {
	if msg := fmt.Sprintf(format, args...); strings.Contains(msg, "loading") || strings.Contains(msg, "failed") {
		i.t.Error(msg)
	}
}

// typedFindings runs each analyzer under analysistest (go/packages, types,
// cgo's rewrites, facts through the checker: what go vet does) on pkgs.
func typedFindings(t *testing.T, dir string, as []*analysis.Analyzer, pkgs ...string) []string {
	t.Helper()
	var out []string
	for _, a := range as {
		for _, r := range analysistest.Run(ignored{t}, dir, a, pkgs...) {
			for _, d := range r.Diagnostics {
				out = append(out, position(r.Action.Package.Fset.Position(d.Pos).String(), d.Message))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestGoDriversAgree: on the binding fixture (a cgo binding module, a
// wrapper package and one main package per rule in another module),
// lazylint check's syntax-only driver reports exactly what the analyzers
// report under analysistest, which type-checks and carries facts as go
// vet does (TestGoBindings checks them against the fixture's `// want`
// comments).
func TestGoDriversAgree(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "testdata", "gobind"))
	if err != nil {
		t.Fatal(err)
	}
	typed := typedFindings(t, filepath.Join(root, "app"), analyzers.All, "example.com/app/...", "example.com/cubind")
	syntax := syntaxFindings(t, root, analyzers.All)
	if len(typed) == 0 || !reflect.DeepEqual(typed, syntax) {
		t.Errorf("analysistest:\n%s\nsyntax driver:\n%s", strings.Join(typed, "\n"), strings.Join(syntax, "\n"))
	}
}

// TestGoDriversAgreeOnCgoFixtures: the same on the one-package cgo
// fixtures of each rule.
func TestGoDriversAgreeOnCgoFixtures(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range analyzers.All {
		name := strings.ToLower(a.Name)
		t.Run(a.Name, func(t *testing.T) {
			typed := typedFindings(t, filepath.Dir(src), []*analysis.Analyzer{a}, name)
			syntax := syntaxFindings(t, filepath.Join(src, name), []*analysis.Analyzer{a})
			if len(typed) == 0 || !reflect.DeepEqual(typed, syntax) {
				t.Errorf("analysistest:\n%s\nsyntax driver:\n%s", strings.Join(typed, "\n"), strings.Join(syntax, "\n"))
			}
		})
	}
}

// TestGoOnlyCUDAImportersAnalyzed: a package that imports a cgo package
// calling no CUDA (a parser's C runtime) gets no facts from it and is not
// analyzed; an importer of a CUDA binding is, through a package in
// between, and one whose folder has no go.mod still gets its import path
// from the tree's imports.
func TestGoOnlyCUDAImportersAnalyzed(t *testing.T) {
	files := []syntaxdriver.File{
		{Path: "/tree/cparse/p.go", Src: []byte("package cparse\n\n// int parse(const char *s);\nimport \"C\"\n\nfunc Parse() { C.parse(nil) }\n")},
		{Path: "/tree/tool/t.go", Src: []byte("package tool\n\nimport \"example.org/tree/cparse\"\n\nfunc Run() { cparse.Parse() }\n")},
		{Path: "/tree/gpu/g.go", Src: []byte("package gpu\n\n// int cuInit(unsigned f);\nimport \"C\"\n\nfunc Init() { C.cuInit(0) }\n")},
		{Path: "/tree/mid/m.go", Src: []byte("package mid\n\nimport \"example.org/tree/gpu\"\n\nfunc Start() { gpu.Init() }\n")},
		{Path: "/tree/app/a.go", Src: []byte("package main\n\nimport \"example.org/tree/mid\"\n\nfunc main() { mid.Start() }\n")},
	}
	noDisk := func(string) ([]byte, error) { return nil, os.ErrNotExist }
	prog := syntaxdriver.Load(files, syntaxdriver.Options{Read: noDisk, Known: analyzers.KnownBinding})
	prog.Run(analyzers.All, nil, nil)
	got := map[string]bool{}
	for _, p := range prog.Packages {
		got[p.Path] = p.Analyzed
	}
	want := map[string]bool{
		"example.org/tree/cparse": true, "example.org/tree/tool": false,
		"example.org/tree/gpu": true, "example.org/tree/mid": true, "example.org/tree/app": true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("analyzed %v, want %v", got, want)
	}
}

// TestPackagesHeldOneAtATime: with Reread, a given file's text is read
// again (Read) when its package is analyzed; AfterPackage sees the
// package's texts and trees, and Run forgets them once it is done.
func TestPackagesHeldOneAtATime(t *testing.T) {
	texts := map[string]string{
		"/tree/gpu/g.go": "package gpu\n\n// int cuInit(unsigned f);\nimport \"C\"\n\nfunc Init() { C.cuInit(0) }\n",
		"/tree/app/a.go": "package main\n\nimport \"example.org/tree/gpu\"\n\nfunc main() { gpu.Init() }\n",
	}
	var files []syntaxdriver.File
	for _, p := range []string{"/tree/gpu/g.go", "/tree/app/a.go"} {
		files = append(files, syntaxdriver.File{Path: p, Src: []byte(texts[p])})
	}
	reads := map[string]int{}
	read := func(p string) ([]byte, error) {
		if text, ok := texts[p]; ok {
			reads[p]++
			return []byte(text), nil
		}
		return nil, os.ErrNotExist
	}
	prog := syntaxdriver.Load(files, syntaxdriver.Options{Read: read, Known: analyzers.KnownBinding, Reread: true})
	if len(reads) != 0 {
		t.Errorf("Load read %v: the texts were given", reads)
	}
	var seen []string
	prog.AfterPackage = func(pkg *syntaxdriver.Package) {
		for _, f := range pkg.Files {
			if f.Src == nil || f.AST == nil {
				t.Errorf("%s: no text or tree after its package's analysis", f.Path)
			}
			seen = append(seen, f.Path)
		}
	}
	prog.Run(analyzers.All, nil, nil)
	if want := []string{"/tree/gpu/g.go", "/tree/app/a.go"}; !reflect.DeepEqual(seen, want) {
		t.Errorf("AfterPackage saw %v, want %v (import order)", seen, want)
	}
	for _, p := range prog.Packages {
		for _, f := range p.Files {
			if f.Src != nil || f.AST != nil {
				t.Errorf("%s: text or tree kept after Run", f.Path)
			}
			if reads[f.Path] != 1 {
				t.Errorf("%s read %d times for its analysis, want 1", f.Path, reads[f.Path])
			}
		}
	}
}

// Package syntaxdriver runs go/analysis analyzers that need no type
// information (lazylint's: see analyzers/resolve.go) over the Go files of a
// tree, package by package in import order, with package facts carried
// from each package to its importers. It is lazylint check's driver: it
// type-checks nothing, so packages that do not build here (cgo without the
// CUDA headers) are checked all the same.
//
// Files are grouped into packages by folder and package clause; import
// paths come from go.mod, go.work and replace directives (modules.go), and
// imported packages of those modules outside the files given are read from
// disk for their facts only. Each package gets a types.Package stub (its
// path and name, its imports set) so that ImportPackageFact and
// ExportPackageFact work; object facts and TypesInfo are absent. Only
// packages that can matter are analyzed: those with a file that imports
// "C", that import a package the analyzers know by name
// (Options.Known), or that import such a package, transitively.
package syntaxdriver

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// File is one .go file to check. Load reads its header from Src (from
// Options.Read when Src is nil). With Options.Reread it forgets the text,
// and its package's analysis reads it again: a tree of thousands of Go
// files is then held one package at a time.
type File struct {
	Path string
	Src  []byte
}

// SourceFile is a file of a loaded package. Its Src and AST are set while
// the package is analyzed (and passed to Program.AfterPackage), nil once
// it is done.
type SourceFile struct {
	Path string
	Src  []byte
	AST  *ast.File
	// Cgo: the file imports "C".
	Cgo bool
}

// Package is a Go package of the tree.
type Package struct {
	Dir, Path, Name string
	// Files are the parsed files, once the package is analyzed.
	Files []*SourceFile
	// Report: the package's files were among those given (not read from
	// disk only for their facts).
	Report bool
	// Analyzed: Run analyzed the package (it uses cgo, or imports a
	// package with facts or one Options.Known names).
	Analyzed bool
	imports  []string
	types    *types.Package
	unit     *unit
	known    bool
}

// FileError is a file that could not be parsed.
type FileError struct {
	Path string
	Err  error
}

// Program is the packages that may need analysis, in dependency order:
// those that use cgo, and their importers, direct or not. Run analyzes
// those that use cgo and those that import a package with facts.
type Program struct {
	Fset     *token.FileSet
	Packages []*Package
	// Errors are the files of analyzed packages that do not parse.
	Errors []FileError
	// AfterPackage, when set, is called with each package Run analyzed,
	// its files' Src and AST still set; Run forgets them next.
	AfterPackage func(*Package)
	facts        map[factKey]any
	factPaths    map[string]bool // packages that exported a fact
	loader       *loader
}

// Options tune Load.
type Options struct {
	// Read reads a file from disk (go.mod, go.work, the files of imported
	// packages outside those given); os.ReadFile when nil.
	Read func(string) ([]byte, error)
	// ReadDir lists a folder; os.ReadDir when nil.
	ReadDir func(string) ([]os.DirEntry, error)
	// Known reports import paths the analyzers know without their source
	// (seeded facts of well-known bindings): importers of them are
	// analyzed.
	Known func(importPath string) bool
	// MaxPackages bounds the packages read from disk for their facts.
	MaxPackages int
	// Reread: the given files' Src is dropped once their header is read,
	// and read again (Read) when their package is analyzed.
	Reread bool
}

// unit is a package before parsing: its files' headers.
type unit struct {
	pkg     *Package
	headers []*header
	cgo     bool
}

type header struct {
	file    File
	name    string
	imports []string
	err     error
}

// Load groups files into packages, resolves their imports and orders the
// ones that may matter.
func Load(files []File, opts Options) *Program {
	if opts.Read == nil {
		opts.Read = os.ReadFile
	}
	if opts.ReadDir == nil {
		opts.ReadDir = os.ReadDir
	}
	if opts.MaxPackages == 0 {
		opts.MaxPackages = 500
	}
	l := &loader{opts: opts, mods: newModules(opts.Read), byPath: map[string]*unit{}, fset: token.NewFileSet()}
	units := l.group(files, true)
	l.assignPaths(units)
	l.readDependencies(units)
	prog := &Program{Fset: l.fset, facts: map[factKey]any{}, factPaths: map[string]bool{}, loader: l}
	for _, u := range l.order(l.relevant()) {
		u.pkg.unit = u
		for _, p := range u.pkg.imports {
			u.pkg.known = u.pkg.known || l.opts.Known != nil && l.opts.Known(p)
		}
		prog.Packages = append(prog.Packages, u.pkg)
	}
	return prog
}

// needed reports whether a package must be analyzed: it uses cgo, or
// imports a package that exported facts or that Options.Known names.
func (p *Program) needed(pkg *Package) bool {
	if pkg.unit.cgo || pkg.known {
		return true
	}
	for _, path := range pkg.unit.importsOf() {
		if p.factPaths[path] {
			return true
		}
	}
	return false
}

// load parses a package's files, once.
func (p *Program) load(pkg *Package) {
	if pkg.Files == nil {
		p.Errors = append(p.Errors, p.loader.parse(pkg.unit)...)
	}
}

type loader struct {
	opts   Options
	mods   *modules
	fset   *token.FileSet
	units  []*unit
	byPath map[string]*unit
}

// group parses the files' headers and groups them by folder and package
// name (a folder's external test package and `//go:build ignore` mains are
// packages of their own).
func (l *loader) group(files []File, report bool) []*unit {
	byKey := map[string]*unit{}
	var out []*unit
	for _, f := range files {
		if f.Src == nil {
			f.Src, _ = l.opts.Read(f.Path) // unreadable: an empty file, its error at parse
		}
		h := readHeader(f)
		if l.opts.Reread {
			h.file.Src = nil // read again with its package
		}
		dir := filepath.Dir(f.Path)
		key := dir + "\x00" + h.name
		u := byKey[key]
		if u == nil {
			u = &unit{pkg: &Package{Dir: dir, Name: h.name, Report: report}}
			byKey[key] = u
			out = append(out, u)
		}
		u.headers = append(u.headers, h)
		for _, p := range h.imports {
			u.cgo = u.cgo || p == "C"
		}
		// A file whose imports do not parse is checked (and its error
		// reported) when it seems to use cgo.
		u.cgo = u.cgo || h.err != nil && bytes.Contains(f.Src, []byte(`"C"`))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pkg.Dir != out[j].pkg.Dir {
			return out[i].pkg.Dir < out[j].pkg.Dir
		}
		return out[i].pkg.Name < out[j].pkg.Name
	})
	for _, u := range out {
		seen := map[string]bool{}
		for _, h := range u.headers {
			for _, p := range h.imports {
				if !seen[p] && p != "C" {
					seen[p] = true
					u.pkg.imports = append(u.pkg.imports, p)
				}
			}
		}
		sort.Strings(u.pkg.imports)
	}
	l.units = append(l.units, out...)
	return out
}

// readHeader parses a file's package clause and imports.
func readHeader(f File) *header {
	h := &header{file: f, name: "?"}
	af, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Src, parser.ImportsOnly)
	if err != nil || af == nil || af.Name == nil {
		h.err = err
		return h
	}
	h.name = af.Name.Name
	for _, imp := range af.Imports {
		if p, err := strconv.Unquote(imp.Path.Value); err == nil {
			h.imports = append(h.imports, p)
		}
	}
	return h
}

// assignPaths gives each package its import path: from its module, else
// inferred from the tree's imports, else its folder.
func (l *loader) assignPaths(units []*unit) {
	orphans := map[string]bool{}
	importsByDir := map[string][]string{}
	for _, u := range units {
		if p, ok := l.mods.importPath(u.pkg.Dir); ok {
			u.pkg.Path = p
			continue
		}
		orphans[u.pkg.Dir] = true
		importsByDir[u.pkg.Dir] = append(importsByDir[u.pkg.Dir], u.pkg.imports...)
	}
	inferred := inferPaths(orphans, importsByDir)
	for _, u := range units {
		if u.pkg.Path == "" {
			u.pkg.Path = inferred[u.pkg.Dir]
		}
		if u.pkg.Path == "" {
			u.pkg.Path = filepath.ToSlash(u.pkg.Dir)
		}
	}
	// The folder's main package of a `//go:build ignore` file, or its
	// external tests, do not take the folder's import path.
	byDir := map[string][]*unit{}
	for _, u := range units {
		byDir[u.pkg.Dir] = append(byDir[u.pkg.Dir], u)
	}
	for _, us := range byDir {
		l.nameUnits(us)
	}
}

// nameUnits keeps the folder's import path for its main package (the one
// with most files, not an external test) and gives the others their own.
func (l *loader) nameUnits(us []*unit) {
	var main *unit
	for _, u := range us {
		if strings.HasSuffix(u.pkg.Name, "_test") {
			continue
		}
		if main == nil || len(u.headers) > len(main.headers) {
			main = u
		}
	}
	for _, u := range us {
		if u != main {
			u.pkg.Path += "#" + u.pkg.Name
		}
		if _, dup := l.byPath[u.pkg.Path]; !dup {
			l.byPath[u.pkg.Path] = u
		}
	}
}

// readDependencies reads, for their facts, the packages the given ones
// import that lie in a known module but were not given.
func (l *loader) readDependencies(units []*unit) {
	queue := append([]*unit(nil), units...)
	read := 0
	for len(queue) > 0 && read < l.opts.MaxPackages {
		u := queue[0]
		queue = queue[1:]
		for _, p := range u.pkg.imports {
			if _, ok := l.byPath[p]; ok {
				continue
			}
			dir := l.mods.dirOf(p)
			if dir == "" {
				l.byPath[p] = nil // not in the tree: seeds or nothing
				continue
			}
			deps := l.readFolder(dir, p)
			read++
			queue = append(queue, deps...)
		}
	}
}

// readFolder reads the non-test .go files of a folder as the package p.
func (l *loader) readFolder(dir, p string) []*unit {
	entries, err := l.opts.ReadDir(dir)
	if err != nil {
		l.byPath[p] = nil
		return nil
	}
	var files []File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		path := filepath.Join(dir, name)
		if src, err := l.opts.Read(path); err == nil {
			files = append(files, File{Path: path, Src: src})
		}
	}
	us := l.group(files, false)
	l.byPath[p] = nil
	for _, u := range us {
		u.pkg.Path = p
		if strings.HasSuffix(u.pkg.Name, "_test") || u.pkg.Name == "main" && len(us) > 1 {
			u.pkg.Path += "#" + u.pkg.Name
		}
		if l.byPath[u.pkg.Path] == nil {
			l.byPath[u.pkg.Path] = u
		}
	}
	return us
}

// relevant returns the units that can matter: cgo, importers of known
// bindings, and their importers, transitively.
func (l *loader) relevant() []*unit {
	on := map[*unit]bool{}
	for _, u := range l.units {
		on[u] = u.cgo
		for _, p := range u.pkg.imports {
			if l.opts.Known != nil && l.opts.Known(p) {
				on[u] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, u := range l.units {
			if on[u] {
				continue
			}
			for _, p := range u.importsOf() {
				if d := l.byPath[p]; d != nil && on[d] {
					on[u], changed = true, true
					break
				}
			}
		}
	}
	var out []*unit
	for _, u := range l.units {
		if on[u] {
			out = append(out, u)
		}
	}
	return out
}

// importsOf lists a unit's imports; an external test package also depends
// on the package it tests.
func (u *unit) importsOf() []string {
	if strings.HasSuffix(u.pkg.Name, "_test") {
		base := u.pkg.Path[:strings.LastIndexByte(u.pkg.Path, '#')]
		return append([]string{base}, u.pkg.imports...)
	}
	return u.pkg.imports
}

// order sorts units so that each comes after the units it imports
// (a cycle, which build tags can make, is broken where it is met).
func (l *loader) order(units []*unit) []*unit {
	in := map[*unit]bool{}
	for _, u := range units {
		in[u] = true
	}
	state := map[*unit]int{} // 1 visiting, 2 done
	var out []*unit
	var visit func(u *unit)
	visit = func(u *unit) {
		if state[u] != 0 {
			return
		}
		state[u] = 1
		for _, p := range u.importsOf() {
			if d := l.byPath[p]; d != nil && in[d] {
				visit(d)
			}
		}
		state[u] = 2
		out = append(out, u)
	}
	for _, u := range units {
		visit(u)
	}
	return out
}

// parse parses a unit's files in full.
func (l *loader) parse(u *unit) []FileError {
	var errs []FileError
	for _, h := range u.headers {
		src := h.file.Src
		if src == nil {
			var err error
			if src, err = l.opts.Read(h.file.Path); err != nil {
				if u.pkg.Report {
					errs = append(errs, FileError{Path: h.file.Path, Err: err})
				}
				continue
			}
		}
		af, err := parser.ParseFile(l.fset, h.file.Path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			if u.pkg.Report {
				errs = append(errs, FileError{Path: h.file.Path, Err: err})
			}
			continue
		}
		cgo := false
		for _, imp := range af.Imports {
			cgo = cgo || imp.Path.Value == `"C"`
		}
		u.pkg.Files = append(u.pkg.Files, &SourceFile{Path: h.file.Path, Src: src, AST: af, Cgo: cgo})
	}
	return errs
}

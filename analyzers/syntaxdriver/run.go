package syntaxdriver

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"sort"

	"golang.org/x/tools/go/analysis"
)

// factKey is a package fact's package path and type.
type factKey struct {
	path string
	typ  reflect.Type
}

// Diagnostic is a diagnostic of one analyzer in one package.
type Diagnostic struct {
	Package    *Package
	Analyzer   *analysis.Analyzer
	Diagnostic analysis.Diagnostic
}

// RunError is an analyzer's error on a package.
type RunError struct {
	Package  *Package
	Analyzer *analysis.Analyzer
	Err      error
}

func (e RunError) Error() string {
	return e.Package.Path + ": " + e.Analyzer.Name + ": " + e.Err.Error()
}

// Run runs the analyzers (and those they require) over the packages that
// need it, in order (see Program). enabled says whether an analyzer's diagnostics are wanted for a
// package (nil: all of them); analyzers that export facts run everywhere.
// Diagnostics of packages read only for their facts are dropped.
func (p *Program) Run(analyzers []*analysis.Analyzer, enabled func(*Package, *analysis.Analyzer) bool, report func(Diagnostic)) []RunError {
	var errs []RunError
	order := requiredFirst(analyzers)
	byPath := map[string]*Package{}
	for _, q := range p.Packages {
		byPath[q.Path] = q
	}
	for _, pkg := range p.Packages {
		if !p.needed(pkg) {
			continue // no CUDA reaches it: nothing to judge, no facts to give
		}
		p.load(pkg)
		pkg.Analyzed = true
		pkg.types = stub(pkg, byPath)
		results := map[*analysis.Analyzer]any{}
		for _, a := range order {
			wanted := pkg.Report && (enabled == nil || enabled(pkg, a)) && contains(analyzers, a)
			if !wanted && len(a.FactTypes) == 0 && !requiredByWanted(a, analyzers, pkg, enabled) {
				continue
			}
			res, err := a.Run(p.pass(pkg, a, results, wanted, report))
			if err != nil {
				errs = append(errs, RunError{Package: pkg, Analyzer: a, Err: err})
				continue
			}
			results[a] = res
		}
		if p.AfterPackage != nil {
			p.AfterPackage(pkg)
		}
		// Done: its facts are exported, its diagnostics reported. The
		// trees and texts of a large tree's packages are not all held.
		for _, f := range pkg.Files {
			f.Src, f.AST = nil, nil
		}
	}
	return errs
}

// pass builds the pass of analyzer a over pkg.
func (p *Program) pass(pkg *Package, a *analysis.Analyzer, results map[*analysis.Analyzer]any, wanted bool, report func(Diagnostic)) *analysis.Pass {
	files := make([]*ast.File, len(pkg.Files))
	for i, f := range pkg.Files {
		files[i] = f.AST
	}
	srcs := map[string][]byte{}
	for _, f := range pkg.Files {
		srcs[f.Path] = f.Src
	}
	return &analysis.Pass{
		Analyzer: a,
		Fset:     p.Fset,
		Files:    files,
		Pkg:      pkg.types,
		ResultOf: results,
		ReadFile: func(name string) ([]byte, error) {
			if src, ok := srcs[name]; ok {
				return src, nil
			}
			return nil, fmt.Errorf("%s is not a file of package %s", name, pkg.Path)
		},
		Report: func(d analysis.Diagnostic) {
			if wanted && report != nil {
				report(Diagnostic{Package: pkg, Analyzer: a, Diagnostic: d})
			}
		},
		ImportPackageFact: func(of *types.Package, fact analysis.Fact) bool {
			v, ok := p.facts[factKey{of.Path(), reflect.TypeOf(fact)}]
			if ok {
				reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(v).Elem())
			}
			return ok
		},
		ExportPackageFact: func(fact analysis.Fact) {
			p.facts[factKey{pkg.Path, reflect.TypeOf(fact)}] = fact
			p.factPaths[pkg.Path] = true
		},
		ImportObjectFact: func(types.Object, analysis.Fact) bool { return false },
		ExportObjectFact: func(types.Object, analysis.Fact) {},
		AllPackageFacts:  func() []analysis.PackageFact { return nil },
		AllObjectFacts:   func() []analysis.ObjectFact { return nil },
		TypesSizes:       types.SizesFor("gc", "amd64"),
	}
}

// stub is the package's types.Package: its path and name, and stubs of
// every package it imports (those of the tree, which carry facts, and
// the others by path).
func stub(pkg *Package, byPath map[string]*Package) *types.Package {
	t := types.NewPackage(pkg.Path, pkg.Name)
	var imports []*types.Package
	for _, path := range pkg.imports {
		if q := byPath[path]; q != nil && q.types != nil {
			imports = append(imports, q.types)
		} else {
			imports = append(imports, types.NewPackage(path, ""))
		}
	}
	sort.Slice(imports, func(i, j int) bool { return imports[i].Path() < imports[j].Path() })
	t.SetImports(imports)
	t.MarkComplete()
	return t
}

// requiredFirst lists the analyzers and those they require, each after
// its requirements.
func requiredFirst(as []*analysis.Analyzer) []*analysis.Analyzer {
	seen := map[*analysis.Analyzer]bool{}
	var out []*analysis.Analyzer
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, r := range a.Requires {
			visit(r)
		}
		out = append(out, a)
	}
	for _, a := range as {
		visit(a)
	}
	return out
}

func contains(as []*analysis.Analyzer, a *analysis.Analyzer) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// requiredByWanted reports whether an analyzer wanted on pkg requires a.
func requiredByWanted(a *analysis.Analyzer, as []*analysis.Analyzer, pkg *Package, enabled func(*Package, *analysis.Analyzer) bool) bool {
	for _, x := range as {
		if !pkg.Report || enabled != nil && !enabled(pkg, x) {
			continue
		}
		for _, r := range requiredFirst([]*analysis.Analyzer{x}) {
			if r == a {
				return true
			}
		}
	}
	return false
}

package analyzers

// seeds are the facts of well-known binding packages, used when the
// package itself was not analyzed: lazylint check of a project whose
// binding lives in the module cache, not in the tree. go vet and
// golangci-lint analyze the binding from source, so a seed never overrides
// a fact computed from the code.
var seeds = map[string]*BindingFact{}

// KnownBinding reports whether the analyzers know the package at an import
// path without its source (a seed): drivers that choose which packages to
// analyze analyze its importers.
func KnownBinding(path string) bool {
	_, ok := seeds[path]
	return ok
}

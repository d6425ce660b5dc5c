package analyzers_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
)

// gobind returns the app module of the fixture of calls through a binding
// package: the binding (module example.com/cubind, cgo) and its callers
// (module example.com/app, which requires the binding through a replace).
func gobind(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "gobind", "app"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGoBindings runs each rule on its package of the gobind fixture: the
// hazards reach CUDA only through the binding and a wrapper package, in
// another module.
func TestGoBindings(t *testing.T) {
	dir := gobind(t)
	for _, a := range analyzers.All {
		t.Run(a.Name, func(t *testing.T) {
			pkgs := []string{"example.com/app/" + strings.ToLower(a.Name)}
			if a == analyzers.LL006 {
				pkgs = append(pkgs, "example.com/cubind") // the binding's own query
			}
			analysistest.Run(t, dir, a, pkgs...)
		})
	}
}

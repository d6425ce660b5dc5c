// Package repotest finds lazylint's repository from a test, for tests that
// build its commands or read its files.
package repotest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Root returns the repository's root: the nearest folder above the test's
// working folder whose go.mod declares lazylint's module.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(mod, []byte("module github.com/lazylint/lazylint\n")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("not inside lazylint's repository")
		}
		dir = parent
	}
}

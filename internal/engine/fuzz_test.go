package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/rules"
)

// FuzzRules runs every rule, with low-confidence findings kept, on
// arbitrary bytes: a rule may find nothing, but must not panic (the engine
// would turn a panic into an "internal error" for the file, which fails
// here) and must report inside the file.
func FuzzRules(f *testing.F) {
	for _, pattern := range []string{"../../rules/*/testdata/*", "../../testdata/gpu/*.cu"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	checker := &engine.Checker{Rules: rules.All, LowConfidence: true}
	f.Fuzz(func(t *testing.T, src []byte) {
		findings, err := checker.Check("fuzz.cu", src)
		if err != nil && !isExpected(err.Error()) {
			t.Fatalf("%v", err)
		}
		for _, fd := range findings {
			if fd.Range.Start < 0 || fd.Range.End < fd.Range.Start || fd.Range.End > len(src) || fd.Start.Line < 1 {
				t.Fatalf("%s finding outside the file: %+v", fd.Rule.ID, fd)
			}
			for _, fix := range fd.Fixes {
				for _, e := range fix.Edits {
					if e.Range.Start < 0 || e.Range.End < e.Range.Start || e.Range.End > len(src) {
						t.Fatalf("%s fix edit outside the file: %+v", fd.Rule.ID, e)
					}
				}
			}
		}
	})
}

// isExpected tells a file's normal errors (binary, parse limit) from an
// internal error.
func isExpected(msg string) bool {
	for _, s := range []string{"binary file", "not checked:"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

// withoutPrefilters returns copies of rs whose prefilters always say yes.
func withoutPrefilters(rs []*rule.Rule) []*rule.Rule {
	out := make([]*rule.Rule, len(rs))
	for i, r := range rs {
		always := *r
		always.Prefilter = func(*rule.Text) bool { return true }
		out[i] = &always
	}
	return out
}

// show lists findings one per line: rule, position, message.
func show(fs []engine.Finding) string {
	var b strings.Builder
	for _, fd := range fs {
		fmt.Fprintf(&b, "%s %d:%d %s\n", fd.Rule.ID, fd.Start.Line, fd.Start.Column, fd.Message)
	}
	return b.String()
}

// FuzzRules runs every rule, with low-confidence findings kept, on
// arbitrary bytes: a rule may find nothing, but must not panic (the engine
// would turn a panic into an "internal error" for the file, which fails
// here) and must report inside the file. Its prefilter must not hide a
// finding: the rules run with every prefilter answering yes find the same.
// The seeds (every fixture, project fixtures included, the GPU programs and
// the examples) run as a test in every `go test`.
func FuzzRules(f *testing.F) {
	for _, root := range []string{"../../rules", "../../testdata/gpu", "../../testdata/measure", "../../examples"} {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && cudaparse.IsSource(p) && !strings.HasSuffix(p, ".go") {
				if src, err := os.ReadFile(p); err == nil {
					f.Add(src)
				}
			}
			return nil
		})
	}
	checker := &engine.Checker{Rules: rules.All, LowConfidence: true}
	unfiltered := &engine.Checker{Rules: withoutPrefilters(rules.All), LowConfidence: true}
	f.Fuzz(func(t *testing.T, src []byte) {
		findings, err := checker.Check("fuzz.cu", src)
		if err != nil && !isExpected(err.Error()) {
			t.Fatalf("%v", err)
		}
		if err == nil {
			all, err := unfiltered.Check("fuzz.cu", src)
			if err == nil {
				if got, want := show(findings), show(all); got != want {
					t.Fatalf("a prefilter hides findings:\nwith prefilters:\n%s\nwithout:\n%s", got, want)
				}
			}
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

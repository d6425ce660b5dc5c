package analyzers_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
	"github.com/lazylint/lazylint/rules"
)

// TestMetadataFromRules fails when an analyzer's name, doc, URL or options
// drift from its rule's metadata (rules_gen.go is generated from it;
// internal/gen's TestGenerated fails when that file is stale).
func TestMetadataFromRules(t *testing.T) {
	for _, a := range analyzers.All {
		var found bool
		for _, r := range rules.All {
			if r.ID != a.Name {
				continue
			}
			found = true
			if head := r.ID + " " + r.Name + ": " + r.Summary; !strings.HasPrefix(a.Doc, head) {
				t.Errorf("%s: Doc starts %q, want %q", a.Name, firstLine(a.Doc), head)
			}
			if a.URL != r.DocURL() {
				t.Errorf("%s: URL %q, want %q", a.Name, a.URL, r.DocURL())
			}
			for _, o := range r.Options {
				f := a.Flags.Lookup(o.Name)
				if f == nil || f.DefValue != o.Default {
					t.Errorf("%s: flag -%s missing or with another default than the rule's %q", a.Name, o.Name, o.Default)
				}
			}
		}
		if !found {
			t.Errorf("analyzer %s names no rule", a.Name)
		}
	}
}

// TestThresholdFlag: the rule's option set as the analyzer's flag changes
// what is reported (a 75% allocation is below LL001's default of 0.9).
func TestThresholdFlag(t *testing.T) {
	if err := analyzers.LL001.Flags.Set("threshold", "0.7"); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = analyzers.LL001.Flags.Set("threshold", analyzers.LL001.Flags.Lookup("threshold").DefValue) }()
	analysistest.Run(t, analysistest.TestData(), analyzers.LL001, "ll001flag")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

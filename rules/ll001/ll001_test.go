package ll001_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll001"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll001.Rule) }

// Projects of several files: CUDA calls spelled through a project header's
// macros (aliases, token pasting, an include cycle).
func TestProjects(t *testing.T) {
	positives, negatives := ruletest.RunProjects(t, ll001.Rule, "testdata/project")
	if positives < 2 || negatives < 2 {
		t.Errorf("%d positive and %d negative cases; want at least 2 of each", positives, negatives)
	}
}

package ll003_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll003"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll003.Rule) }

// TestProjects runs LL003 on multi-file fixtures: access macros defined in
// a project header.
func TestProjects(t *testing.T) {
	positives, negatives := ruletest.RunProjects(t, ll003.Rule, "testdata/project")
	if positives < 2 || negatives < 1 {
		t.Errorf("%d positive and %d negative cases; want at least 2 and 1", positives, negatives)
	}
}

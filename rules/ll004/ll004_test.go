package ll004_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll004"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll004.Rule) }

// Projects of several files: driver calls spelled through a header's
// macros.
func TestProjects(t *testing.T) {
	positives, negatives := ruletest.RunProjects(t, ll004.Rule, "testdata/project")
	if positives < 1 || negatives < 1 {
		t.Errorf("%d positive and %d negative cases; want at least 1 of each", positives, negatives)
	}
}

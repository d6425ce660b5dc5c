package ll005_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll005"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestFixtures(t *testing.T) {
	positives, negatives := ruletest.Run(t, ll005.Rule, "testdata")
	if positives < 10 || negatives < 10 {
		t.Errorf("%d positive and %d negative cases; want at least 10 of each", positives, negatives)
	}
}

func TestDocExamples(t *testing.T) { ruletest.DocExamples(t, ll005.Rule) }

package ll001_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll001"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestFixtures(t *testing.T) {
	positives, negatives := ruletest.Run(t, ll001.Rule, "testdata")
	if positives < 12 || negatives < 12 {
		t.Errorf("%d positive and %d negative cases; want at least 12 of each", positives, negatives)
	}
}

func TestDocExamples(t *testing.T) { ruletest.DocExamples(t, ll001.Rule) }

package ll007_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll007"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestFixtures(t *testing.T) {
	positives, negatives := ruletest.Run(t, ll007.Rule, "testdata")
	if positives < 10 || negatives < 10 {
		t.Errorf("%d positive and %d negative cases; want at least 10 of each", positives, negatives)
	}
}

func TestDocExamples(t *testing.T) { ruletest.DocExamples(t, ll007.Rule) }

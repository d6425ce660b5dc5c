package ll004_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll004"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestFixtures(t *testing.T) {
	positives, negatives := ruletest.Run(t, ll004.Rule, "testdata")
	if positives < 10 || negatives < 10 {
		t.Errorf("%d positive and %d negative cases; want at least 10 of each", positives, negatives)
	}
}

func TestDocExamples(t *testing.T) { ruletest.DocExamples(t, ll004.Rule) }

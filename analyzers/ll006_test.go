package analyzers_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
)

func TestLL006(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), analyzers.LL006, "ll006")
}

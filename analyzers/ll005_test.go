package analyzers_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
)

func TestLL005(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzers.LL005, "ll005")
}

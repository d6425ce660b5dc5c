package analyzers_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
)

func TestLL001(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), analyzers.LL001, "ll001")
}

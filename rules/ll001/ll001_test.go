package ll001_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll001"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll001.Rule) }

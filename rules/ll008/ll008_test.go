package ll008_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll008"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll008.Rule) }

package ll007_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll007"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll007.Rule) }

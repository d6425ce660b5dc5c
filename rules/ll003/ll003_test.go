package ll003_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll003"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll003.Rule) }

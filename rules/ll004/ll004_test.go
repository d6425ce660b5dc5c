package ll004_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll004"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll004.Rule) }

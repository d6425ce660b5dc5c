package ll005_test

import (
	"testing"

	"github.com/lazylint/lazylint/rules/ll005"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll005.Rule) }

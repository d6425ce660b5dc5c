package rules

import (
	"github.com/lazylint/lazylint/rule"
	"github.com/lazylint/lazylint/rules/ll001"
)

var All = []*rule.Rule{ll001.Rule}

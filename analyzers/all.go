package analyzers

import "golang.org/x/tools/go/analysis"

// All is every analyzer, in rule order. LL001, LL002 and LL004 for Go code
// come next (issue 4); these two are the first.
var All = []*analysis.Analyzer{LL006, LL007}

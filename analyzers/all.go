package analyzers

import "golang.org/x/tools/go/analysis"

// All is every analyzer, in rule order. LL001 for Go code comes next
// (issue 4).
var All = []*analysis.Analyzer{LL002, LL004, LL006, LL007}

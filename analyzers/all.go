package analyzers

import "golang.org/x/tools/go/analysis"

// All is every analyzer for Go code, in rule order: the rules that apply to
// cgo callers.
var All = []*analysis.Analyzer{LL001, LL002, LL004, LL005, LL006, LL007}

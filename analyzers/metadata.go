package analyzers

import (
	"fmt"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// ruleMetadata is what an analyzer takes from its rule's metadata
// (rules_gen.go, generated from the rules themselves).
type ruleMetadata struct {
	Name, Summary, URL string
	Options            []ruleOption
}

// ruleOption is a rule option with its default.
type ruleOption struct {
	Name, Default, Doc string
}

// newAnalyzer returns the analyzer of rule id for cgo callers: its doc and
// URL are the rule's, and the rule's options are its flags, with the
// rule's defaults (`go vet -vettool=lazylint-vet -LL001.threshold=0.8`).
func newAnalyzer(id, doc string, run func(*analysis.Pass) (any, error)) *analysis.Analyzer {
	meta, ok := rules[id]
	if !ok {
		panic("analyzers: no rule " + id)
	}
	a := &analysis.Analyzer{
		Name:             id,
		Doc:              id + " " + meta.Name + ": " + meta.Summary + "\n\n" + doc,
		URL:              meta.URL,
		Run:              run,
		RunDespiteErrors: true,
		Requires:         []*analysis.Analyzer{Bindings},
	}
	for _, o := range meta.Options {
		a.Flags.String(o.Name, o.Default, o.Doc)
	}
	return a
}

// floatFlag returns a numeric option of the analyzer; a value that does not
// parse is an error naming the flag (go vet prints it and stops).
func floatFlag(a *analysis.Analyzer, name string) (float64, error) {
	f := a.Flags.Lookup(name)
	if f == nil {
		panic("analyzers: " + a.Name + " has no option " + name)
	}
	v, err := strconv.ParseFloat(f.Value.String(), 64)
	if err != nil {
		return 0, fmt.Errorf("-%s.%s wants a number, not %q", a.Name, name, f.Value.String())
	}
	return v, nil
}

// Package golangci is lazylint's golangci-lint v2 module plugin: it
// registers the analyzers for Go code that calls CUDA through cgo under the
// linter name "lazylint". It imports only analyzers (no tree-sitter, no
// cgo), so golangci-lint's custom build can link it. See README.md for the
// .custom-gcl.yml and .golangci.yml snippets.
package golangci

import (
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/lazylint/lazylint/analyzers"
)

// Name is the linter name to enable in .golangci.yml.
const Name = "lazylint"

func init() { register.Plugin(Name, New) }

// Settings are the plugin's settings in .golangci.yml (none yet; unknown
// keys are an error, so a typo does not pass silently).
type Settings struct{}

type plugin struct{}

// New builds the plugin from its settings.
func New(settings any) (register.LinterPlugin, error) {
	if _, err := register.DecodeSettings[Settings](settings); err != nil {
		return nil, err
	}
	return &plugin{}, nil
}

// BuildAnalyzers returns lazylint's analyzers, their messages without the
// leading rule ID: golangci-lint already prints the analyzer's name (the
// ID) before a plugin's message, and go vet, which does not, keeps it.
func (*plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	out := make([]*analysis.Analyzer, len(analyzers.All))
	for i, a := range analyzers.All {
		out[i] = withoutIDPrefix(a)
	}
	return out, nil
}

// withoutIDPrefix is a copy of a whose diagnostics do not start with
// a.Name.
func withoutIDPrefix(a *analysis.Analyzer) *analysis.Analyzer {
	b := *a
	b.Run = func(pass *analysis.Pass) (any, error) {
		p := *pass
		p.Report = func(d analysis.Diagnostic) {
			d.Message = strings.TrimPrefix(d.Message, a.Name+" ")
			pass.Report(d)
		}
		return a.Run(&p)
	}
	return &b
}

// GetLoadMode asks for types: the analyzers need no type information (they
// re-parse the raw cgo files and resolve calls by name), but golangci-lint
// gives a pass its types.Package, which package facts (what a binding
// package's functions do, for their callers in other packages) are keyed
// by, only when it type-checks. Like go vet, it then needs the CUDA headers
// (or lazylint cgo-headers) for packages that include them.
func (*plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

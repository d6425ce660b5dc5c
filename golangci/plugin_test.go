package golangci_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/lazylint/lazylint/analyzers"
	_ "github.com/lazylint/lazylint/golangci"
)

// TestPlugin registers the plugin as golangci-lint does and runs the
// analyzers it builds on the analyzers' fixtures.
func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("lazylint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newPlugin(map[string]any{"unknown": 1}); err == nil {
		t.Error("unknown settings accepted")
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs(filepath.Join("..", "analyzers", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	if len(as) == 0 {
		t.Fatal("no analyzers")
	}
	for i, a := range as {
		t.Run(a.Name, func(t *testing.T) {
			// The fixtures' expectations start with the ID, as go vet
			// prints it; the plugin's diagnostics must be the same ones
			// without it, since golangci-lint prints the analyzer's name
			// before them ("LL006: LL006 ..." otherwise).
			original := diagnostics(analysistest.Run(t, testdata, analyzers.All[i], strings.ToLower(a.Name)))
			plugin := diagnostics(analysistest.Run(ignored{}, testdata, a, strings.ToLower(a.Name)))
			if len(original) == 0 || len(plugin) != len(original) {
				t.Fatalf("%d diagnostics from the plugin, %d from the analyzer", len(plugin), len(original))
			}
			for k, d := range plugin {
				if strings.HasPrefix(d.Message, a.Name) || a.Name+" "+d.Message != original[k].Message || d.Category != a.Name {
					t.Errorf("plugin diagnostic %q (category %q) for %q", d.Message, d.Category, original[k].Message)
				}
			}
		})
	}
}

// TestPluginBindings runs the plugin's analyzers on the binding fixture:
// the facts of the binding module reach the application's packages, and
// the plugin reports what the analyzers report, without the ID.
func TestPluginBindings(t *testing.T) {
	newPlugin, err := register.GetPlugin("lazylint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	app, err := filepath.Abs(filepath.Join("..", "analyzers", "testdata", "gobind", "app"))
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range as {
		t.Run(a.Name, func(t *testing.T) {
			pkg := "example.com/app/" + strings.ToLower(a.Name)
			original := diagnostics(analysistest.Run(ignored{}, app, analyzers.All[i], pkg))
			plugin := diagnostics(analysistest.Run(ignored{}, app, a, pkg))
			if len(original) == 0 || len(plugin) != len(original) {
				t.Fatalf("%d diagnostics from the plugin, %d from the analyzer", len(plugin), len(original))
			}
			for k, d := range plugin {
				if a.Name+" "+d.Message != original[k].Message {
					t.Errorf("plugin diagnostic %q for %q", d.Message, original[k].Message)
				}
			}
		})
	}
}

// ignored is an analysistest.Testing that ignores unmet expectations.
type ignored struct{}

func (ignored) Errorf(string, ...any) {}

func diagnostics(results []*analysistest.Result) []analysis.Diagnostic {
	var out []analysis.Diagnostic
	for _, r := range results {
		out = append(out, r.Diagnostics...)
	}
	return out
}

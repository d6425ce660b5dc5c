package golangci_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

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
	if p.GetLoadMode() != register.LoadModeSyntax {
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
	for _, a := range as {
		t.Run(a.Name, func(t *testing.T) {
			analysistest.Run(t, testdata, a, strings.ToLower(a.Name))
		})
	}
}

package gen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/lazylint/lazylint/internal/gen"
	"github.com/lazylint/lazylint/rules"
	"github.com/lazylint/lazylint/rules/ruletest"
)

// TestGenerated fails when a generated file is stale: run `go generate ./...`.
func TestGenerated(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := gen.Files(root, rules.All)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%v): run `go generate ./...`", path, err)
		}
	}
}

var idRE = regexp.MustCompile(`^LL[0-9]{3}$`)
var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestRuleMetadata checks what every rule must carry.
func TestRuleMetadata(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules.All {
		if !idRE.MatchString(r.ID) || !nameRE.MatchString(r.Name) || seen[r.ID] || seen[r.Name] {
			t.Errorf("%s %s: bad or duplicate ID or name", r.ID, r.Name)
		}
		seen[r.ID], seen[r.Name] = true, true
		if r.Summary == "" || r.Since == "" || r.Run == nil {
			t.Errorf("%s: summary, since and run are required", r.ID)
		}
		for _, sec := range []string{"What it does", "Why it fails under lazy loading", "Example", "Fix", "Suppress"} {
			if ruletest.Section(r.Doc, sec) == "" {
				t.Errorf("%s: doc has no %q section", r.ID, sec)
			}
		}
	}
}

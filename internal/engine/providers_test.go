package engine

import (
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
)

// Every kind of project fact has exactly one provider, and every provider
// says when it affects a file: a kind declared without one would be
// required by rules and never computed.
func TestEveryFactHasOneProvider(t *testing.T) {
	seen := map[*rule.Fact]int{}
	for _, pv := range providers {
		seen[pv.fact]++
		if pv.affects == nil {
			t.Errorf("provider of %s: no affects", pv.fact.Name)
		}
	}
	for _, f := range rule.Facts {
		if seen[f] != 1 {
			t.Errorf("fact %s has %d providers, want 1", f.Name, seen[f])
		}
	}
	if len(seen) != len(rule.Facts) {
		t.Errorf("%d facts have providers, rule.Facts lists %d", len(seen), len(rule.Facts))
	}
}

package main

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/rules"
)

// TestEveryGroupAlike checks a large generated tree as one project: its
// groups are the same code under other names, so each must get the same
// findings. The project step once answered by the tree's size: a caller
// search skipped a name that more than a bound of files' name filters
// admitted (similar names share most three-byte sequences), so the
// warm-ups of two groups' callers in 334 went unseen and those groups kept
// a finding the others had not.
func TestEveryGroupAlike(t *testing.T) {
	if testing.Short() {
		t.Skip("checks a tree of 3,677 files")
	}
	dir := filepath.Join(t.TempDir(), "mono")
	const groups = 334
	if _, err := write(options{dir: dir, groups: groups, umbrella: true}); err != nil {
		t.Fatal(err)
	}
	res := engine.Run(engine.Options{
		Paths:   []string{filepath.Join(dir, "pkgs"), filepath.Join(dir, "util"), filepath.Join(dir, "gpu"), filepath.Join(dir, "all")},
		Rules:   rules.All,
		BaseDir: dir,
	})
	group := regexp.MustCompile(`g\d{4}`)
	byGroup := map[string][]string{}
	for _, f := range res.Findings {
		g := group.FindString(f.Path)
		if g == "" {
			continue
		}
		line := group.ReplaceAllString(f.Path, "gN") + " " + f.Rule.ID + " " + group.ReplaceAllString(f.Message, "gN")
		byGroup[g] = append(byGroup[g], line)
	}
	if len(byGroup) != groups {
		t.Fatalf("findings in %d groups, want %d", len(byGroup), groups)
	}
	var first string
	for g, lines := range byGroup {
		sort.Strings(lines)
		got := strings.Join(lines, "\n")
		if first == "" {
			first = got
		}
		if got != first {
			t.Errorf("group %s:\n%s\nwant, as another group:\n%s", g, got, first)
		}
	}
}

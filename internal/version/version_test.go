package version

import (
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// TestSnippetsNameTheVersion fails when the README's pre-commit and
// golangci snippets, or the CHANGELOG's newest release, name another
// version than Version: bump them together.
func TestSnippetsNameTheVersion(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ what, re string }{
		{"pre-commit rev", `(?m)^\s+rev:\s*(\S+)`},
		{".custom-gcl.yml plugin version", `(?m)import: github.com/lazylint/lazylint/golangci\n\s+version:\s*(\S+)`},
	}
	for _, c := range checks {
		m := regexp.MustCompile(c.re).FindSubmatch(readme)
		if m == nil {
			t.Errorf("README.md: no %s found", c.what)
			continue
		}
		if got := string(m[1]); got != Tag() {
			t.Errorf("README.md: %s is %s, internal/version says %s", c.what, got, Tag())
		}
	}
	changelog, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^## \[(\d[^\]]*)\]`).FindSubmatch(changelog)
	if len(m) < 2 || string(m[1]) != strings.TrimPrefix(Version, "v") {
		t.Errorf("CHANGELOG.md: newest release heading is %q, internal/version says %s", m, Version)
	}
}

func TestRevisionOf(t *testing.T) {
	info := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got := revisionOf(info); got != "0123456789ab+dirty" {
		t.Errorf("revisionOf = %q", got)
	}
	if got := revisionOf(&debug.BuildInfo{}); got != "" {
		t.Errorf("revisionOf(no vcs) = %q", got)
	}
	if Tag() != "v"+Version {
		t.Errorf("Tag() = %q", Tag())
	}
}

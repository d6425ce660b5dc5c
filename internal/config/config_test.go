package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

// write creates files under dir from name -> content.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func ids(rs []*rule.Rule) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return strings.Join(out, " ")
}

func allIDsBut(drop ...string) string {
	var out []string
	for _, r := range rules.All {
		keep := true
		for _, d := range drop {
			keep = keep && r.ID != d
		}
		if keep {
			out = append(out, r.ID)
		}
	}
	return strings.Join(out, " ")
}

func TestFindWalksUp(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{".lazylint.yaml": "", "a/b/c/x.cu": ""})
	got, err := Find(filepath.Join(dir, "a", "b", "c"))
	if err != nil || got != filepath.Join(dir, ".lazylint.yaml") {
		t.Errorf("Find = %q, %v", got, err)
	}
	// The nearer file wins, and .yml before .yaml in one folder.
	write(t, dir, map[string]string{"a/.lazylint.yml": "", "a/.lazylint.yaml": ""})
	if got, _ := Find(filepath.Join(dir, "a", "b")); got != filepath.Join(dir, "a", ".lazylint.yml") {
		t.Errorf("Find = %q", got)
	}
}

func TestExtendsOverridesAndExcludes(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"shared/base.yml": `
disable: [LL008, whole-vram-allocation]
severity: {LL002: error}
options: {LL001: {threshold: 0.7}}
exclude: [generated/]
`,
		"proj/.lazylint.yml": `
extends: ../shared/base.yml
enable: [all]
disable: [LL005]
options:
  LL001: {min-headroom-mib: 64}
exclude:
  - third_party/
  - "**/*.pb.cu"
overrides:
  - files: [tests/, "bench/*.cu"]
    disable: [LL002]
    severity: {LL001: info}
  - files: legacy.cu
    enable: [LL003]
report-unused-suppressions: true
`,
	})
	c, err := Load(filepath.Join(dir, "proj", ".lazylint.yml"), rules.All)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 2 || !strings.HasSuffix(c.Files[0], "base.yml") {
		t.Errorf("files read: %v", c.Files)
	}
	if c.ReportUnusedSuppressions == nil || !*c.ReportUnusedSuppressions || c.LowConfidence != nil {
		t.Errorf("booleans: %v %v", c.ReportUnusedSuppressions, c.LowConfidence)
	}
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }

	// The child's enable: [all] brings back what the base disabled; its
	// own disable then applies; options merge key by key.
	s := c.Settings(rules.All, p("proj/src/a.cu"))
	if got, want := ids(s.Rules), allIDsBut("LL005"); got != want {
		t.Errorf("rules: %s, want %s", got, want)
	}
	if s.Severities["LL002"] != rule.Error || s.RuleOptions["LL001"]["threshold"] != "0.7" || s.RuleOptions["LL001"]["min-headroom-mib"] != "64" {
		t.Errorf("severities %v options %v", s.Severities, s.RuleOptions)
	}
	for _, rel := range []string{"proj/tests/x.cu", "proj/tests/deep/y.cuh", "proj/bench/b.cu"} {
		s := c.Settings(rules.All, p(rel))
		if strings.Contains(ids(s.Rules), "LL002") || s.Severities["LL001"] != rule.Info {
			t.Errorf("%s: override not applied: %s %v", rel, ids(s.Rules), s.Severities)
		}
	}
	if s := c.Settings(rules.All, p("proj/bench/sub/b.cu")); !strings.Contains(ids(s.Rules), "LL002") {
		t.Error("bench/*.cu matched a file one folder deeper")
	}
	if s := c.Settings(rules.All, p("proj/legacy.cu")); ids(s.Rules) != "LL003" {
		t.Errorf("legacy.cu: %s", ids(s.Rules))
	}
	// Command-line selections go on top of everything.
	if s := c.Settings(rules.All, p("proj/tests/x.cu"), Selection{Disable: []*rule.Rule{rules.ByID("LL001")}}); strings.Contains(ids(s.Rules), "LL001") {
		t.Error("an extra selection did not apply last")
	}

	excluded := map[string]bool{
		"proj/third_party":            true,
		"proj/third_party/lib/x.cu":   true,
		"proj/src/msg.pb.cu":          true,
		"proj/generated/k.cu":         false, // the base's pattern is relative to shared/
		"proj/src/a.cu":               false,
		"shared/generated/k.cu":       true,
		"elsewhere/third_party/x.cu":  false,
		"proj/src/third_party_like.c": false,
	}
	for rel, want := range excluded {
		isDir := !strings.Contains(filepath.Base(rel), ".")
		if got := c.Excluded(p(rel), isDir); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", rel, got, want)
		}
	}
}

func TestMistakesAreReportedWithTheirPlace(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"bad.yml": `extends: [missing.yml]
enable: [LL001, LL099]
severity:
  LL002: fatal
options:
  LL001: {threshold: lots, depth: 3}
overides: []
overrides:
  - disable: [LL002]
  - files: ["!negated"]
low-confidence: maybe
`,
		"syntax.yml":  "enable: [LL001\n",
		"cycle-a.yml": "extends: cycle-b.yml\n",
		"cycle-b.yml": "extends: cycle-a.yml\n",
		"list.yml":    "- LL001\n",
		"twice.yml":   "disable: [LL001]\ndisable: [LL002]\n",
		"range.yml":   "options:\n  LL001: {threshold: 2, min-headroom-mib: -1}\nfail-on: fatal\n",
		"ext.yml":     "extensions: [.impl, cuinc, \".a/b\"]\n",
	})
	cases := map[string][]string{
		"bad.yml": {
			"bad.yml:1:11: cannot read",
			"bad.yml:2:17: unknown rule \"LL099\"",
			"bad.yml:4:10: severity of LL002",
			"bad.yml:6:22: LL001: option threshold wants a number",
			"bad.yml:6:28: LL001 has no option \"depth\"",
			"bad.yml:7:1: unknown setting \"overides\"",
			"bad.yml:9:5: an override needs files",
			"bad.yml:10:13: \"!negated\" is not a path pattern",
			"bad.yml:11:17: low-confidence wants true or false",
		},
		"syntax.yml": {"syntax.yml:1: did not find expected"},
		"range.yml": {
			"range.yml:2:22: LL001: option threshold wants a number in (0, 1], not 2",
			"range.yml:2:43: LL001: option min-headroom-mib wants a number in [0, 1048576], not -1",
			"range.yml:3:10: fail-on wants info, warning or error",
		},
		"cycle-a.yml": {"cycle-b.yml:1:10: extends", "in a cycle"},
		"list.yml":    {"list.yml:1:1: want a mapping"},
		"twice.yml":   {"twice.yml:2:1: disable is set twice"},
		"ext.yml":     {"ext.yml:1:21: extensions: \"cuinc\" is not a file ending", "ext.yml:1:28: extensions: \".a/b\" is not a file ending"},
	}
	for name, wants := range cases {
		_, err := Load(filepath.Join(dir, name), rules.All)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		for _, want := range wants {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error lacks %q:\n%v", name, want, err)
			}
		}
		var ce *Error
		if !errors.As(err, &ce) || ce.Path == "" {
			t.Errorf("%s: not a *config.Error: %T", name, err)
		}
	}
	// Errors come sorted by place.
	_, err := Load(filepath.Join(dir, "bad.yml"), rules.All)
	lines := strings.Split(err.Error(), "\n")
	if !strings.Contains(lines[0], ":1:11:") || !strings.Contains(lines[len(lines)-1], ":11:17:") {
		t.Errorf("not sorted by line:\n%v", err)
	}
}

func TestEmptyAndNullSettingsChangeNothing(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"empty.yml": "", "null.yml": "enable:\ndisable:\n# only a comment\n"})
	for _, name := range []string{"empty.yml", "null.yml"} {
		c, err := Load(filepath.Join(dir, name), rules.All)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := ids(c.Settings(rules.All, filepath.Join(dir, "a.cu")).Rules); got != allIDsBut() {
			t.Errorf("%s: rules %s", name, got)
		}
	}
	// enable: [] is a choice: no rule runs.
	write(t, dir, map[string]string{"none.yml": "enable: []\n"})
	c, err := Load(filepath.Join(dir, "none.yml"), rules.All)
	if err != nil || len(c.Settings(rules.All, filepath.Join(dir, "a.cu")).Rules) != 0 {
		t.Errorf("enable: [] kept rules (%v)", err)
	}
}

func TestNilConfigIsEveryRuleAtItsDefaults(t *testing.T) {
	var c *Config
	if c.Excluded("/x/y.cu", false) {
		t.Error("nil config excluded a file")
	}
	s := c.Settings(rules.All, "/x/y.cu")
	if ids(s.Rules) != allIDsBut() || len(s.Severities) != 0 {
		t.Errorf("nil config: %s %v", ids(s.Rules), s.Severities)
	}
	if e := c.Effective(rules.All, ""); len(e.Rules) != len(rules.All) || len(e.Disabled) != 0 {
		t.Errorf("effective: %+v", e)
	}
}

func TestExtensions(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"base.yml": "extensions: [.CUIMPL]\n", ".lazylint.yml": "extends: base.yml\nextensions: [.impl]\n"})
	c, err := Load(filepath.Join(dir, ".lazylint.yml"), rules.All)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Extensions, " "); got != ".cuimpl .impl" {
		t.Errorf("extensions = %q, want the extended file's and then this file's, in lower case", got)
	}
}

package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/rules"
)

// enable and disable take one vocabulary on the command line and in a
// config file (issue 23 item 4): all, IDs in any case, names, globs.
func TestRulesVocabulary(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"all", allIDsBut()},
		{"ALL", allIDsBut()},
		{"*", allIDsBut()},
		{"LL00*", allIDsBut()},
		{"ll001", "LL001"},
		{"whole-vram-allocation", "LL001"},
		{"LL00[1-3]", "LL001 LL002 LL003"},
		{" LL002 ", "LL002"},
	} {
		rs, err := Rules(rules.All, c.name)
		if err != nil || ids(rs) != c.want {
			t.Errorf("Rules(rules.All, %q) = %s, %v; want %s", c.name, ids(rs), err, c.want)
		}
	}
	for name, want := range map[string]string{
		"LL01":   `unknown rule "LL01"`,
		"LL9*":   `no rule matches "LL9*"`,
		"LL00[1": `bad rule pattern "LL00[1"`,
	} {
		if _, err := Rules(rules.All, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Rules(rules.All, %q): error %v, want %q", name, err, want)
		}
	}
}

func TestConfigTakesGlobs(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{".lazylint.yml": `
enable: [all]
disable: ["LL00[2-8]"]
severity: {"LL00*": error}
`})
	cfg, err := Load(filepath.Join(dir, ".lazylint.yml"), rules.All)
	if err != nil {
		t.Fatal(err)
	}
	s := cfg.Settings(rules.All, filepath.Join(dir, "a.cu"))
	if ids(s.Rules) != "LL001" || s.Severities["LL001"].String() != "error" {
		t.Errorf("rules %s, severities %v", ids(s.Rules), s.Severities)
	}
	write(t, dir, map[string]string{"bad.yml": "disable: [LL9*]\n"})
	if _, err := Load(filepath.Join(dir, "bad.yml"), rules.All); err == nil || !strings.Contains(err.Error(), `bad.yml:1:11: no rule matches "LL9*"`) {
		t.Errorf("unmatched glob: %v", err)
	}
}

// A slip of a key gives one error, naming the key meant (issue 23 item 8):
// file: for files: in an override no longer also says files is missing.
func TestSlipOfAKeyIsOneError(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.yml": "overrides:\n  - file: [tests/]\n    disable: [LL001]\nexclued: [x]\n"})
	_, err := Load(filepath.Join(dir, "a.yml"), rules.All)
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `a.yml:2:5: unknown setting "file" (did you mean files?`) ||
		!strings.Contains(lines[1], `a.yml:4:1: unknown setting "exclued" (did you mean exclude?`) {
		t.Errorf("errors:\n%v", err)
	}
	if near := nearest("extension", topKeys); near != "extensions" {
		t.Errorf("nearest(extension) = %q", near)
	}
	for slip, want := range map[string]string{"launcher": "launchers", "clock": "clocks", "timer": "timers", "preload": "preloads", "enabled": "enable"} {
		if near := nearest(slip, topKeys); near != want {
			t.Errorf("nearest(%s) = %q, want %s", slip, near, want)
		}
	}
	if near := nearest("launch-helpers", topKeys); near != "" {
		t.Errorf("nearest(launch-helpers) = %q, want none", near)
	}
}

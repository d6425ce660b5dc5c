package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lazylint/lazylint/rules"
)

// FuzzLoad loads arbitrary bytes as a config file: an error naming the
// file, or a config whose settings resolve; never a panic.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"", "enable: [all]\n", "disable: [LL008]\nseverity: {LL002: error}\n",
		"options: {LL001: {threshold: 0.8}}\nexclude: [third_party/]\n",
		"overrides:\n  - files: [tests/]\n    disable: [LL002]\n",
		"extends: x.yml\n", "extends: [a, b]\n", "enable: [LL001\n", "- a\n", "a: &x [*x]\n",
		"options: {LL001: {threshold: [1]}}\n", "severity: 3\n", "overrides: [1, {files: 2}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, ".lazylint.yml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path, rules.All)
		if err != nil {
			if c != nil {
				t.Fatal("a config and an error")
			}
			return
		}
		c.Settings(rules.All, filepath.Join(dir, "a", "b.cu"))
		c.Excluded(filepath.Join(dir, "a"), true)
		c.Effective(rules.All, filepath.Join(dir, "a.cu"))
	})
}

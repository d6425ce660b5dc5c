package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// checkJSON runs check --format json and decodes the report.
func checkJSON(t *testing.T, dir string, args ...string) (int, jsonDoc) {
	t.Helper()
	code, out, errs := run(t, dir, append([]string{"check", "--format", "json"}, args...)...)
	var doc jsonDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("check %v: %v\nstdout %s\nstderr %s", args, err, out, errs)
	}
	return code, doc
}

func TestConfigIsFoundAndApplied(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".lazylint.yml": `
exclude: [third_party/]
severity: {LL001: error}
overrides:
  - files: [tests/]
    disable: [whole-vram-allocation]
`,
		"src/a.cu":            hazard,
		"tests/t.cu":          hazard,
		"third_party/lib.cu":  hazard,
		"src/deeper/b.cu":     hazard,
		"src/deeper/note.txt": "",
	})
	// Run from a folder below the config: it is found upwards.
	code, doc := checkJSON(t, filepath.Join(dir, "src"), ".")
	if code != ExitFindings || len(doc.Findings) != 2 {
		t.Fatalf("from src/: exit %d, %+v", code, doc.Findings)
	}
	for _, f := range doc.Findings {
		if f.Severity != "error" {
			t.Errorf("severity from the config not applied: %+v", f)
		}
	}
	code, doc = checkJSON(t, dir, ".")
	var paths []string
	for _, f := range doc.Findings {
		paths = append(paths, f.Path)
	}
	if code != ExitFindings || strings.Join(paths, " ") != "src/a.cu src/deeper/b.cu" {
		t.Errorf("from the root: exit %d, findings in %v (tests/ is overridden, third_party/ excluded)", code, paths)
	}
	// Excludes apply to files named on the command line too, as pre-commit
	// passes them.
	if code, doc := checkJSON(t, dir, "third_party/lib.cu"); code != ExitClean || len(doc.Findings) != 0 {
		t.Errorf("named excluded file: exit %d %+v", code, doc.Findings)
	}
	if code, _, errs := run(t, dir, "check", "third_party/lib.cu"); code != ExitClean ||
		strings.TrimSpace(errs) != "lazylint: third_party/lib.cu is excluded by the configuration's exclude patterns; not checked (--no-config checks it)" {
		t.Errorf("named excluded file: exit %d, stderr %q", code, errs)
	}
	// Flags go on top of the config; --no-config and --config choose.
	if code, _ := checkJSON(t, dir, "--disable", "LL001", "."); code != ExitClean {
		t.Errorf("--disable over the config: exit %d", code)
	}
	if _, doc := checkJSON(t, dir, "--no-config", "."); len(doc.Findings) != 4 || doc.Findings[0].Severity != "warning" {
		t.Errorf("--no-config: %+v", doc.Findings)
	}
	other := writeFiles(t, map[string]string{"strict.yml": "disable: [LL001]\n"})
	if code, _ := checkJSON(t, dir, "--config", filepath.Join(other, "strict.yml"), "."); code != ExitClean {
		t.Errorf("--config: exit %d", code)
	}
}

func TestConfigOptionsAndBooleans(t *testing.T) {
	// 0.4 of free memory is below LL001's default threshold; the config's
	// lower threshold makes it a finding.
	partial := strings.Replace(hazard, "cudaMalloc(p, free_b);", "cudaMalloc(p, free_b * 0.4);", 1)
	dir := writeFiles(t, map[string]string{"a.cu": partial, "unused.cu": "int x;  // NOLINT(lazylint-LL001)\n"})
	if code, _ := checkJSON(t, dir, "a.cu"); code != ExitClean {
		t.Fatalf("0.4 of free memory flagged at the default threshold")
	}
	writeFilesIn(t, dir, map[string]string{".lazylint.yml": "options: {LL001: {threshold: 0.3}}\nreport-unused-suppressions: true\n"})
	if code, doc := checkJSON(t, dir, "a.cu"); code != ExitFindings || len(doc.Findings) != 1 {
		t.Errorf("threshold from the config: exit %d %+v", code, doc.Findings)
	}
	if code, doc := checkJSON(t, dir, "unused.cu"); code != ExitFindings || len(doc.Findings) != 1 || doc.Findings[0].Rule != "LL000" {
		t.Errorf("report-unused-suppressions from the config: exit %d %+v", code, doc.Findings)
	}
	if code, _ := checkJSON(t, dir, "--report-unused-suppressions=false", "unused.cu"); code != ExitClean {
		t.Errorf("the flag did not override the config: exit %d", code)
	}
}

func TestBadConfigExitsTwoWithItsPlace(t *testing.T) {
	dir := writeFiles(t, map[string]string{".lazylint.yml": "disable: [LL001]\nseverity:\n  LL002: loud\n", "a.cu": hazard})
	for _, args := range [][]string{{"check", "."}, {"config"}} {
		code, out, errs := run(t, dir, args...)
		if code != ExitFailure || out != "" || !strings.Contains(errs, ".lazylint.yml:3:10: severity of LL002: want info, warning or error") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

func TestConfigCommandPrintsTheEffectiveConfig(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"base.yml":      "disable: [LL008]\n",
		".lazylint.yml": "extends: base.yml\noptions: {LL001: {threshold: 0.8}}\noverrides:\n  - files: [tests/]\n    severity: {LL001: info}\n",
	})
	code, out, errs := run(t, dir, "config", "tests/x.cu")
	for _, want := range []string{"base.yml", "file: " + filepath.Join(dir, "tests", "x.cu"), "excluded: false", "threshold: \"0.8\"", "severity: info", "disabled: [LL008]", "applies: true"} {
		if !strings.Contains(out, want) {
			t.Errorf("config output lacks %q (exit %d, stderr %q):\n%s", want, code, errs, out)
		}
	}
	code, out, _ = run(t, dir, "config", "--no-config")
	if code != ExitClean || !strings.Contains(out, "no config file") || !strings.Contains(out, "disabled: []") {
		t.Errorf("--no-config: exit %d\n%s", code, out)
	}
}

// LL000 columns count characters, as every other finding's do.
func TestSuppressionProblemColumnsCountCharacters(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.cu": "/* µµµµ */ int x = 0; // lazylint:ignore LL001\n"})
	code, out, _ := run(t, dir, "check", "a.cu")
	if code != ExitFindings || !reported(out, "a.cu:1:23:", "LL000", "") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// The language server's options come from the config above its root.
func TestConfiguredOptions(t *testing.T) {
	dir := writeFiles(t, map[string]string{".lazylint.yml": "disable: [LL001]\nexclude: [gen/]\noverrides:\n  - files: [tests/]\n    disable: [LL002]\n", "sub/x": ""})
	opts, err := configuredOptions(filepath.Join(dir, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	ids := func(file string) string {
		var out []string
		for _, r := range opts.SettingsFor(filepath.Join(dir, file)).Rules {
			out = append(out, r.ID)
		}
		return strings.Join(out, " ")
	}
	if got := ids("a.cu"); strings.Contains(got, "LL001") || !strings.Contains(got, "LL002") {
		t.Errorf("a.cu: %s", got)
	}
	if got := ids("tests/t.cu"); strings.Contains(got, "LL002") {
		t.Errorf("tests/t.cu: %s", got)
	}
	if opts.Exclude == nil || !opts.Exclude(filepath.Join(dir, "gen", "k.cu"), false) {
		t.Error("exclude not applied")
	}
	writeFilesIn(t, dir, map[string]string{".lazylint.yml": "disable: [LL404]\n"})
	opts, err = configuredOptions(dir)
	if err == nil || !strings.Contains(err.Error(), ".lazylint.yml:1:11") || len(opts.SettingsFor(filepath.Join(dir, "a.cu")).Rules) == 0 {
		t.Errorf("bad config: %v", err)
	}
}

// --enable and --disable speak the config's language (issue 23 item 4):
// all, names, globs.
func TestFlagsTakeTheConfigVocabulary(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard})
	if code, doc := checkJSON(t, dir, "--no-config", "--enable", "all", "--disable", "LL00[2-8]", "bad.cu"); code != ExitFindings || len(doc.Findings) != 1 {
		t.Errorf("--enable all --disable 'LL00[2-8]': exit %d, %+v", code, doc.Findings)
	}
	if code, doc := checkJSON(t, dir, "--no-config", "--disable", "LL00*", "bad.cu"); code != ExitClean || len(doc.Findings) != 0 {
		t.Errorf("--disable 'LL00*': exit %d, %+v", code, doc.Findings)
	}
	if code, _, errs := run(t, dir, "check", "--enable", "LL9*", "bad.cu"); code != ExitFailure || !strings.Contains(errs, `no rule matches "LL9*"`) {
		t.Errorf("--enable 'LL9*': exit %d, %s", code, errs)
	}
	code, out, _ := run(t, dir, "config", "--no-config", "--enable", "whole-*", "--disable", "all")
	if code != ExitClean || !strings.Contains(out, "rules: []") {
		t.Errorf("config --enable whole-* --disable all: exit %d\n%s", code, out)
	}
}

// `lazylint config` shows every setting, each with where it came from
// (issue 23 item 5): default, the file and line, or the flag.
func TestConfigCommandShowsEverySettingAndItsSource(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"base.yml":      "low-confidence: true\ndisable: [LL005]\n",
		"inc/x.h":       "",
		".lazylint.yml": "extends: base.yml\nenable: [all]\ndisable: [\"LL00[78]\"]\nseverity: {LL002: error}\noptions: {LL001: {threshold: 0.8}}\nexclude: [third_party/]\nfail-on: error\ninclude-dirs: [inc]\nextensions: [.cuimpl]\n",
	})
	code, out, errs := run(t, dir, "config", "--rule-option", "LL001.min-headroom-mib=64", "--report-unused-suppressions")
	cfg := filepath.Join(dir, ".lazylint.yml")
	for _, want := range []string{
		"- id: LL001 # " + cfg + ":2",
		"severity: error # " + cfg + ":4",
		"severity: warning # default",
		`threshold: "0.8" # ` + cfg + ":5",
		`min-headroom-mib: "64" # --rule-option`,
		"disabled: [LL007, LL008] # LL007: " + cfg + ":3; LL008: " + cfg + ":3",
		filepath.Join(dir, "third_party") + "/ # " + cfg + ":6",
		"report-unused-suppressions: true # --report-unused-suppressions",
		"low-confidence: true # " + filepath.Join(dir, "base.yml") + ":1",
		"fail-on: error # " + cfg + ":7",
		filepath.Join(dir, "inc") + " # " + cfg + ":8",
		"compile-commands: [] # default",
		".cuimpl # " + cfg + ":9",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("config output lacks %q (exit %d, stderr %q):\n%s", want, code, errs, out)
		}
	}
	_, out, _ = run(t, dir, "config", "--no-config", "--fail-on", "info")
	for _, want := range []string{"fail-on: info # --fail-on", "low-confidence: false # default", "include-dirs: [] # default", "extensions: [] # default"} {
		if !strings.Contains(out, want) {
			t.Errorf("--no-config output lacks %q:\n%s", want, out)
		}
	}
}

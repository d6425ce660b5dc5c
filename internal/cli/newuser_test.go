package cli

import (
	"strings"
	"testing"
)

// A file skipped with an error (binary, missing, not Go) is not counted as
// checked (issue 23 item 6).
func TestSkippedFilesAreNotCounted(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bin.cu": "a\x00b", "bad.go": "package x\nimport \"C\"\n\x00", "ok.cu": safe})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bin.cu"}, "no findings (0 files checked, 1 error)"},
		{[]string{"missing.cu"}, "no findings (0 files checked, 1 error)"},
		{[]string{"bin.cu", "bad.go", "missing.cu", "ok.cu"}, "no findings (1 file checked, 3 errors)"},
	} {
		code, out, errs := run(t, dir, append([]string{"check", "--no-cache"}, c.args...)...)
		if code != ExitFailure || strings.TrimSpace(out) != c.want {
			t.Errorf("check %v: exit %d, stdout %q, want %q (stderr %s)", c.args, code, out, c.want, errs)
		}
	}
	if _, doc := checkJSON(t, dir, "--no-cache", "bin.cu", "ok.cu"); doc.Stats.Files != 1 || len(doc.Errors) != 1 {
		t.Errorf("json: files %d, errors %+v", doc.Stats.Files, doc.Errors)
	}
}

// A folder named on the command line is checked even when .gitignore
// ignores it, as a named file is (issue 23 item 3); what .gitignore says of
// the files inside it still holds, and a walk from above still skips it.
func TestNamedIgnoredFolderIsChecked(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".gitignore":            "build/\n*.gen.cu\n",
		"build/a.cu":            hazard,
		"build/b.gen.cu":        hazard,
		"build/deep/.gitignore": "c.cu\n",
		"build/deep/c.cu":       hazard,
		"build/deep/d.cu":       hazard,
	})
	code, doc := checkJSON(t, dir, "--no-cache", "build")
	var paths []string
	for _, f := range doc.Findings {
		paths = append(paths, f.Path)
	}
	if code != ExitFindings || strings.Join(paths, " ") != "build/a.cu build/deep/d.cu" {
		t.Errorf("check build: exit %d, findings in %v", code, paths)
	}
	if code, doc := checkJSON(t, dir, "--no-cache", "."); code != ExitClean || doc.Stats.Files != 0 {
		t.Errorf("check .: exit %d, %d files", code, doc.Stats.Files)
	}
	if code, doc := checkJSON(t, dir, "--no-cache", "build/deep"); code != ExitFindings || len(doc.Findings) != 1 {
		t.Errorf("check build/deep: exit %d, %+v", code, doc.Findings)
	}
}

// Every line of a config's errors carries the lazylint: prefix (issue 23
// item 8).
func TestConfigErrorsArePrefixed(t *testing.T) {
	dir := writeFiles(t, map[string]string{".lazylint.yml": "severity: {LL002: loud}\nfoo: 1\n", "a.cu": hazard})
	for _, args := range [][]string{{"check", "."}, {"config"}} {
		code, _, errs := run(t, dir, args...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != ExitFailure || len(lines) != 2 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "lazylint: ") {
				t.Errorf("%v: line without the prefix: %q", args, l)
			}
		}
	}
}

// check --help names .go files and says what --fail-on does to the exit
// code (issue 23 item 8).
func TestCheckHelp(t *testing.T) {
	_, out, _ := run(t, t.TempDir(), "check", "--help")
	for _, want := range []string{`.go
files that call CUDA through cgo or through a binding package`, "0 no findings at or above --fail-on", "1 findings at or above it"} {
		if !strings.Contains(out, want) {
			t.Errorf("check --help lacks %q:\n%s", want, out)
		}
	}
}

package cli

import (
	"strings"
	"testing"
)

// Suppression comments end to end: a whole-file directive, misspelled
// directives (an LL000 hint each, and the finding stays), an unknown rule,
// and an unused rule inside a multi-rule directive.
func TestSuppressionHints(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"file.cu":  "// lazylint:file-ignore LL001 this test arena owns the device\n" + hazard,
		"typo.cu":  strings.Replace(hazard, "free_b);\n}", "free_b);  // LAZYLINT:IGNORE LL001 capitals\n}", 1),
		"id.cu":    strings.Replace(hazard, "free_b);\n}", "free_b);  // NOLINT(lazylint-LL01)\n}", 1),
		"multi.cu": strings.Replace(hazard, "free_b);\n}", "free_b);  // lazylint:ignore LL001,LL002 only the arena\n}", 1),
	})
	code, out, _ := run(t, dir, "check", "--no-cache", "--report-unused-suppressions", ".")
	if code != ExitFindings {
		t.Errorf("exit %d", code)
	}
	for _, want := range [][3]string{
		{"typo.cu:4:27:", "LL000", `"LAZYLINT:IGNORE" is not a lazylint directive`},
		{"typo.cu:4:3:", "LL001", ""},
		{"id.cu:4:27:", "LL000", `NOLINT(lazylint-LL01): "lazylint-LL01" names no lazylint rule`},
		{"id.cu:4:3:", "LL001", ""},
		{"multi.cu:4:27:", "LL000", "LL002 in lazylint:ignore LL001,LL002 only the arena silences no finding"},
	} {
		if !reported(out, want[0], want[1], want[2]) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "file.cu") || reported(out, "multi.cu:4:3:", "LL001", "") {
		t.Errorf("file.cu or multi.cu's arena reported:\n%s", out)
	}
}

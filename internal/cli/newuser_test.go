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

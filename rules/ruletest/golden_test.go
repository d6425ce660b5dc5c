package ruletest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/rules/ll006"
)

// recorder is a testing.TB that keeps what a check reports.
type recorder struct {
	testing.TB
	errors, logs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}

func (r *recorder) Helper() {}

const fixable = `#include <cuda.h>

int mode(void) {
  CUmoduleLoadingMode m;
  cuModuleGetLoadingMode(&m);
  return (int)m;
}
`

const fixedRight = `#include <cuda.h>

int mode(void) {
  CUmoduleLoadingMode m;
  cuInit(0);
  cuModuleGetLoadingMode(&m);
  return (int)m;
}
`

// goldenCheck writes the fixture (and the golden and bug files when not
// empty) to a folder and checks its fixes.
func goldenCheck(t *testing.T, src, golden, bug string) *recorder {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "q.c")
	write := func(p, text string) {
		if text != "" {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(path, src)
	write(path+GoldenSuffix, golden)
	write(path+GoldenSuffix+BugSuffix, bug)
	got, err := Check(ll006.Rule, path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{TB: t}
	checkFixes(rec, path, got, func(fixed []byte) ([]engine.Finding, error) { return Check(ll006.Rule, path, fixed) })
	return rec
}

func TestGoldenFixes(t *testing.T) {
	// A golden text the fix does not write (and that is not reported).
	wrong := fixedRight + "// not what the fix writes\n"
	wrongDiff := "# the fix is wrong\n" + udiff.Unified("q.c.golden", "q.c (fixed)", wrong, fixedRight)
	for _, tc := range []struct {
		name, src, golden, bug string
		wantError              string // a substring of the one error, "" for none
		wantLog                bool
	}{
		{name: "golden matches", src: fixable, golden: fixedRight},
		{name: "no golden", src: fixable, wantError: "no golden file"},
		{name: "golden differs", src: fixable, golden: wrong, wantError: "differs from"},
		{name: "stale golden", src: "int main(void) { return 0; }\n", golden: fixedRight, wantError: "no finding carries a fix"},
		{name: "known bug", src: fixable, golden: wrong, bug: wrongDiff, wantLog: true},
		{name: "known bug fixed", src: fixable, golden: fixedRight, bug: wrongDiff, wantError: "is gone"},
		{name: "golden still reported", src: fixable, golden: fixable, bug: "# the fix is wrong\n" + udiff.Unified("q.c.golden", "q.c (fixed)", fixable, fixedRight),
			wantLog: true, wantError: "is still reported with a fix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := goldenCheck(t, tc.src, tc.golden, tc.bug)
			switch {
			case tc.wantError == "" && len(rec.errors) > 0:
				t.Errorf("errors: %q", rec.errors)
			case tc.wantError != "" && (len(rec.errors) != 1 || !strings.Contains(rec.errors[0], tc.wantError)):
				t.Errorf("errors %q, want one with %q", rec.errors, tc.wantError)
			}
			if tc.wantLog != (len(rec.logs) > 0) {
				t.Errorf("logs %q, want some: %v", rec.logs, tc.wantLog)
			}
		})
	}
}

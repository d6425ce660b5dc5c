package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modeQuery gives an LL006 finding whose suggested fix inserts cuInit(0).
const modeQuery = `#include <cuda.h>

int loading_mode(void) {
    CUmoduleLoadingMode mode;
    if (cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS)
        return -1;
    return (int)mode;
}
`

// cgoModeQuery is the same in a Go file, where the cgo analyzer suggests
// the fix.
const cgoModeQuery = "package a\n\n/*\nint cuModuleGetLoadingMode(int *mode);\n*/\nimport \"C\"\n\nfunc probe() {\n\tvar m C.int\n\tC.cuModuleGetLoadingMode(&m)\n}\n"

func TestDiffShowsFixesWithoutWriting(t *testing.T) {
	dir := writeFiles(t, map[string]string{"mode.c": modeQuery, "a.go": cgoModeQuery, "bad.cu": hazard})
	code, out, errs := run(t, dir, "check", "--diff", ".")
	if code != ExitFindings {
		t.Fatalf("--diff: exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"--- a/mode.c\n+++ b/mode.c\n", "+    cuInit(0);\n", "--- a/a.go\n+++ b/a.go\n", "+\tC.cuInit(0)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "bad.cu") {
		t.Errorf("a finding without a fix is in the diff:\n%s", out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mode.c")); string(data) != modeQuery {
		t.Error("--diff wrote the file")
	}
	if code, out, _ := run(t, dir, "check", "--diff", "bad.cu"); code != ExitClean || out != "" {
		t.Errorf("nothing to fix: exit %d, %q", code, out)
	}
}

func TestFixWritesAndReportsWhatIsLeft(t *testing.T) {
	dir := writeFiles(t, map[string]string{"mode.c": modeQuery, "a.go": cgoModeQuery, "bad.cu": hazard})
	if err := os.Chmod(filepath.Join(dir, "mode.c"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "check", "--fix", ".")
	if code != ExitFindings || !strings.Contains(errs, "fixed 2 finding(s) in 2 file(s)") {
		t.Fatalf("--fix: exit %d, stderr %q", code, errs)
	}
	// Only the finding without a fix is left.
	if strings.Count(out, "[LL") != 1 || !reported(out, "bad.cu:4:3:", "LL001", "") {
		t.Errorf("left after --fix:\n%s", out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "mode.c"))
	if err != nil || !strings.Contains(string(data), "    cuInit(0);\n    if (cuModuleGetLoadingMode") {
		t.Errorf("mode.c after --fix:\n%s", data)
	}
	if st, _ := os.Stat(filepath.Join(dir, "mode.c")); st.Mode().Perm() != 0o600 {
		t.Errorf("--fix changed the file mode to %v", st.Mode().Perm())
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.go")); !strings.Contains(string(data), "C.cuInit(0)") {
		t.Errorf("a.go after --fix:\n%s", data)
	}
	// A second run has nothing more to fix.
	if code, out, _ := run(t, dir, "check", "--diff", "."); code != ExitClean || out != "" {
		t.Errorf("second --diff: exit %d\n%s", code, out)
	}
	if code, _, errs := run(t, dir, "check", "--fix", "--diff", "."); code != ExitFailure || !strings.Contains(errs, "choose one") {
		t.Errorf("--fix --diff: exit %d %q", code, errs)
	}
}

func TestBaselineHidesKnownFindingsEvenWhenMoved(t *testing.T) {
	dir := writeFiles(t, map[string]string{"src/a.cu": hazard + hazard, "src/b.cu": safe})
	code, _, errs := run(t, dir, "check", "--write-baseline", "lazylint-baseline.json", ".")
	if code != ExitClean || !strings.Contains(errs, "wrote 2 finding(s)") {
		t.Fatalf("--write-baseline: exit %d %q", code, errs)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "lazylint-baseline.json"))
	if !strings.Contains(string(data), `"path": "src/a.cu"`) || !strings.Contains(string(data), `"snippet": "cudaMalloc(p, free_b);"`) || !strings.Contains(string(data), `"count": 2`) {
		t.Errorf("baseline file:\n%s", data)
	}
	if code, doc := checkJSON(t, dir, "--baseline", "lazylint-baseline.json", "."); code != ExitClean || len(doc.Findings) != 0 || *doc.Stats.Baselined != 2 {
		t.Errorf("with the baseline: exit %d %+v", code, doc)
	}
	// Moving the code down (and re-indenting it) changes no key.
	writeFilesIn(t, dir, map[string]string{"src/a.cu": "// a header\n\n\n" + strings.ReplaceAll(hazard, "  ", "    ") + hazard})
	if code, _ := checkJSON(t, dir, "--baseline", "lazylint-baseline.json", "."); code != ExitClean {
		t.Errorf("moved code came back: exit %d", code)
	}
	// A third copy, or the same line in another file, is new.
	writeFilesIn(t, dir, map[string]string{"src/a.cu": hazard + hazard + hazard, "src/b.cu": hazard})
	code, doc := checkJSON(t, dir, "--baseline", "lazylint-baseline.json", ".")
	if code != ExitFindings || len(doc.Findings) != 2 || doc.Findings[1].Path != "src/b.cu" {
		t.Errorf("new findings: exit %d %+v", code, doc.Findings)
	}
	// The baseline is found relative to itself whatever the working folder.
	if code, _ := checkJSON(t, filepath.Join(dir, "src"), "--baseline", "../lazylint-baseline.json", "a.cu"); code != ExitFindings {
		t.Errorf("from src/: exit %d (the third copy is new)", code)
	}
	// Fixed findings leave stale entries, which the text output mentions.
	writeFilesIn(t, dir, map[string]string{"src/a.cu": safe, "src/b.cu": safe})
	code, _, errs = run(t, dir, "check", "--baseline", "lazylint-baseline.json", ".")
	if code != ExitClean || !strings.Contains(errs, "2 of its entries match nothing any more") {
		t.Errorf("stale entries: exit %d %q", code, errs)
	}
	writeFilesIn(t, dir, map[string]string{"broken.json": `{"version": 9}`})
	if code, _, errs := run(t, dir, "check", "--baseline", "broken.json", "."); code != ExitFailure || !strings.Contains(errs, "broken.json: not a lazylint baseline") {
		t.Errorf("bad baseline: exit %d %q", code, errs)
	}
}

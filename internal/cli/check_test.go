package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/version"
)

const hazard = `void arena(void **p) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaMalloc(p, free_b);
}
`

const safe = `void arena(void **p) {
  size_t free_b, total_b;
  cudaMemGetInfo(&free_b, &total_b);
  cudaMalloc(p, free_b / 2);
}
`

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeFilesIn(t, dir, files)
	return dir
}

// writeFilesIn writes files, by path relative to dir, into dir.
func writeFilesIn(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Chdir(wd); err != nil {
			t.Fatal(err)
		}
	}()
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodes(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard, "good.cu": safe})
	if code, _, _ := run(t, dir, "check", "good.cu"); code != ExitClean {
		t.Errorf("clean file: exit %d", code)
	}
	code, out, _ := run(t, dir, "check", "bad.cu")
	if code != ExitFindings {
		t.Errorf("finding: exit %d", code)
	}
	if !strings.HasPrefix(out, "bad.cu:4:3: warning: cudaMalloc takes all") || !reported(out, "bad.cu:4:3:", "LL001", "cudaMalloc") ||
		!strings.Contains(out, "= LL001 whole-vram-allocation: ") || !strings.HasSuffix(out, "\n1 warning in 1 file (1 file checked)\n") {
		t.Errorf("text output %q", out)
	}
	if code, _, errs := run(t, dir, "check", "--format", "xml"); code != ExitFailure || !strings.Contains(errs, "unknown format") {
		t.Errorf("bad format: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, dir, "check", "--disable", "LL999"); code != ExitFailure || !strings.Contains(errs, "unknown rule") {
		t.Errorf("bad rule: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, dir, "check", "missing.cu", "bad.cu"); code != ExitFailure || !strings.Contains(errs, "missing.cu") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
	if code, _, _ := run(t, dir, "check", "--disable", "LL001", "bad.cu"); code != ExitClean {
		t.Errorf("disabled rule: exit %d", code)
	}
	if code, _, _ := run(t, dir, "check", "--rule-option", "LL001.threshold=1", "bad.cu"); code != ExitFindings {
		t.Errorf("whole free memory is reported whatever the threshold: exit %d", code)
	}
	if code, _, errs := run(t, dir, "check", "--rule-option", "LL001.threshold=1.5", "bad.cu"); code != ExitFailure || !strings.Contains(errs, "wants a number in (0, 1], not 1.5") {
		t.Errorf("threshold out of range: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, dir, "check", "--rule-option", "LL001.min-headroom-mib=-4", "bad.cu"); code != ExitFailure || !strings.Contains(errs, "wants a number in [0, 1048576], not -4") {
		t.Errorf("negative headroom: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, dir, "check", "--rule-option", "LL001.threshold=most", "bad.cu"); code != ExitFailure || !strings.Contains(errs, "wants a number") {
		t.Errorf("non-numeric option: exit %d, %q", code, errs)
	}
	if code, _, _ := run(t, dir, "check", "--rule-option", "LL001.threshold=0.4", "good.cu"); code != ExitFindings {
		t.Errorf("threshold 0.4 must report half of free memory: exit %d", code)
	}
}

type jsonDoc struct {
	Version  int `json:"version"`
	Findings []struct {
		Rule, Name, Severity, Path, Message string
		Line, Column                        int
		EndLine                             int  `json:"end_line"`
		EndColumn                           int  `json:"end_column"`
		LowConfidence                       bool `json:"low_confidence"`
		Related                             []struct {
			Path, Message string
			Line, Column  int
			EndLine       int `json:"end_line"`
			EndColumn     int `json:"end_column"`
		} `json:"related"`
	} `json:"findings"`
	Suppressed []struct {
		Rule        string
		Line        int
		Suppression struct{ Kind, Directive, Justification string }
	} `json:"suppressed"`
	Errors []struct{ Path, Message string } `json:"errors"`
	Stats  struct {
		Files, Parsed, Excluded, Cached int
		Bytes                           int64
		DurationMS                      *int64 `json:"duration_ms"`
		Baselined                       *int   `json:"baselined"`
		BaselineStale                   *int   `json:"baseline_stale"`
		ProjectFunctions                *int   `json:"project_functions"`
		LinkParsed                      *int   `json:"link_parsed"`
		Rechecked                       *int   `json:"rechecked"`
	} `json:"stats"`
}

func TestJSONShape(t *testing.T) {
	dir := writeFiles(t, map[string]string{"src/bad.cu": hazard, "src/good.cu": safe, "src/unrelated.cpp": "int main() { return 0; }\n"})
	code, out, _ := run(t, dir, "check", "--format", "json", "--no-cache", "src")
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	var doc jsonDoc
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	if doc.Version != 1 || len(doc.Findings) != 1 || doc.Errors == nil || doc.Stats.DurationMS == nil {
		t.Fatalf("doc: %+v", doc)
	}
	f := doc.Findings[0]
	if f.Rule != "LL001" || f.Name != "whole-vram-allocation" || f.Severity != "warning" ||
		f.Path != filepath.Join("src", "bad.cu") || f.Line != 4 || f.Column != 3 || f.EndLine != 4 || f.EndColumn != 13 {
		t.Errorf("finding: %+v", f)
	}
	// unrelated.cpp has nothing any rule looks for: read, not parsed.
	if doc.Stats.Files != 3 || doc.Stats.Parsed != 2 || doc.Stats.Bytes == 0 {
		t.Errorf("stats: %+v", doc.Stats)
	}
}

func TestDeterministicWhateverTheParallelism(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		name := filepath.Join(string(rune('a'+i%5)), strings.Repeat("x", i%7)+string(rune('a'+i))+".cu")
		files[name] = hazard + strings.Repeat("\n", i) + hazard
	}
	dir := writeFiles(t, files)
	_, one, _ := run(t, dir, "check", "-j", "1", "--format", "json", "--no-cache")
	for _, j := range []string{"2", "8", "0"} {
		_, many, _ := run(t, dir, "check", "-j", j, "--format", "json", "--no-cache")
		if stripDuration(one) != stripDuration(many) {
			t.Fatalf("-j %s output differs from -j 1", j)
		}
	}
	// Through the cache, cold then warm, the report is the same but for
	// the counts of parsed and cached files.
	for _, pass := range []string{"cold", "warm"} {
		_, cached, _ := run(t, dir, "check", "-j", "2", "--format", "json")
		if stripStats(cached) != stripStats(one) {
			t.Fatalf("%s cache: output differs", pass)
		}
	}
	var warm jsonDoc
	_, out, _ := run(t, dir, "check", "--format", "json")
	if err := json.Unmarshal([]byte(out), &warm); err != nil || warm.Stats.Cached != 40 || warm.Stats.Parsed != 0 {
		t.Errorf("warm run: %+v %v", warm.Stats, err)
	}
	var doc jsonDoc
	if err := json.Unmarshal([]byte(one), &doc); err != nil || len(doc.Findings) != 80 {
		t.Fatalf("findings: %d, %v", len(doc.Findings), err)
	}
	for i := 1; i < len(doc.Findings); i++ {
		a, b := doc.Findings[i-1], doc.Findings[i]
		if a.Path > b.Path || a.Path == b.Path && a.Line >= b.Line {
			t.Fatalf("not sorted: %s:%d before %s:%d", a.Path, a.Line, b.Path, b.Line)
		}
	}
}

// stripStats drops the whole stats object.
func stripStats(s string) string {
	var doc map[string]any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		return s
	}
	delete(doc, "stats")
	out, _ := json.Marshal(doc)
	return string(out)
}

func stripDuration(s string) string {
	var doc map[string]any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		return s
	}
	if stats, ok := doc["stats"].(map[string]any); ok {
		delete(stats, "duration_ms")
	}
	out, _ := json.Marshal(doc)
	return string(out)
}

func TestBadFilesGiveErrorsAndTheRunGoesOn(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad.cu":      hazard,
		"binary.cu":   "\x7fELF\x00\x00\x01cudaMalloc",
		"latin1.cu":   "// caf\xe9\n" + hazard,
		"empty.cu":    "",
		"locked.cu":   hazard,
		"notes.txt":   "cudaMalloc",
		"sub/deep.cu": safe,
	})
	if err := os.Chmod(filepath.Join(dir, "locked.cu"), 0); err != nil {
		t.Fatal(err)
	}
	unreadable := true
	if f, err := os.Open(filepath.Join(dir, "locked.cu")); err == nil {
		f.Close()
		unreadable = false // running as root: permissions do not apply
	}
	code, out, _ := run(t, dir, "check", "--format", "json")
	if code != ExitFailure {
		t.Errorf("exit %d, want %d", code, ExitFailure)
	}
	var doc jsonDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	errs := map[string]string{}
	for _, e := range doc.Errors {
		errs[e.Path] = e.Message
	}
	if !strings.Contains(errs["binary.cu"], "binary file") {
		t.Errorf("binary file: %q", errs["binary.cu"])
	}
	if unreadable && !strings.Contains(errs["locked.cu"], "permission denied") {
		t.Errorf("unreadable file: %q", errs["locked.cu"])
	}
	if _, ok := errs["empty.cu"]; ok {
		t.Errorf("an empty file is not an error: %q", errs["empty.cu"])
	}
	if _, ok := errs["latin1.cu"]; ok {
		t.Errorf("invalid UTF-8 is checked, not an error: %q", errs["latin1.cu"])
	}
	var found []string
	for _, f := range doc.Findings {
		found = append(found, f.Path)
	}
	want := []string{"bad.cu", "latin1.cu"}
	if !unreadable {
		want = []string{"bad.cu", "latin1.cu", "locked.cu"}
	}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("findings in %v, want %v", found, want)
	}
	// Columns count characters: the Latin-1 byte is one character.
	for _, f := range doc.Findings {
		if f.Path == "latin1.cu" && (f.Line != 5 || f.Column != 3) {
			t.Errorf("latin1.cu finding at %d:%d", f.Line, f.Column)
		}
	}
}

func TestGitignoreIsHonoured(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".gitignore":                  "build/\n*.gen.cu\n!keep.gen.cu\n",
		"build/bad.cu":                hazard,
		"third_party/.gitignore":      "vendored/\n",
		"third_party/vendored/bad.cu": hazard,
		"x.gen.cu":                    hazard,
		"keep.gen.cu":                 hazard,
		"src/bad.cu":                  hazard,
		".git/bad.cu":                 hazard,
	})
	_, out, _ := run(t, dir, "check", "--format", "json")
	var doc jsonDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range doc.Findings {
		found = append(found, f.Path)
	}
	want := []string{"keep.gen.cu", filepath.Join("src", "bad.cu")}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("checked %v, want %v", found, want)
	}
	// A file named on the command line is checked even when ignored.
	if code, _, _ := run(t, dir, "check", "build/bad.cu"); code != ExitFindings {
		t.Errorf("explicit ignored file: exit %d", code)
	}
}

func TestRulesAndExplain(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := run(t, dir, "rules")
	if code != 0 || !strings.Contains(out, "LL001") || !strings.Contains(out, "whole-vram-allocation") {
		t.Errorf("rules: %d %q", code, out)
	}
	// For a terminal: no generated-file comment, no Markdown marks, code
	// indented, lines within 80 columns in a pipe.
	code, out, _ = run(t, dir, "explain", "ll001")
	if code != 0 || !strings.HasPrefix(out, "LL001 whole-vram-allocation\n=====") || !strings.Contains(out, "\nWhy it fails under lazy loading\n-----") ||
		strings.Contains(out, "<!--") || strings.Contains(out, "```") || strings.Contains(out, "## ") || !strings.Contains(out, "\n    void init_arena(") {
		t.Errorf("explain: %d %q", code, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if n := len([]rune(line)); n > 80 && !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "  ") {
			t.Errorf("explain: a %d-column line: %q", n, line)
		}
	}
	if code, out, _ := run(t, dir, "explain", "--markdown", "LL000"); code != 0 || !strings.Contains(out, "# LL000 `suppression`") {
		t.Errorf("explain --markdown LL000: %d %q", code, out)
	}
	if code, out, _ := run(t, dir, "explain"); code != 0 || !strings.Contains(out, "LL008  managed-forces-eager") || !strings.Contains(out, "lazylint explain ID") {
		t.Errorf("explain without a rule: %d %q", code, out)
	}
	if code, _, _ := run(t, dir, "explain", "LL999"); code != ExitFailure {
		t.Errorf("explain unknown: %d", code)
	}
	code, out, _ = run(t, dir, "version")
	if code != 0 || !strings.HasPrefix(out, "lazylint "+version.Version) {
		t.Errorf("version: %d %q", code, out)
	}
	// --version prints the same line, as every CLI does.
	if code2, out2, _ := run(t, dir, "--version"); code2 != 0 || out2 != out {
		t.Errorf("--version: %d %q, want %q", code2, out2, out)
	}
}

// TestBundledExamples runs the README's quick-start command.
func TestBundledExamples(t *testing.T) {
	code, out, errs := run(t, filepath.Join("..", ".."), "check", "examples")
	if code != ExitFindings || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if !strings.HasPrefix(out, filepath.Join("examples", "inference-server", "allocator.cpp")+":30:14: warning: ") {
		t.Errorf("output:\n%s", out)
	}
	// One finding per hazard the example shows (examples/README.md).
	for _, id := range []string{"LL001", "LL002", "LL003", "LL004"} {
		if strings.Count(out, " "+id+" ") != 1 {
			t.Errorf("want exactly one %s finding:\n%s", id, out)
		}
	}
}

// TestGoCgoFiles checks that `lazylint check` reports, on the analyzers'
// cgo fixtures, exactly the lines their `// want` comments expect: the same
// findings as go vet -vettool and the golangci-lint plugin.
func TestGoCgoFiles(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "analyzers", "testdata", "src"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"ll001", "ll002", "ll004", "ll006", "ll007"} {
		t.Run(pkg, func(t *testing.T) {
			dir := filepath.Join(root, pkg)
			src, err := os.ReadFile(filepath.Join(dir, "a.go"))
			if err != nil {
				t.Fatal(err)
			}
			var want []int
			for i, line := range strings.Split(string(src), "\n") {
				if strings.Contains(line, "// want `") {
					want = append(want, i+1)
				}
			}
			_, out, _ := run(t, dir, "check", "--format", "json", "--enable", strings.ToUpper(pkg), ".")
			var doc jsonDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var got []int
			for _, f := range doc.Findings {
				if f.Path == "a.go" && f.Rule == strings.ToUpper(pkg) {
					got = append(got, f.Line)
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("findings on lines %v, want %v\n%s", got, want, out)
			}
		})
	}
}

// TestCgoPreambleIsC checks the C code of a cgo preamble with the C rules,
// with positions in the .go file.
func TestCgoPreambleIsC(t *testing.T) {
	dir := writeFiles(t, map[string]string{"p.go": `package p

/*
#include <stddef.h>
int cudaMemGetInfo(size_t *f, size_t *t);
int cudaMalloc(void **p, size_t n);

static void *grab_all(void) {
	size_t free_b, total_b;
	cudaMemGetInfo(&free_b, &total_b);
	void *p = 0;
	cudaMalloc(&p, free_b);
	return p;
}
*/
import "C"

func Grab() { C.grab_all() }
`})
	code, out, _ := run(t, dir, "check", ".")
	if code != ExitFindings || !reported(out, "p.go:12:2:", "LL001", "cudaMalloc") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestSuppressions(t *testing.T) {
	suppressed := strings.Replace(hazard, "cudaMalloc(p, free_b);", "cudaMalloc(p, free_b);  // lazylint:ignore LL001 the pool keeps 1 GiB back", 1)
	nolint := strings.Replace(hazard, "  cudaMalloc(p, free_b);", "  // NOLINTNEXTLINE(lazylint-whole-vram-*)\n  cudaMalloc(p, free_b);", 1)
	noReason := strings.Replace(hazard, "cudaMalloc(p, free_b);", "cudaMalloc(p, free_b);  // lazylint:ignore LL001", 1)
	unused := safe + "int unused = 0;  // NOLINT(lazylint-LL001)\n"
	dir := writeFiles(t, map[string]string{"ignored.cu": suppressed, "nolint.cu": nolint, "noreason.cu": noReason, "unused.cu": unused})

	for _, name := range []string{"ignored.cu", "nolint.cu"} {
		code, out, _ := run(t, dir, "check", "--format", "json", name)
		var doc jsonDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		if code != ExitClean || len(doc.Findings) != 0 || len(doc.Suppressed) != 1 || doc.Suppressed[0].Rule != "LL001" {
			t.Errorf("%s: exit %d, doc %+v", name, code, doc)
		}
	}
	code, out, _ := run(t, dir, "check", "--format", "json", "ignored.cu")
	if !strings.Contains(out, `"justification": "the pool keeps 1 GiB back"`) || code != ExitClean {
		t.Errorf("justification missing:\n%s", out)
	}
	code, out, _ = run(t, dir, "check", "noreason.cu")
	if code != ExitFindings || !reported(out, "noreason.cu:4:27:", "LL000", "lazylint:ignore LL001 needs a reason") || !reported(out, "noreason.cu:4:3:", "LL001", "cudaMalloc") {
		t.Errorf("no reason: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, dir, "check", "unused.cu"); code != ExitClean {
		t.Errorf("unused suppression without the flag: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, dir, "check", "--report-unused-suppressions", "unused.cu")
	if code != ExitFindings || !reported(out, "unused.cu:6:18:", "LL000", "NOLINT(lazylint-LL001) silences no finding") {
		t.Errorf("unused suppression: exit %d\n%s", code, out)
	}
}

func TestOutputFileAndExitZero(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard})
	code, out, _ := run(t, dir, "check", "--format", "sarif", "--output", "report.sarif", "--exit-zero", "bad.cu")
	if code != ExitClean || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.sarif"))
	if err != nil || !strings.Contains(string(data), `"ruleId": "LL001"`) || !strings.Contains(string(data), `"version": "2.1.0"`) {
		t.Fatalf("report.sarif: %v\n%s", err, data)
	}
	if code, _, _ := run(t, dir, "check", "--exit-zero", "bad.cu", "missing.cu"); code != ExitFailure {
		t.Errorf("--exit-zero with a file error: exit %d, want 2", code)
	}
	for _, format := range []string{"github", "checkstyle"} {
		if code, out, _ := run(t, dir, "check", "--format", format, "bad.cu"); code != ExitFindings || !strings.Contains(out, "LL001") {
			t.Errorf("%s: exit %d\n%s", format, code, out)
		}
	}
	if code, _, errs := run(t, dir, "check", "--output", filepath.Join(dir, "no", "such", "dir", "r.json"), "bad.cu"); code != ExitFailure || !strings.Contains(errs, "cannot write the report") {
		t.Errorf("unwritable output: exit %d %q", code, errs)
	}
}

func TestGoNolint(t *testing.T) {
	src := "package a\n\n/*\nint cuModuleGetLoadingMode(int *mode);\n*/\nimport \"C\"\n\nfunc probe() {\n\tvar m C.int\n" +
		"\tC.cuModuleGetLoadingMode(&m) //nolint:lazylint // the caller ran cuInit\n" +
		"\t//nolint:lazylint\n" +
		"\tC.cuModuleGetLoadingMode(&m)\n" +
		"\tC.cuModuleGetLoadingMode(&m) //nolint:errcheck\n}\n"
	dir := writeFiles(t, map[string]string{"a.go": src})
	code, out, _ := run(t, dir, "check", "--format", "json", ".")
	var doc jsonDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != ExitFindings || len(doc.Findings) != 1 || doc.Findings[0].Line != 13 || len(doc.Suppressed) != 2 ||
		doc.Suppressed[0].Suppression.Justification != "the caller ran cuInit" {
		t.Errorf("exit %d, doc %+v", code, doc)
	}
}

// --fail-on (and fail-on in the config) sets the lowest severity that
// fails a run; silent successes and impossible combinations say so.
func TestFailOnAndUsage(t *testing.T) {
	dir := t.TempDir()
	info := "__managed__ int counter;\n__global__ void k() { counter++; }\n" // LL008 (info)
	if err := os.WriteFile(filepath.Join(dir, "m.cu"), []byte(info), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run(t, dir, "check", "--no-config", "m.cu"); code != 0 || !strings.Contains(out, "LL008") {
		t.Errorf("an info finding under the default --fail-on warning: exit %d, output %q", code, out)
	}
	if code, _, _ := run(t, dir, "check", "--no-config", "--fail-on", "info", "m.cu"); code != ExitFindings {
		t.Errorf("--fail-on info: exit %d, want %d", code, ExitFindings)
	}
	if err := os.WriteFile(filepath.Join(dir, ".lazylint.yml"), []byte("fail-on: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := run(t, dir, "check", "m.cu"); code != ExitFindings {
		t.Errorf("fail-on: info in the config: exit %d, want %d", code, ExitFindings)
	}
	if code, _, _ := run(t, dir, "check", "--fail-on", "error", "m.cu"); code != 0 {
		t.Errorf("--fail-on error over the config's info: exit %d, want %d", code, 0)
	}
	if err := os.WriteFile(filepath.Join(dir, ".lazylint.yml"), []byte("fail-on: fatal\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, dir, "check", "m.cu"); code != ExitFailure || !strings.Contains(errs, ".lazylint.yml:1:") {
		t.Errorf("a bad fail-on: exit %d, stderr %q", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--no-config", "--fail-on", "fatal", "m.cu"}, "bad --fail-on"},
		{[]string{"check", "--no-config", "-j", "-3", "m.cu"}, "bad --jobs -3"},
		{[]string{"check", "--no-config", "--diff", "-f", "json", "m.cu"}, "cannot be combined with --format"},
		{[]string{"check", "--no-config", "--diff", "--write-baseline", "b.json", "m.cu"}, "cannot be combined with --write-baseline"},
		{[]string{"check", "--no-config", "--baseline", "missing.json", "m.cu"}, "baseline file missing.json does not exist; create it with --write-baseline"},
	} {
		if code, _, errs := run(t, dir, c.args...); code != ExitFailure || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, dir, "check", "--no-config", "empty"); code != 0 || !strings.Contains(errs, "no C, C++, CUDA or cgo files to check in empty") {
		t.Errorf("an empty folder: exit %d, stderr %q", code, errs)
	}
}

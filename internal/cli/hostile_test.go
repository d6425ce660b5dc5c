package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile input: each file gives a normal result or a clear error of its
// own, the others are still checked, the exit code is as documented, and
// nothing panics or hangs.
func TestHostileInputMatrix(t *testing.T) {
	long := strings.Repeat("x", 100_000)
	files := map[string]string{
		"hazard.cu":       hazard, // the control: still found
		"nul_late.cu":     strings.Repeat("int a;\n", 2000) + "\x00\x00" + hazard,
		"invalid_utf8.cu": "\xff\xfe\xfd\n" + hazard,
		// Allocations in a loop, so that LL001's prefilter lets them be parsed.
		"nested_braces.cu":  "void f() { while (n) " + strings.Repeat("{", 20000) + "cudaMalloc(p, n);" + strings.Repeat("}", 20000) + "}\n",
		"unbalanced.cu":     "void f() { while (n) " + strings.Repeat("{", 20000) + "cudaMalloc(p, n);\n",
		"long_line.cu":      "int x = " + long + ";\n" + hazard,
		"long_string.cu":    "const char *s = \"" + long + "\";\n" + hazard,
		"conflict.cu":       "<<<<<<< HEAD\n" + hazard + "=======\n" + safe + ">>>>>>> feature\n",
		"open_comment.cu":   hazard + "/* never closed\ncudaMalloc(p, free_b);\n",
		"open_string.cu":    "const char *s = \"never closed\n" + hazard,
		"open_raw.cu":       "auto s = R\"x(never closed\n" + hazard,
		"open_launch.cu":    "void g() { k<<<1, 1(p); cudaMalloc(p, 1); }\n" + hazard,
		"lone_chevrons.cu":  ">>> <<< >>>\n" + hazard,
		"crlf.cu":           strings.ReplaceAll(hazard, "\n", "\r\n"),
		"only_newlines.cuh": strings.Repeat("\n", 100000),
		"directives.cu":     strings.Repeat("#if A\n", 5000) + hazard + strings.Repeat("#endif\n", 4000),
	}
	dir := writeFiles(t, files)
	// A symbolic link loop and a link to a missing file.
	if err := os.Symlink("loop_b.cu", filepath.Join(dir, "loop_a.cu")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop_a.cu", filepath.Join(dir, "loop_b.cu")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "self")); err != nil { // a folder link to itself: not followed
		t.Fatal(err)
	}
	code, out, errs := run(t, dir, "check", "--format", "json", ".", "hazard.cu", "./hazard.cu")
	var doc jsonDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s\n%s", err, out, errs)
	}
	if code != ExitFailure {
		t.Errorf("exit %d, want %d (the loop links are errors)", code, ExitFailure)
	}
	byPath := map[string]int{}
	for _, f := range doc.Findings {
		byPath[f.Path]++
	}
	for _, e := range doc.Errors {
		if strings.Contains(e.Message, "internal error") {
			t.Errorf("%s: %s", e.Path, e.Message)
		}
		if !strings.HasPrefix(e.Path, "loop_") {
			t.Errorf("unexpected error %s: %s", e.Path, e.Message)
		}
	}
	if len(doc.Errors) != 2 {
		t.Errorf("want the two loop links as errors, got %+v", doc.Errors)
	}
	// The hazard named twice (and reached by the walk) is checked once.
	if byPath["hazard.cu"] != 1 {
		t.Errorf("hazard.cu: %d findings", byPath["hazard.cu"])
	}
	for _, name := range []string{"nul_late.cu", "invalid_utf8.cu", "long_line.cu", "long_string.cu", "crlf.cu", "open_launch.cu", "lone_chevrons.cu"} {
		if byPath[name] == 0 {
			t.Errorf("%s: the hazard after the hostile part was not found", name)
		}
	}
	if doc.Stats.Files != len(files) {
		t.Errorf("files: %d, want %d", doc.Stats.Files, len(files))
	}
}

// A file over the parse limit is reported by name as not checked; the
// others are checked.
func TestParseLimitNamesTheFile(t *testing.T) {
	var big strings.Builder
	for big.Len() < 20<<20 {
		big.WriteString("void f(void **p, size_t n) { while (n--) { cudaMalloc(p, n); } }\n")
	}
	dir := writeFiles(t, map[string]string{"generated.cuh": big.String(), "hazard.cu": hazard})
	code, out, errs := run(t, dir, "check", "--no-cache", "--max-parse-mib", "0", "--parse-limit", "50ms", ".")
	if code != ExitFailure || !reported(out, "hazard.cu:4:3:", "LL001", "") ||
		!strings.Contains(errs, "generated.cuh: error: not checked: parse time limit exceeded") || !strings.Contains(errs, "--parse-limit") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	// The size bound comes first, and costs nothing: no parse is tried.
	code, out, errs = run(t, dir, "check", "--no-cache", "--max-parse-mib", "16", ".")
	if code != ExitFailure || !reported(out, "hazard.cu:4:3:", "LL001", "") ||
		!strings.Contains(errs, "generated.cuh: error: not checked: 20.0 MiB is over the 16 MiB parse limit") {
		t.Errorf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	// The default keeps a check under 1 GB, and the message says what
	// raising it costs instead of inviting it (issue 23 item 2).
	code, _, errs = run(t, dir, "check", "--no-cache", ".")
	if code != ExitFailure || !strings.Contains(errs, "over the 4 MiB parse limit (parsing it would take about 3.1 GB of memory;") ||
		strings.Contains(errs, "raise it with --max-parse-mib") {
		t.Errorf("default limit: exit %d\nstderr %s", code, errs)
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestGoVetBindings runs go vet with the vet tool on the analyzers'
// binding fixture (a cgo binding module and an application module that
// calls it through a wrapper package, joined by go.work): the unit checker
// carries the binding's facts to its callers, and go vet reports exactly
// the lines the fixture's `// want` comments expect, the same ones
// analysistest and lazylint check report.
func TestGoVetBindings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go vet")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("cgo needs a C compiler")
	}
	dir, tool := buildVetTool(t)
	root := filepath.Join(dir, "gobind")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "analyzers", "testdata", "gobind"))); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "vet", "-vettool="+tool, "example.com/app/...", "example.com/cubind")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "CGO_ENABLED=1")
	out, _ := cmd.CombinedOutput()
	wants := fixtureWants(t, root)
	got := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := vetLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		got++
		key := filepath.ToSlash(m[1]) + ":" + m[2]
		if !matchWant(wants, key, m[3]) {
			t.Errorf("unexpected: %s", line)
		}
	}
	for key, ws := range wants {
		for _, w := range ws {
			if !w.matched {
				t.Errorf("%s: no finding matching %s", key, w.re)
			}
		}
	}
	if got == 0 {
		t.Fatalf("go vet found nothing:\n%s", out)
	}
}

// vetLine is a line of go vet's output: file, line, column, message.
var vetLine = regexp.MustCompile(`^(?:\./)?(\S+\.go):(\d+):\d+: (LL\d{3} .*)$`)

type want struct {
	re      *regexp.Regexp
	matched bool
}

// fixtureWants reads the `// want` comments of the .go files under root,
// by "relative/path.go:line".
func fixtureWants(t *testing.T, root string) map[string][]*want {
	t.Helper()
	out := map[string][]*want{}
	pattern := regexp.MustCompile("`([^`]*)`")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(src), "\n") {
			_, comment, ok := strings.Cut(line, "// want ")
			if !ok {
				continue
			}
			for _, m := range pattern.FindAllStringSubmatch(comment, -1) {
				key := filepath.ToSlash(rel) + ":" + itoa(i+1)
				out[key] = append(out[key], &want{re: regexp.MustCompile(m[1])})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// matchWant marks the first unmatched expectation of key that msg matches.
func matchWant(wants map[string][]*want, key, msg string) bool {
	for k, ws := range wants {
		if !strings.HasSuffix(key, k) {
			continue
		}
		for _, w := range ws {
			if !w.matched && w.re.MatchString(msg) {
				w.matched = true
				return true
			}
		}
	}
	return false
}

func itoa(i int) string { return strconv.Itoa(i) }

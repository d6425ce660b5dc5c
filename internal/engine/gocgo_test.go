package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
)

// goRules are stand-ins for the Go analyzers' rules: the analyzers take
// only the IDs; the prefilter keeps the C rules off the cgo preambles.
func goRules() []*rule.Rule {
	var out []*rule.Rule
	for _, id := range []string{"LL001", "LL002", "LL004", "LL005", "LL006", "LL007"} {
		out = append(out, &rule.Rule{ID: id, Name: strings.ToLower(id), Severity: rule.Warning, Prefilter: func(*rule.Text) bool { return false }})
	}
	return out
}

// fixtureGoFiles lists the .go files under dir.
func fixtureGoFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wantLines reads the `// want` patterns of the files, by "path:line"
// relative to base.
func wantLines(t *testing.T, base string, files []string) map[string][]*regexp.Regexp {
	t.Helper()
	quoted := regexp.MustCompile("`([^`]*)`")
	out := map[string][]*regexp.Regexp{}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(base, p)
		for i, line := range strings.Split(string(src), "\n") {
			if _, c, ok := strings.Cut(line, "// want "); ok {
				for _, m := range quoted.FindAllStringSubmatch(c, -1) {
					key := filepath.ToSlash(rel) + ":" + strconv.Itoa(i+1)
					out[key] = append(out[key], regexp.MustCompile(m[1]))
				}
			}
		}
	}
	return out
}

// checkAgainstWants runs checkGo on files and compares its findings with
// the wants, one finding for each.
func checkAgainstWants(t *testing.T, base string, files []string, wants map[string][]*regexp.Regexp) {
	t.Helper()
	settings := Settings{Rules: goRules()}
	res := checkGo(files, func(string) Settings { return settings }, base, os.ReadFile, Options{})
	for _, e := range res.errors {
		t.Errorf("error: %s: %s", e.Path, e.Message)
	}
	var unexpected []string
	for _, f := range res.findings {
		key := filepath.ToSlash(f.Path) + ":" + strconv.Itoa(f.Start.Line)
		msg := f.Rule.ID + " " + f.Message
		if !consume(wants[key], msg) {
			unexpected = append(unexpected, key+": "+msg)
		}
	}
	for _, u := range unexpected {
		t.Errorf("unexpected finding %s", u)
	}
	for key, ws := range wants {
		for _, w := range ws {
			if w != nil {
				t.Errorf("%s: no finding matching %s", key, w)
			}
		}
	}
}

// consume clears the first pattern of ws that msg matches.
func consume(ws []*regexp.Regexp, msg string) bool {
	for i, w := range ws {
		if w != nil && w.MatchString(msg) {
			ws[i] = nil
			return true
		}
	}
	return false
}

// TestGoBindingsCheck: lazylint check's Go step finds, on the binding
// fixture (a cgo binding module, an application module with a wrapper
// package, joined by go.work), exactly the findings its `// want` comments
// expect, which are also what go vet -vettool and analysistest report.
func TestGoBindingsCheck(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "analyzers", "testdata", "gobind"))
	if err != nil {
		t.Fatal(err)
	}
	files := fixtureGoFiles(t, root)
	checkAgainstWants(t, root, files, wantLines(t, root, files))
}

// TestGoBindingsCheckOneFolder: checking one package of the application
// reads the binding it imports (through go.mod's replace) for its facts
// only: the package's findings are all there, and none of the binding's.
func TestGoBindingsCheckOneFolder(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "analyzers", "testdata", "gobind"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "app", "ll005")
	files := fixtureGoFiles(t, dir)
	wants := wantLines(t, dir, files)
	if len(wants) == 0 {
		t.Fatal("no wants")
	}
	checkAgainstWants(t, dir, files, wants)
}

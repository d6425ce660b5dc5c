// Package ruletest runs a rule over fixture files whose expected findings are
// written inline, on the line they are reported at:
//
//	cudaMalloc(&p, free);  // want LL001 "free memory"
//
// Each `want ID "regexp"` must be matched by a finding of that rule on that
// line whose message matches the (RE2) regexp; a line may carry several. Any
// finding without a matching expectation, and any expectation without a
// finding, fails the test. A file with no expectations must stay silent.
package ruletest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
)

var wantRE = regexp.MustCompile(`want\s+(LL[0-9]{3})((?:\s+"(?:[^"\\]|\\.)*")+)`)
var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// Expectation is one expected finding.
type Expectation struct {
	Line    int
	RuleID  string
	Message *regexp.Regexp
}

// ParseExpectations reads the `want` comments of a fixture.
func ParseExpectations(src []byte) ([]Expectation, error) {
	var out []Expectation
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
			for _, q := range quotedRE.FindAllString(m[2], -1) {
				text, err := strconv.Unquote(q)
				if err != nil {
					return nil, fmt.Errorf("line %d: bad quoted regexp %s: %w", i+1, q, err)
				}
				re, err := regexp.Compile(text)
				if err != nil {
					return nil, fmt.Errorf("line %d: bad regexp %q: %w", i+1, text, err)
				}
				out = append(out, Expectation{Line: i + 1, RuleID: m[1], Message: re})
			}
		}
	}
	return out, nil
}

// Fixtures lists the source files in dir.
func Fixtures(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("reading fixtures: %v", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && cudaparse.IsSource(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatalf("no fixtures in %s", dir)
	}
	return out
}

// okRE marks a negative case: a line that must stay silent, with the reason
// (`// ok: half of free memory leaves room`).
var okRE = regexp.MustCompile(`(//|/\*)\s*ok:`)

// Run checks every fixture in dir with r alone and compares the findings
// with the file's expectations. It returns the number of expectations
// (positive cases) and of lines marked `ok:` (negative cases, which must
// stay silent like every line without an expectation), so that callers can
// insist on both.
func Run(t *testing.T, r *rule.Rule, dir string) (positives, negatives int) {
	t.Helper()
	for _, path := range Fixtures(t, dir) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ParseExpectations(src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		positives += len(want)
		negatives += len(okRE.FindAllIndex(src, -1))
		got, err := Check(r, path, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, msg := range Compare(want, got) {
			t.Errorf("%s:%s", path, msg)
		}
	}
	return positives, negatives
}

// MinimumCases is how many positive and negative cases every rule's
// fixtures must hold.
const MinimumCases = 10

// RunAll is the standard test of a rule: its fixtures in testdata, with at
// least MinimumCases positive and negative cases, and its doc's examples.
func RunAll(t *testing.T, r *rule.Rule) {
	t.Helper()
	t.Run("fixtures", func(t *testing.T) {
		positives, negatives := Run(t, r, "testdata")
		if positives < MinimumCases || negatives < MinimumCases {
			t.Errorf("%d positive and %d negative cases; want at least %d of each", positives, negatives, MinimumCases)
		}
	})
	t.Run("doc examples", func(t *testing.T) { DocExamples(t, r) })
}

// Check runs r over one file's contents, as the CLI does by default.
func Check(r *rule.Rule, path string, src []byte) ([]engine.Finding, error) {
	c := &engine.Checker{Rules: []*rule.Rule{r}}
	return c.Check(path, src)
}

// Compare matches findings against expectations and describes every
// mismatch as "line: problem".
func Compare(want []Expectation, got []engine.Finding) []string {
	used := make([]bool, len(want))
	var problems []string
	for _, f := range got {
		matched := false
		for i, w := range want {
			if !used[i] && w.Line == f.Start.Line && w.RuleID == f.Rule.ID && w.Message.MatchString(f.Message) {
				used[i], matched = true, true
				break
			}
		}
		if !matched {
			problems = append(problems, fmt.Sprintf("%d:%d: unexpected %s finding: %s", f.Start.Line, f.Start.Column, f.Rule.ID, f.Message))
		}
	}
	for i, w := range want {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("%d: missing %s finding matching %q", w.Line, w.RuleID, w.Message))
		}
	}
	return problems
}

var codeBlockRE = regexp.MustCompile("(?s)```cuda\n(.*?)```")

// DocExamples checks that the code in a rule doc's "Example" section is
// reported and the code in its "Fix" section is not, so that docs cannot
// drift from behaviour.
func DocExamples(t *testing.T, r *rule.Rule) {
	t.Helper()
	for _, sec := range []struct {
		name   string
		report bool
	}{{"Example", true}, {"Fix", false}} {
		body := Section(r.Doc, sec.name)
		blocks := codeBlockRE.FindAllStringSubmatch(body, -1)
		if len(blocks) == 0 {
			t.Errorf("%s doc: section %q has no ```cuda code block", r.ID, sec.name)
			continue
		}
		for _, b := range blocks {
			got, err := Check(r, "doc.cu", []byte(b[1]))
			if err != nil {
				t.Errorf("%s doc %s: %v", r.ID, sec.name, err)
			}
			if sec.report && len(got) == 0 {
				t.Errorf("%s doc: the %s code is not reported:\n%s", r.ID, sec.name, b[1])
			}
			if !sec.report && len(got) > 0 {
				t.Errorf("%s doc: the %s code is reported: %s", r.ID, sec.name, got[0].Message)
			}
		}
	}
}

// Section returns the body of the Markdown section "## name".
func Section(doc, name string) string {
	start := strings.Index(doc, "## "+name+"\n")
	if start < 0 {
		return ""
	}
	body := doc[start+len("## "+name+"\n"):]
	if end := strings.Index(body, "\n## "); end >= 0 {
		body = body[:end]
	}
	return body
}

// ApplyFix returns src with the fix's edits applied; bad edits panic, as
// they are the rule's bug.
func ApplyFix(src []byte, fix rule.Fix) []byte {
	out, err := rule.ApplyEdits(src, fix.Edits)
	if err != nil {
		panic(fmt.Sprintf("fix %q: %v", fix.Message, err))
	}
	return out
}

// RunProjects checks every folder under dir (testdata/project/NAME) as one
// project with r alone: files are linked as lazylint check links a
// repository, and each file's findings are compared with its own `want`
// comments, in any file of the folder. It returns the positive and
// negative cases, as Run does.
func RunProjects(t *testing.T, r *rule.Rule, dir string) (positives, negatives int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("reading project fixtures: %v", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		root, err := filepath.Abs(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		res := engine.Run(engine.Options{Paths: []string{root}, Rules: []*rule.Rule{r}, BaseDir: root, Workers: 2})
		for _, fe := range res.Errors {
			t.Errorf("%s: %s", filepath.Join(root, fe.Path), fe.Message)
		}
		byPath := map[string][]engine.Finding{}
		for _, f := range res.Findings {
			byPath[f.Path] = append(byPath[f.Path], f)
		}
		for _, path := range projectFixtures(t, root) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ParseExpectations(src)
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			positives += len(want)
			negatives += len(okRE.FindAllIndex(src, -1))
			rel, _ := filepath.Rel(root, path)
			for _, msg := range Compare(want, byPath[rel]) {
				t.Errorf("%s:%s", path, msg)
			}
		}
	}
	return positives, negatives
}

// projectFixtures lists the source files under root, in subfolders too.
func projectFixtures(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && cudaparse.IsSource(path) {
			out = append(out, path)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("no fixtures in %s (%v)", root, err)
	}
	sort.Strings(out)
	return out
}

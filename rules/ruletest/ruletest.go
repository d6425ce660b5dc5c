// Package ruletest runs a rule over fixture files whose expected findings are
// written inline, on the line they are reported at:
//
//	cudaMalloc(&p, free);  // want LL001 "free memory"
//
// Each `want ID "regexp"` must be matched by a finding of that rule on that
// line whose message matches the (RE2) regexp; a line may carry several. Any
// finding without a matching expectation, and any expectation without a
// finding, fails the test. A file with no expectations must stay silent.
//
// A fixture whose findings carry suggested fixes is fixed as
// `lazylint check --fix` would fix it, and the result must equal the
// golden file beside it (x.cu -> x.cu.golden); the fixed text is checked
// again and must not be reported for what was fixed. A rule that offers
// fixes cannot skip this: a fixture with fixes and no golden file fails.
// Write the golden files with `go test ./rules/llNNN -update-golden`, then
// read them: a fix that writes wrong code is a bug, not a new golden file.
package ruletest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
)

var updateGolden = flag.Bool("update-golden", false, "write the golden files of fixtures whose findings carry fixes (x.cu.golden), instead of comparing with them")

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
		checkFixes(t, path, got, func(fixed []byte) ([]engine.Finding, error) { return Check(r, path, fixed) })
	}
	return positives, negatives
}

// GoldenSuffix ends the name of the file a fixture's fixed text is
// compared with; BugSuffix, after it, the name of the note that records
// fixes known to write something else than the golden file.
const (
	GoldenSuffix = ".golden"
	BugSuffix    = ".bug"
)

// checkFixes applies the fixes of a fixture's findings as --fix does
// (engine.PlanFixes: the first fix of each finding, in order, skipping
// one that overlaps a fix taken before it) and compares the result with
// the golden file path+GoldenSuffix, which holds the right text. It checks
// the golden text again with recheck: what was fixed must not be reported
// with a fix any more. A fixture without fixes must have no golden file.
//
// A fix known to be wrong is not blessed into the golden file: the golden
// file keeps the right text, and path.golden.bug records the bug, as
// comment lines (#) saying what is wrong followed by the diff from the
// golden text to what the rule writes. While the rule writes exactly that,
// the test logs it and passes; when the rule writes the golden text, the
// test fails until the note is deleted; anything else fails.
func checkFixes(t testing.TB, path string, got []engine.Finding, recheck func(fixed []byte) ([]engine.Finding, error)) {
	t.Helper()
	golden := path + GoldenSuffix
	withFix := 0
	for _, f := range got {
		if len(f.Fixes) > 0 {
			withFix++
		}
	}
	_, statErr := os.Stat(golden)
	if withFix == 0 {
		if statErr == nil {
			t.Errorf("%s: no finding carries a fix, but %s exists: remove it", path, golden)
		}
		return
	}
	plans, errs := engine.PlanFixes(got)
	for _, e := range errs {
		t.Errorf("%s: %s", e.Path, e.Message)
	}
	if len(plans) != 1 {
		t.Errorf("%s: %d findings carry fixes, but the fixes change %d files", path, withFix, len(plans))
		return
	}
	fixed := plans[0].Encoded()
	bug := golden + BugSuffix
	notes, knownDiff, known := readBug(t, bug)
	if *updateGolden && !known {
		if err := os.WriteFile(golden, fixed, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Errorf("%s: %d findings carry fixes but there is no golden file to compare the fixed text with: write %s with go test -update-golden and read it", path, withFix, golden)
		return
	}
	diff := udiff.Unified(filepath.Base(golden), filepath.Base(path)+" (fixed)", string(want), string(fixed))
	if *updateGolden && known && diff != "" {
		if err := os.WriteFile(bug, []byte(notes+diff), 0o644); err != nil {
			t.Fatal(err)
		}
		knownDiff = diff
	}
	switch {
	case diff == "" && known:
		t.Errorf("%s: the fixes now write %s: the bug %s records is gone, delete it", path, golden, bug)
	case diff == "":
	case known && diff == knownDiff:
		t.Logf("%s: fixes known to be wrong (%s):\n%s%s", path, bug, notes, diff)
	default:
		t.Errorf("%s: the fixed text differs from %s:\n%s", path, golden, diff)
	}
	again, err := recheck(want)
	if err != nil {
		t.Errorf("%s (%s): %v", path, golden, err)
		return
	}
	var still []string
	for _, f := range again {
		if len(f.Fixes) > 0 {
			still = append(still, fmt.Sprintf("%d: %s", f.Start.Line, f.Message))
		}
	}
	if len(still) > plans[0].Skipped {
		t.Errorf("%s: with %d fixes applied (%d skipped as overlapping), %s is still reported with a fix:\n%s",
			path, plans[0].Applied, plans[0].Skipped, golden, strings.Join(still, "\n"))
	}
}

// readBug reads a note of fixes known to be wrong: its comment lines, and
// the diff after them.
func readBug(t testing.TB, path string) (notes, diff string, ok bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for strings.HasPrefix(text, "#") {
		end := strings.IndexByte(text, '\n') + 1
		if end == 0 {
			end = len(text)
		}
		notes, text = notes+text[:end], text[end:]
	}
	return notes, text, true
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
			// PlanFixes reads the file the findings name: name it whole.
			abs := make([]engine.Finding, len(byPath[rel]))
			for i, f := range byPath[rel] {
				f.Path = path
				abs[i] = f
			}
			checkFixes(t, path, abs, func(fixed []byte) ([]engine.Finding, error) {
				return recheckProject(t, r, root, rel, fixed)
			})
		}
	}
	return positives, negatives
}

// recheckProject checks a copy of the project at root in which the file
// rel reads fixed, and returns that file's findings.
func recheckProject(t *testing.T, r *rule.Rule, root, rel string, fixed []byte) ([]engine.Finding, error) {
	t.Helper()
	copyRoot := t.TempDir()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, GoldenSuffix) || strings.HasSuffix(p, BugSuffix) {
			return err
		}
		sub, _ := filepath.Rel(root, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if sub == rel {
			data = fixed
		}
		dst := filepath.Join(copyRoot, sub)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return nil, err
	}
	res := engine.Run(engine.Options{Paths: []string{copyRoot}, Rules: []*rule.Rule{r}, BaseDir: copyRoot, Workers: 2})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("%s: %s", res.Errors[0].Path, res.Errors[0].Message)
	}
	var out []engine.Finding
	for _, f := range res.Findings {
		if f.Path == rel {
			out = append(out, f)
		}
	}
	return out, nil
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

package metamorphic

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aymanbagabas/go-udiff"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
	"github.com/lazylint/lazylint/rules/ruletest"
)

var (
	updateRatchet = flag.Bool("update-ratchet", false, "write the current survival counts to "+ratchetFile)
	showFailures  = flag.Bool("show-failures", false, "print every failing variant with its diff, not only those of rules below their ratchet")
	showVariants  = flag.String("show-variants", "", "print the diff of every variant whose name (rule, fixture, transformation, site) matches this regexp")
	parseCheck    = flag.Bool("parse-check", false, "parse every variant first and skip those with more parse errors than their original (a check of the transformations; doubles the time)")
)

// ratchetFile holds, per rule, how many variants keep their findings.
const ratchetFile = "testdata/ratchet.txt"

// detailLimit is how many failing variants of a rule are printed with
// their diffs; the others are listed by name.
const detailLimit = 25

// TestMetamorphic runs every rule's fixtures through every transformation
// and fails when a rule keeps the findings of fewer variants than the
// ratchet records. With -v it prints the table per rule and per
// transformation.
func TestMetamorphic(t *testing.T) {
	all := generate(t)
	runJobs(t, all)
	if *compileCheck {
		compileVariants(t, all)
	}
	if *showVariants != "" {
		re := regexp.MustCompile(*showVariants)
		for _, j := range all {
			if re.MatchString(j.name()) && j.built != nil {
				t.Logf("%s: survived %v\n%s", j.name(), j.survived(), j.fullDiff())
			}
		}
	}
	results := tally(all)
	t.Log("\n" + table(results))
	t.Log("\n" + transformTable(all))
	ratchet := readRatchet(t)
	if *updateRatchet {
		writeRatchet(t, results)
		return
	}
	checkRatchet(t, results, ratchet)
	for _, j := range all {
		if j.skipped != "" && *showFailures {
			t.Logf("%s: skipped: %s", j.name(), j.skipped)
		}
		if j.err != nil {
			t.Errorf("%s: %v", j.name(), j.err)
		}
	}
}

// generate makes the variants of every rule's fixtures.
func generate(t *testing.T) []*job {
	t.Helper()
	parser, err := cudaparse.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer parser.Close()
	var all []*job
	for _, r := range rules.All {
		for _, fx := range loadFixtures(t, parser, filepath.Join("..", strings.ToLower(r.ID), "testdata")) {
			for _, tr := range transforms {
				for _, c := range tr.apply(fx) {
					all = append(all, &job{rule: r, fx: fx, transform: tr.name, cand: c})
				}
			}
		}
	}
	return all
}

// checkRatchet fails for each rule below its ratchet, printing its failing
// variants (every rule's with -show-failures).
func checkRatchet(t *testing.T, results []*ruleResult, ratchet map[string]int) {
	t.Helper()
	var shown []*ruleResult
	for _, res := range results {
		if want, known := ratchet[res.rule]; known && res.surviving < want || *showFailures && len(res.failed) > 0 {
			shown = append(shown, res)
		}
	}
	diagnose(t, shown)
	for _, res := range results {
		want, known := ratchet[res.rule]
		switch {
		case !known:
			t.Errorf("%s has no line in %s: run go test ./rules/metamorphic -run TestMetamorphic -update-ratchet", res.rule, ratchetFile)
		case res.surviving < want:
			t.Errorf("%s: %d of %d variants keep their findings; the ratchet (%s) says %d. The failing variants:\n%s",
				res.rule, res.surviving, res.variants, ratchetFile, want, describeFailures(res.failed))
		case *showFailures && len(res.failed) > 0:
			t.Logf("%s: failing variants:\n%s", res.rule, describeFailures(res.failed))
		}
		if known && res.surviving > want {
			t.Logf("%s keeps %d variants, more than the ratchet's %d: raise it (-update-ratchet)", res.rule, res.surviving, want)
		}
	}
}

// diagnose checks, for each failing variant of the rules to print that
// rewrote several sites at once, each site alone, so that the report can
// say which fail by themselves.
func diagnose(t *testing.T, results []*ruleResult) {
	t.Helper()
	var sub []*job
	for _, res := range results {
		for _, j := range res.failed {
			if j.cand.parts == nil {
				continue
			}
			for _, c := range j.cand.parts() {
				p := &job{rule: j.rule, fx: j.fx, transform: j.transform, cand: c}
				j.parts = append(j.parts, p)
				sub = append(sub, p)
			}
		}
	}
	if len(sub) > 0 {
		runJobs(t, sub)
	}
}

// job is one variant of one rule's fixture, and what checking it gave.
type job struct {
	rule      *rule.Rule
	fx        *fixture
	transform string
	cand      candidate
	// built is the variant; skipped says why it was not checked.
	built   *built
	skipped string
	lost    []found
	gained  []found
	err     error
	dur     time.Duration
	// parts are the variant's sites checked one by one (diagnose).
	parts []*job
}

func (j *job) name() string {
	return j.rule.ID + " " + j.fx.name + " " + j.transform + " @ " + strings.TrimSpace(j.cand.site)
}

func (j *job) survived() bool {
	return j.skipped == "" && j.err == nil && len(j.lost) == 0 && len(j.gained) == 0
}

// project reports whether the variant is checked as a project.
func (j *job) project() bool { return j.fx.project || j.cand.project }

// found is a finding, where it is.
type found struct {
	rule    string
	path    string
	line    int
	off     int
	message string
}

// loadFixtures reads a rule's fixtures: each source file of dir, checked
// alone, and each folder of dir/project, checked as a project.
func loadFixtures(t *testing.T, parser *cudaparse.Parser, dir string) []*fixture {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []*fixture
	for _, e := range entries {
		if !e.IsDir() && cudaparse.IsSource(e.Name()) {
			src, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, newFixture(t, parser, e.Name(), map[string][]byte{e.Name(): src}, false))
		}
	}
	projects, err := os.ReadDir(filepath.Join(dir, "project"))
	if err != nil {
		return out
	}
	for _, e := range projects {
		if !e.IsDir() {
			continue
		}
		root := filepath.Join(dir, "project", e.Name())
		files := map[string][]byte{}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(p, ruletest.GoldenSuffix) || strings.HasSuffix(p, ruletest.BugSuffix) {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = src
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, newFixture(t, parser, "project/"+e.Name(), files, true))
	}
	return out
}

func newFixture(t *testing.T, parser *cudaparse.Parser, name string, files map[string][]byte, project bool) *fixture {
	t.Helper()
	fx := &fixture{name: name, files: files, project: project, parsed: map[string]*cudaparse.File{}}
	for p, src := range files {
		if !cudaparse.IsSource(p) {
			continue
		}
		f, err := parser.Parse(p, src)
		if err != nil {
			t.Fatalf("%s: %s: %v", name, p, err)
		}
		fx.parsed[p] = f
	}
	return fx
}

// runJobs builds and checks every variant, one fixture's variants after
// another on one worker per core, so that the worker's incremental parser
// reparses only what a variant changed.
func runJobs(t *testing.T, jobs []*job) {
	t.Helper()
	var batches [][]*job
	for i, j := range jobs {
		if i == 0 || jobs[i-1].fx != j.fx || jobs[i-1].rule != j.rule {
			batches = append(batches, nil)
		}
		batches[len(batches)-1] = append(batches[len(batches)-1], j)
	}
	tmp := t.TempDir()
	work := make(chan []*job)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c, err := newChecker(filepath.Join(tmp, "w"+strconv.Itoa(w)))
			if err != nil {
				panic(err)
			}
			defer c.close()
			for batch := range work {
				base := map[bool]*baseline{}
				for _, j := range batch {
					j.run(c, base)
				}
			}
		}(w)
	}
	for _, b := range batches {
		work <- b
	}
	close(work)
	wg.Wait()
}

// baseline is the original fixture's findings, checked one way.
type baseline struct {
	findings []found
	err      error
}

func (j *job) run(c *checker, base map[bool]*baseline) {
	start := time.Now()
	defer func() { j.dur = time.Since(start) }()
	b, err := j.cand.rw.build()
	if err != nil {
		j.skipped = "does not apply: " + err.Error()
		return
	}
	j.built = b
	if *parseCheck {
		if why := parsesWorse(c.parser, j.fx, b); why != "" {
			j.skipped = why
			return
		}
	}
	orig, ok := base[j.project()]
	if !ok {
		orig = &baseline{}
		orig.findings, orig.err = c.check(j.rule, j.fx.files, j.project())
		base[j.project()] = orig
	}
	if orig.err != nil {
		j.err = fmt.Errorf("checking the original: %w", orig.err)
		return
	}
	got, err := c.check(j.rule, b.files, j.project())
	if err != nil {
		j.err = err
		return
	}
	j.lost, j.gained = compare(b, orig.findings, got)
	if j.transform == "rename-functions" {
		j.lost = slices.DeleteFunc(j.lost, func(f found) bool { return nameClaim.MatchString(f.message) })
	}
}

// nameClaim matches findings about what a function's name promises (LL004:
// a function named for a preload whose body only loads the module):
// renaming the function takes the promise away, so they need not survive
// rename-functions.
var nameClaim = regexp.MustCompile(`its name says`)

// parsesWorse says why a variant the parser understands less well than
// its original is not counted (a transformation that wrote something
// odd), or "".
func parsesWorse(parser *cudaparse.Parser, fx *fixture, b *built) string {
	for p, src := range b.files {
		if !cudaparse.IsSource(p) {
			continue
		}
		f, err := parser.Parse(p, src)
		if err != nil {
			return "does not parse: " + err.Error()
		}
		before := 0
		if orig, ok := fx.parsed[p]; ok {
			before = orig.ErrorCount()
		}
		if f.ErrorCount() > before {
			return fmt.Sprintf("%s has %d parse errors, the original %d", p, f.ErrorCount(), before)
		}
	}
	return ""
}

// checker checks variants for one worker.
type checker struct {
	dir    string
	n      int
	parser *cudaparse.Parser // incremental, for files checked alone
}

func newChecker(dir string) (*checker, error) {
	p, err := cudaparse.NewParser()
	if err != nil {
		return nil, err
	}
	p.Incremental = true
	return &checker{dir: dir, parser: p}, nil
}

func (c *checker) close() { c.parser.Close() }

// check runs r over files: the one file alone, as ruletest.Run does, or
// all of them as a project in a folder of their own, as
// ruletest.RunProjects does.
func (c *checker) check(r *rule.Rule, files map[string][]byte, project bool) ([]found, error) {
	if !project {
		if len(files) != 1 {
			return nil, fmt.Errorf("%d files checked alone", len(files))
		}
		var out []found
		for p, src := range files {
			res := engine.CheckSource(engine.Options{Rules: []*rule.Rule{r}, Parser: c.parser, NoProject: true, BaseDir: c.dir},
				filepath.Join(c.dir, filepath.FromSlash(p)), src)
			if res.Err != nil {
				return nil, fmt.Errorf("%s: %s", res.Err.Path, res.Err.Message)
			}
			for _, f := range res.Findings {
				out = append(out, found{rule: f.Rule.ID, path: p, line: f.Start.Line, off: f.Range.Start, message: f.Message})
			}
		}
		return out, nil
	}
	c.n++
	dir := filepath.Join(c.dir, strconv.Itoa(c.n))
	defer os.RemoveAll(dir)
	for p, src := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(full, src, 0o644); err != nil {
			return nil, err
		}
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res := engine.Run(engine.Options{Paths: []string{root}, Rules: []*rule.Rule{r}, BaseDir: root, Workers: 1})
	if len(res.Errors) > 0 {
		return nil, fmt.Errorf("%s: %s", res.Errors[0].Path, res.Errors[0].Message)
	}
	var out []found
	for _, f := range res.Findings {
		out = append(out, found{rule: f.Rule.ID, path: filepath.ToSlash(f.Path), line: f.Start.Line, off: f.Range.Start, message: f.Message})
	}
	return out, nil
}

// compare matches the original's findings, mapped into the variant,
// against the variant's: the rule must be the same and the line one of the
// places the finding's byte went.
func compare(b *built, orig, got []found) (lost, gained []found) {
	used := make([]bool, len(got))
	for _, o := range orig {
		locs := b.where(o.path, o.off)
		matched := false
		for i, g := range got {
			if used[i] || g.rule != o.rule {
				continue
			}
			for _, l := range locs {
				if l.Path == g.path && l.Line == g.line {
					used[i], matched = true, true
					break
				}
			}
			if matched {
				break
			}
		}
		if !matched {
			lost = append(lost, o)
		}
	}
	for i, g := range got {
		if !used[i] {
			gained = append(gained, g)
		}
	}
	return lost, gained
}

// ruleResult is what one rule's variants gave.
type ruleResult struct {
	rule                          string
	fixtures                      int
	variants, surviving, unparsed int
	failed                        []*job
}

func tally(jobs []*job) []*ruleResult {
	byRule := map[string]*ruleResult{}
	fixtures := map[string]map[string]bool{}
	var order []string
	for _, j := range jobs {
		res, ok := byRule[j.rule.ID]
		if !ok {
			res = &ruleResult{rule: j.rule.ID}
			byRule[j.rule.ID] = res
			fixtures[j.rule.ID] = map[string]bool{}
			order = append(order, j.rule.ID)
		}
		fixtures[j.rule.ID][j.fx.name] = true
		switch {
		case j.skipped != "":
			res.unparsed++
		case j.survived():
			res.variants++
			res.surviving++
		default:
			res.variants++
			res.failed = append(res.failed, j)
		}
	}
	sort.Strings(order)
	var out []*ruleResult
	for _, id := range order {
		byRule[id].fixtures = len(fixtures[id])
		out = append(out, byRule[id])
	}
	return out
}

func table(results []*ruleResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-6s %9s %9s %10s %8s %9s\n", "rule", "fixtures", "variants", "surviving", "share", "skipped")
	tv, ts := 0, 0
	for _, r := range results {
		fmt.Fprintf(&b, "%-6s %9d %9d %10d %7.1f%% %9d\n", r.rule, r.fixtures, r.variants, r.surviving, pct(r.surviving, r.variants), r.unparsed)
		tv += r.variants
		ts += r.surviving
	}
	fmt.Fprintf(&b, "%-6s %9s %9d %10d %7.1f%%\n", "all", "", tv, ts, pct(ts, tv))
	return b.String()
}

// transformTable counts surviving/generated per transformation and rule.
func transformTable(jobs []*job) string {
	type cell struct{ n, ok int }
	durs := map[string]time.Duration{}
	cells := map[string]map[string]*cell{}
	ruleSet := map[string]bool{}
	for _, j := range jobs {
		if j.skipped != "" {
			continue
		}
		if cells[j.transform] == nil {
			cells[j.transform] = map[string]*cell{}
		}
		c := cells[j.transform][j.rule.ID]
		if c == nil {
			c = &cell{}
			cells[j.transform][j.rule.ID] = c
		}
		c.n++
		durs[j.transform] += j.dur
		if j.survived() {
			c.ok++
		}
		ruleSet[j.rule.ID] = true
	}
	var ids []string
	for id := range ruleSet {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s", "surviving/variants")
	for _, id := range ids {
		fmt.Fprintf(&b, " %9s", id)
	}
	b.WriteString("\n")
	for _, tr := range transforms {
		fmt.Fprintf(&b, "%-26s", tr.name)
		for _, id := range ids {
			if c := cells[tr.name][id]; c != nil {
				fmt.Fprintf(&b, " %9s", strconv.Itoa(c.ok)+"/"+strconv.Itoa(c.n))
			} else {
				fmt.Fprintf(&b, " %9s", "-")
			}
		}
		fmt.Fprintf(&b, " %8.1fs\n", durs[tr.name].Seconds())
	}
	return b.String()
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// describeFailures prints failing variants: the first detailLimit with
// the findings they lost or gained and the diff that made them, the rest
// by name (all of them with -show-failures).
func describeFailures(jobs []*job) string {
	var b strings.Builder
	for i, j := range jobs {
		if i >= detailLimit && !*showFailures {
			fmt.Fprintf(&b, "  %s: %s\n", j.name(), j.summary())
			continue
		}
		fmt.Fprintf(&b, "--- %s\n", j.name())
		if j.err != nil {
			fmt.Fprintf(&b, "    error: %v\n", j.err)
			continue
		}
		for _, f := range j.lost {
			fmt.Fprintf(&b, "    lost:   %s:%d %s %s\n", f.path, f.line, f.rule, short(f.message))
		}
		for _, f := range j.gained {
			fmt.Fprintf(&b, "    gained: %s:%d %s %s\n", f.path, f.line, f.rule, short(f.message))
		}
		if len(j.parts) > 0 {
			var alone []string
			for _, p := range j.parts {
				if !p.survived() {
					alone = append(alone, strings.TrimSpace(p.cand.site)+" ("+p.summary()+")")
				}
			}
			if len(alone) == 0 {
				alone = []string{"none: only together"}
			}
			fmt.Fprintf(&b, "    failing alone: %s\n", strings.Join(alone, "; "))
		}
		b.WriteString(indent(j.diff(), "    "))
	}
	return b.String()
}

func (j *job) summary() string {
	return fmt.Sprintf("%d lost, %d gained", len(j.lost), len(j.gained))
}

// diffLimit is the longest diff printed whole; a longer one (a rename
// touches every line) is shown as the lines around the findings lost and
// gained.
const diffLimit = 40

// diff is the unified diff from the fixture to the variant, or excerpts
// of both around the findings that changed.
func (j *job) diff() string {
	full := j.fullDiff()
	if strings.Count(full, "\n") <= diffLimit {
		return full
	}
	var b strings.Builder
	for _, f := range j.lost {
		fmt.Fprintf(&b, "original %s:\n%s", f.path, excerpt(j.fx.files[f.path], f.line))
		for _, l := range j.built.where(f.path, f.off) {
			fmt.Fprintf(&b, "variant %s (where it was expected):\n%s", l.Path, excerpt(j.built.files[l.Path], l.Line))
		}
	}
	for _, f := range j.gained {
		fmt.Fprintf(&b, "variant %s:\n%s", f.path, excerpt(j.built.files[f.path], f.line))
	}
	return b.String()
}

// fullDiff is the unified diff from the fixture to the variant.
func (j *job) fullDiff() string {
	var paths []string
	for p := range j.built.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	for _, p := range paths {
		old := string(j.fx.files[p])
		if old == string(j.built.files[p]) {
			continue
		}
		b.WriteString(udiff.Unified(p, p+" (variant)", old, string(j.built.files[p])))
	}
	return b.String()
}

// excerpt returns src's lines around line, numbered, the line marked.
func excerpt(src []byte, line int) string {
	lines := strings.Split(string(src), "\n")
	var b strings.Builder
	for n := max(1, line-4); n <= min(len(lines), line+2); n++ {
		mark := "  "
		if n == line {
			mark = "> "
		}
		fmt.Fprintf(&b, "%s%4d  %s\n", mark, n, lines[n-1])
	}
	return b.String()
}

func short(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

func indent(s, pre string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(pre + l)
		}
	}
	return b.String()
}

// readRatchet reads the surviving count of each rule.
func readRatchet(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	f, err := os.Open(ratchetFile)
	if os.IsNotExist(err) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 3 {
			t.Fatalf("%s:%d: want `RULE VARIANTS SURVIVING`, got %q", ratchetFile, line, text)
		}
		n, err := strconv.Atoi(fields[2])
		if err != nil {
			t.Fatalf("%s:%d: %v", ratchetFile, line, err)
		}
		out[fields[0]] = n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeRatchet(t *testing.T, results []*ruleResult) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`# Metamorphic variants of each rule's fixtures that keep the original's
# findings (rules/metamorphic). The test fails when a rule's surviving count
# drops below its line; when a rule gets more general, raise its line:
#   go test ./rules/metamorphic -run TestMetamorphic -update-ratchet
# The variants column is what was generated, for reference.
# rule	variants	surviving
`)
	for _, r := range results {
		fmt.Fprintf(&b, "%s\t%d\t%d\n", r.rule, r.variants, r.surviving)
	}
	if err := os.WriteFile(ratchetFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

package engine

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/ll001"
	"github.com/lazylint/lazylint/rules/ll002"
	"github.com/lazylint/lazylint/rules/ll003"
	"github.com/lazylint/lazylint/rules/ll004"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const sharedHeader = `#pragma once
#include "common.h"
#define gpuMalloc cudaMalloc
#define gpuMemGetInfo cudaMemGetInfo
`

const arenaTemplate = `#include "common.h"
void *arena%d() {
  size_t f, t;
  gpuMemGetInfo(&f, &t);
  void *p;
  gpuMalloc(&p, f);
  return p;
}
`

// A header included by 1,000 files (and by itself: a cycle) is read once
// and its macros reach every includer; the run ends with one finding per
// file.
func TestProjectHeaderIncludedEverywhere(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"common.h": sharedHeader}
	const n = 1000
	for i := range n {
		files[fmt.Sprintf("src/f%04d.cu", i)] = fmt.Sprintf(arenaTemplate, i)
	}
	writeFiles(t, dir, files)
	res := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{ll001.Rule}, BaseDir: dir})
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	if len(res.Findings) != n {
		t.Errorf("%d findings, want %d (one per includer)", len(res.Findings), n)
	}
	perFile := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{ll001.Rule}, BaseDir: dir, NoProject: true})
	if len(perFile.Findings) != 0 {
		t.Errorf("checked alone, the files gave %d findings; the macros are the header's", len(perFile.Findings))
	}
}

// Results do not depend on the number of workers, with project facts.
func TestProjectDeterministic(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "rules", "ll002", "testdata", "project"))
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, workers := range []int{1, 2, 7} {
		res := Run(Options{Paths: []string{root}, Rules: []*rule.Rule{ll002.Rule}, BaseDir: root, Workers: workers})
		var b strings.Builder
		for _, f := range res.Findings {
			fmt.Fprintf(&b, "%s:%d:%d %s\n", f.Path, f.Start.Line, f.Start.Column, f.Message)
		}
		if workers == 1 {
			want = b.String()
			if want == "" {
				t.Fatal("no findings")
			}
		} else if b.String() != want {
			t.Errorf("with %d workers:\n%s\nwant\n%s", workers, b.String(), want)
		}
	}
}

// A file that vanishes between the per-file check and the link step takes
// no part, and nothing fails.
func TestProjectFileVanishes(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"k.cu":      "__global__ void k() {}\nvoid launch_k() { k<<<1, 1>>>(); }\n",
		"bench.cpp": "#include <ctime>\nvoid launch_k();\ndouble b() { timespec x, y; clock_gettime(0, &x); launch_k(); clock_gettime(0, &y); return 0; }\n",
	})
	pr, sources := notedProject(t, dir, []string{"bench.cpp", "k.cu"}, 2)
	if err := os.Remove(sources[1]); err != nil {
		t.Fatal(err)
	}
	project := pr.link(nil)
	if project.Defines("launch_k") {
		t.Error("the vanished file's function was linked")
	}
	if again := pr.recheck(project, newSourceResults(2)); len(again) != 0 {
		t.Errorf("files checked again: %v", again)
	}
	if err := os.Remove(sources[0]); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := pr.rerun(new(*cudaparse.Parser), new(rule.Text), project, [32]byte{}, 0, false); ok {
		t.Error("a vanished file was checked again")
	}
}

// The project step's outcome is memoized on every file's bytes: a warm
// run gives the same findings; an edit anywhere, or a corrupt memo, makes
// it link again.
func TestProjectMemo(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "rules", "ll002", "testdata", "project"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(root)); err != nil {
		t.Fatal(err)
	}
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Paths: []string{dir}, Rules: []*rule.Rule{ll002.Rule}, BaseDir: dir, Cache: c}
	show := func(r Result) string {
		var b strings.Builder
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "%s:%d %s\n", f.Path, f.Start.Line, f.Message)
		}
		return b.String()
	}
	cold := Run(opts)
	if cold.Stats.Rechecked == 0 || cold.Project == nil {
		t.Fatalf("cold run: %+v", cold.Stats)
	}
	warm := Run(opts)
	if show(warm) != show(cold) || warm.Project != nil {
		t.Errorf("warm run differs (or linked):\n%s\nwant\n%s", show(warm), show(cold))
	}
	// The memo is the whole outcome: nothing parsed, nothing looked up
	// per file, and the statistics of a run from the per-file cache.
	if warm.Stats.Parsed != 0 || warm.Stats.Cached != cold.Stats.Parsed || warm.Stats.Bytes != cold.Stats.Bytes || warm.Stats.Rechecked != cold.Stats.Rechecked {
		t.Errorf("warm stats %+v after cold %+v", warm.Stats, cold.Stats)
	}
	// A file that cannot be checked: its error is not memoized, so every
	// run reports it, and the other files' findings stay the same.
	broken := filepath.Join(dir, "broken.cu")
	if err := os.WriteFile(broken, []byte("cudaEventRecord(start);\x00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for run := range 2 {
		r := Run(opts)
		if len(r.Errors) != 1 || r.Errors[0].Path != "broken.cu" || show(r) != show(cold) {
			t.Errorf("run %d with a binary file: errors %v, findings\n%s", run, r.Errors, show(r))
		}
	}
	if err := os.Remove(broken); err != nil {
		t.Fatal(err)
	}
	// An edit elsewhere in the project: the warm-up in main goes.
	mainCPP := filepath.Join(dir, "caller_warmup", "main.cpp")
	src, err := os.ReadFile(mainCPP)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "  run_axpy(x, y, n);\n  cudaDeviceSynchronize();", "  cudaDeviceSynchronize();", 1)
	if edited == string(src) {
		t.Fatal("fixture changed: no warm-up to remove")
	}
	if err := os.WriteFile(mainCPP, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after := Run(opts)
	if after.Project == nil || !strings.Contains(show(after), "timing.cpp:11 ") {
		t.Errorf("after removing the warm-up in main.cpp, timing.cpp:11 is not reported:\n%s", show(after))
	}
}

// callerSummaries builds one summary per file from "caller->callee" calls.
func callerSummaries(files [][]string) []fileFacts {
	facts := make([]fileFacts, len(files))
	for i, calls := range files {
		sum := &cudaparse.FileSummary{Path: fmt.Sprintf("f%d.cu", i)}
		for _, c := range calls {
			caller, callee, _ := strings.Cut(c, "->")
			fn := cudaparse.FunctionSummary{Name: caller, Entry: caller == "main"}
			if callee != "" {
				fn.Steps = []cudaparse.SummaryStep{{Kind: cudaparse.StepCall, Callee: callee}}
			}
			sum.Functions = append(sum.Functions, fn)
		}
		facts[i].setSummary(sum)
	}
	return facts
}

func TestCallerTargetsStopsAtGenericNames(t *testing.T) {
	// File 0 defines run, which holds a finding; its own bench calls it.
	// Twenty other files call some run of their own: their callers are
	// not followed.
	files := [][]string{{"run", "bench->run", "main->bench"}}
	for k := range maxCallerFiles + 4 {
		files = append(files, []string{fmt.Sprintf("helper%d->run", k), fmt.Sprintf("user%d->helper%d", k, k)})
	}
	pr := &projectRun{facts: callerSummaries(files)}
	got := pr.callerTargets([]callerNode{{0, "run"}})
	if !got["run"] || !got["bench"] {
		t.Errorf("targets %v: want run and bench", slices.Sorted(maps.Keys(got)))
	}
	if got["helper0"] || got["user0"] || got["main"] {
		t.Errorf("targets %v: want no helper, user or main", slices.Sorted(maps.Keys(got)))
	}

	// With few callers, each is followed, and theirs in turn.
	pr = &projectRun{facts: callerSummaries(files[:3])}
	got = pr.callerTargets([]callerNode{{0, "run"}})
	for _, want := range []string{"run", "bench", "helper0", "user0", "helper1", "user1"} {
		if !got[want] {
			t.Errorf("targets %v: want %s", slices.Sorted(maps.Keys(got)), want)
		}
	}
}

func TestCallerTargetsStopsAtMaxDepth(t *testing.T) {
	// A chain f1 -> f0 (holder) ... fN -> fN-1, longer than the project looks.
	var chain []string
	for k := 1; k <= link.MaxCallerDepth+3; k++ {
		chain = append(chain, fmt.Sprintf("f%d->f%d", k, k-1))
	}
	pr := &projectRun{facts: callerSummaries([][]string{append([]string{"f0"}, chain...)})}
	got := pr.callerTargets([]callerNode{{0, "f0"}})
	if len(got) != link.MaxCallerDepth+1 {
		t.Errorf("targets %v: want f0..f%d", slices.Sorted(maps.Keys(got)), link.MaxCallerDepth)
	}
	if !got[fmt.Sprintf("f%d", link.MaxCallerDepth)] || got[fmt.Sprintf("f%d", link.MaxCallerDepth+1)] {
		t.Errorf("targets %v: want f%d in, f%d out", slices.Sorted(maps.Keys(got)), link.MaxCallerDepth, link.MaxCallerDepth+1)
	}
}

// The bounds on what the project step holds change no finding: the
// summaries' steps and the name filters read back from the spill file
// give the findings they give from memory, and the definers of each name
// looked for alone those of all names looked for together. Every rule's
// project fixtures checked with a store of small chunks, none kept in
// memory (some records longer than a chunk stay in the heap), and no
// room for a second name's union in definersOf.
func TestProjectUnderTightBounds(t *testing.T) {
	roots, _ := filepath.Glob(filepath.Join("..", "..", "rules", "*", "testdata", "project"))
	if len(roots) < 3 {
		t.Fatalf("%d project fixtures", len(roots))
	}
	check := func(root string) string {
		res := Run(Options{Paths: []string{root}, BaseDir: root, Workers: 3, Rules: []*rule.Rule{ll001.Rule, ll002.Rule, ll003.Rule, ll004.Rule}})
		var b strings.Builder
		for _, f := range res.Findings {
			fmt.Fprintf(&b, "%s:%d:%d %s %s\n", f.Path, f.Start.Line, f.Start.Column, f.Rule.ID, f.Message)
		}
		for _, e := range res.Errors {
			fmt.Fprintf(&b, "error %s %s\n", e.Path, e.Message)
		}
		return b.String()
	}
	inMemory := map[string]string{}
	for _, root := range roots {
		inMemory[root] = check(root)
	}
	defer func(m, c, d int) { spillMemoryBytes, spillChunkBytes, maxDefinerQuestions = m, c, d }(spillMemoryBytes, spillChunkBytes, maxDefinerQuestions)
	spillMemoryBytes, spillChunkBytes, maxDefinerQuestions = 0, 256, 0
	for _, root := range roots {
		if inMemory[root] == "" {
			t.Errorf("%s: no findings", root)
		}
		if got := check(root); got != inMemory[root] {
			t.Errorf("%s, under tight bounds:\n%s\nwithout:\n%s", root, got, inMemory[root])
		}
	}
}

// A file not parsed that launches only through a project's launch macro
// of two letters defines a loader: the name filters are asked about the
// macro's name with its parenthesis, which a name that short alone gives
// them nothing to ask about.
func TestShortLaunchMacroLoaders(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"gpu.h":     "#define LC(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)\n#define LC_BLOCK 64\n",
		"relax.cpp": "#include \"gpu.h\"\nvoid sweep(float *x);\nvoid relax(float *x) { LC(sweep, 1, LC_BLOCK, x); }\n",
		"pad.cpp":   "#include \"gpu.h\"\nint pad(int n) { return n / LC_BLOCK * LC_BLOCK; }\n",
	})
	pr, _ := notedProject(t, dir, []string{"gpu.h", "relax.cpp", "pad.cpp"}, 1)
	pr.definedBy = map[string][]int{}
	pr.addMacroLoaders()
	if got := pr.definedBy["relax"]; len(got) != 1 || got[0] != 1 || !pr.facts[1].is(factLoader) {
		t.Errorf("relax is defined by %v (loader: %v), want relax.cpp", got, pr.facts[1].is(factLoader))
	}
	if got := pr.definedBy["pad"]; len(got) != 0 || pr.facts[2].is(factLoader) {
		t.Errorf("pad, which launches nothing, is a loader of %v", got)
	}
}

// notedProject returns a project step over the files names of dir (LL002
// only), each noted as the per-file check notes a file it did not parse,
// and the files' absolute paths.
func notedProject(t *testing.T, dir string, names []string, workers int) (*projectRun, []string) {
	t.Helper()
	var sources []string
	for _, n := range names {
		sources = append(sources, filepath.Join(dir, n))
	}
	pr := &projectRun{opts: Options{}, sources: pathsOf(sources, names), facts: make([]fileFacts, len(names)), settings: func(string) Settings { return Settings{Rules: []*rule.Rule{ll002.Rule}} }, workers: workers, names: newInterner()}
	pr.resolver = newIncludeResolver(pr.sources, nil)
	for i, p := range sources {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pr.resolver.note(i, noteProjectFacts(&pr.facts[i], rule.NewText(src), pr.settings(p), nil, skipped, nil, pr.names, nil, nil))
	}
	return pr, sources
}

// The bounded memories are whole up to largeTreeFiles files, halved past
// it, quartered past four times it.
func TestMemoryBudget(t *testing.T) {
	for _, c := range []struct{ files, want int }{
		{0, 1024}, {largeTreeFiles, 1024}, {largeTreeFiles + 1, 512},
		{4 * largeTreeFiles, 512}, {4*largeTreeFiles + 1, 256}, {1 << 30, 256},
	} {
		if got := memoryBudget(1024, c.files); got != c.want {
			t.Errorf("memoryBudget(1024, %d) = %d, want %d", c.files, got, c.want)
		}
	}
}

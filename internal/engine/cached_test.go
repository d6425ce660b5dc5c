package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/ll002"
)

// callRule reports every call to cudaMalloc, with a related location and a
// fix, so that everything a finding carries goes through the cache.
var callRule = &rule.Rule{ID: "LL990", Name: "calls", Severity: rule.Warning, Triggers: []string{"cudaMalloc"}, Run: func(p *rule.Pass) {
	for _, c := range p.File.CallsTo("cudaMalloc") {
		fix := rule.Fix{Message: "drop it", Edits: []rule.TextEdit{{Range: c.Node.Range(), NewText: "0"}}}
		p.Report(c.Node, "call", rule.Related(p.File.Root(), "file"), rule.WithFix(fix))
	}
}}

func writeTree(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		body := strings.Repeat("\n", i) + "void f(void **p) { cudaMalloc(p, 1); }  // NOLINT(lazylint-LL990)\nvoid g(void **p) { cudaMalloc(p, 2); }\n"
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".cu"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.cu"), []byte("int x;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCacheGivesTheSameResult(t *testing.T) {
	dir := writeTree(t, 6)
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Paths: []string{dir}, Rules: []*rule.Rule{callRule}, BaseDir: dir}
	plain := Run(opts)
	opts.Cache = c
	cold := Run(opts)
	warm := Run(opts)
	if cold.Stats.Parsed != 6 || cold.Stats.Cached != 0 || warm.Stats.Parsed != 0 || warm.Stats.Cached != 6 {
		t.Fatalf("cold %+v warm %+v", cold.Stats, warm.Stats)
	}
	for _, r := range []Result{cold, warm} {
		if !reflect.DeepEqual(r.Findings, plain.Findings) || !reflect.DeepEqual(r.Suppressed, plain.Suppressed) {
			t.Fatalf("cached result differs:\n%#v\nwant\n%#v", r, plain)
		}
	}
	if len(plain.Findings) != 6 || len(plain.Suppressed) != 6 || len(plain.Findings[0].Fixes) != 1 {
		t.Fatalf("the test rule did not run as meant: %+v", plain)
	}
	// Other settings are other keys.
	opts.Rules = nil
	opts.SettingsFor = func(string) Settings {
		return Settings{Rules: []*rule.Rule{callRule}, Severities: map[string]rule.Severity{"LL990": rule.Error}}
	}
	if r := Run(opts); r.Stats.Cached != 0 || r.Findings[0].Severity != rule.Error {
		t.Errorf("a new severity hit the cache: %+v", r.Stats)
	}
}

func TestCorruptEntriesAreIgnoredAndRewritten(t *testing.T) {
	dir := writeTree(t, 3)
	cacheDir := t.TempDir()
	c, _ := cache.Open(cacheDir)
	// Per-file entries only (TestProjectMemo covers the project's memo).
	opts := Options{Paths: []string{dir}, Rules: []*rule.Rule{callRule}, BaseDir: dir, Cache: c, NoProject: true}
	want := Run(opts)
	var entries []string
	_ = filepath.WalkDir(cacheDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			entries = append(entries, p)
		}
		return nil
	})
	if len(entries) != 3 {
		t.Fatalf("%d entries", len(entries))
	}
	for i, p := range entries {
		junk := [][]byte{nil, []byte("{not json"), []byte(`{"Version": 1, "Findings": [{"Rule": "LL404"}]}`)}[i]
		if err := os.WriteFile(p, junk, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := Run(opts)
	if !reflect.DeepEqual(got.Findings, want.Findings) || got.Stats.Cached != 0 || got.Stats.Parsed != 3 {
		t.Fatalf("with corrupt entries: %+v", got.Stats)
	}
	if again := Run(opts); again.Stats.Cached != 3 {
		t.Errorf("corrupt entries were not rewritten: %+v", again.Stats)
	}
}

func TestConcurrentRunsShareTheCache(t *testing.T) {
	dir := writeTree(t, 8)
	c, _ := cache.Open(t.TempDir())
	opts := Options{Paths: []string{dir}, Rules: []*rule.Rule{callRule}, BaseDir: dir, Cache: c}
	want := Run(Options{Paths: opts.Paths, Rules: opts.Rules, BaseDir: dir})
	var wg sync.WaitGroup
	results := make([]Result, 6)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = Run(opts)
		}()
	}
	wg.Wait()
	for i, r := range results {
		if !reflect.DeepEqual(r.Findings, want.Findings) || len(r.Errors) != 0 {
			t.Errorf("run %d differs", i)
		}
	}
}

// A run with a cache notes the project's files after the per-file check
// (noteAll), their includes too: a launch macro of a header, seen
// through the includes alone, gives the same findings as a run without.
func TestCachedRunSeesHeaderMacros(t *testing.T) {
	dir := filepath.Join("..", "..", "rules", "ll002", "testdata", "project", "header_launch_macro")
	opts := Options{Paths: []string{dir}, Rules: []*rule.Rule{ll002.Rule}, BaseDir: dir}
	plain := Run(opts)
	if len(plain.Findings) == 0 {
		t.Fatal("no finding without a cache: the test checks nothing")
	}
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts.Cache = c
	for _, run := range []string{"cold", "warm"} {
		if got := Run(opts); !reflect.DeepEqual(got.Findings, plain.Findings) {
			t.Errorf("%s run with a cache:\n%v\nwant\n%v", run, got.Findings, plain.Findings)
		}
	}
}

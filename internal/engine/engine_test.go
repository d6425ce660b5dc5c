package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// A rule that panics on one file gives an error for that file; the other
// files are still checked.
func TestPanickingRuleIsContained(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"boom.cu": "void boom() {}\n", "fine.cu": "void fine() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &rule.Rule{ID: "LL999", Name: "test-rule", Run: func(p *rule.Pass) {
		for _, fn := range p.File.Functions {
			if fn.Name == "boom" {
				panic("kaboom")
			}
			p.Report(fn.Node, "function "+fn.Name)
		}
	}}
	res := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{r}, BaseDir: dir})
	if len(res.Errors) != 1 || res.Errors[0].Path != "boom.cu" || !strings.Contains(res.Errors[0].Message, "kaboom") {
		t.Errorf("errors: %+v", res.Errors)
	}
	if len(res.Findings) != 1 || res.Findings[0].Path != "fine.cu" || res.Findings[0].Start != (cudaparse.Position{Line: 1, Column: 1}) {
		t.Errorf("findings: %+v", res.Findings)
	}
}

// Findings inside ERROR nodes are dropped unless asked for, then marked.
func TestLowConfidenceFindings(t *testing.T) {
	src := []byte("int f( { cudaMalloc(&p, n); }\n")
	r := &rule.Rule{ID: "LL998", Name: "calls", Run: func(p *rule.Pass) {
		for _, c := range p.File.CallsTo("cudaMalloc") {
			p.Report(c.Node, "call")
		}
	}}
	strict := &Checker{Rules: []*rule.Rule{r}}
	lenient := &Checker{Rules: []*rule.Rule{r}, LowConfidence: true}
	got, err := lenient.Check("x.cu", src)
	if err != nil || len(got) != 1 || !got[0].LowConfidence {
		t.Fatalf("lenient: %+v %v", got, err)
	}
	if got, _ := strict.Check("x.cu", src); len(got) != 0 {
		t.Errorf("strict kept a low-confidence finding: %+v", got)
	}
}

func TestTriggersSkipTheParse(t *testing.T) {
	r := &rule.Rule{ID: "LL997", Name: "t", Triggers: []string{"cudaMalloc"}, Run: func(p *rule.Pass) { p.Report(p.File.Root(), "parsed") }}
	c := &Checker{Rules: []*rule.Rule{r}}
	if got, _ := c.Check("a.cu", []byte("int main() {}")); len(got) != 0 {
		t.Error("parsed a file without a trigger")
	}
	if got, _ := c.Check("b.cu", []byte("int main() { cudaMalloc(0, 0); }")); len(got) != 1 {
		t.Error("skipped a file with a trigger")
	}
}

// Files that vanish or change while a run goes on give an error of their
// own or a normal result; the run goes on and nothing panics.
func TestFilesThatVanishOrChangeDuringTheRun(t *testing.T) {
	dir := t.TempDir()
	const n = 60
	for i := range n {
		body := fmt.Sprintf("void f%d(void **p) { cudaMalloc(p, 1); }\n", i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.cu", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &rule.Rule{ID: "LL996", Name: "calls", Triggers: []string{"cudaMalloc"}, Run: func(p *rule.Pass) {
		for _, c := range p.File.CallsTo("cudaMalloc") {
			p.Report(c.Node, "call")
		}
	}}
	var once sync.Once
	res := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{r}, BaseDir: dir, Workers: 1, Progress: func(done, total int) {
		once.Do(func() {
			// After the first file: the rest either vanish or become binary.
			for i := 1; i < n; i++ {
				p := filepath.Join(dir, fmt.Sprintf("f%02d.cu", i))
				if i%2 == 0 {
					os.Remove(p)
				} else {
					_ = os.WriteFile(p, []byte("\x00binary now"), 0o644)
				}
			}
		})
	}})
	vanished, binary := 0, 0
	for _, e := range res.Errors {
		switch {
		case strings.Contains(e.Message, "no such file"):
			vanished++
		case strings.Contains(e.Message, "binary file"):
			binary++
		default:
			t.Errorf("%s: %s", e.Path, e.Message)
		}
	}
	if len(res.Findings) != 1 || res.Findings[0].Path != "f00.cu" || vanished != (n-1)/2 || binary != n/2 {
		t.Errorf("findings %d, vanished %d, binary %d", len(res.Findings), vanished, binary)
	}
}

// A rule that reports only in device code gets no parse of a file without
// any: the file counts as not parsed and gives nothing, and a file with a
// device function (spelled directly or through a qualifier macro the
// pre-pass knows) is parsed and checked. A rule beside it that is not
// device-only still has the host file parsed.
func TestDeviceCodeOnlyRuleSkipsHostFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"host.cpp":    "volatile int flag;\nvoid wait() { while (!flag) {} }\n",
		"device.cu":   "__device__ void wait(volatile int *f) { while (!*f) {} }\n",
		"macro.cuh":   "CUTLASS_DEVICE void wait(volatile int *f) { while (!*f) {} }\n",
		"global.cu":   "__global__ void k() {}\n",
		"variable.cu": "__device__ int counter;\nvoid host() {}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	report := func(p *rule.Pass) {
		for _, fn := range p.File.Functions {
			p.Report(fn.Node, "function "+fn.Name)
		}
	}
	deviceOnly := &rule.Rule{ID: "LL998", Name: "device-only", DeviceCodeOnly: true, Run: report}
	res := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{deviceOnly}, BaseDir: dir, NoProject: true})
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Path)
	}
	want := []string{"device.cu", "global.cu", "macro.cuh", "variable.cu"}
	if fmt.Sprint(got) != fmt.Sprint(want) || res.Stats.Parsed != 4 || len(res.Errors) != 0 {
		t.Errorf("device-only rule: findings in %v, %d parsed, errors %v; want findings in %v, 4 parsed", got, res.Stats.Parsed, res.Errors, want)
	}
	everywhere := &rule.Rule{ID: "LL997", Name: "everywhere", Run: func(*rule.Pass) {}}
	res = Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{deviceOnly, everywhere}, BaseDir: dir, NoProject: true})
	if res.Stats.Parsed != 5 || len(res.Findings) != 5 {
		t.Errorf("with a rule that is not device-only: %d parsed, %d findings; want 5 parsed, 5 findings (the host file's too)", res.Stats.Parsed, len(res.Findings))
	}
}

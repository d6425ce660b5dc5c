package cudaparse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/knowledge"
)

// teamAdditions are a team's own helpers, clocks and timers, as a
// configuration would name them.
var teamAdditions = knowledge.NewAdditions(knowledge.AdditionsList{
	Launchers: []knowledge.Helper{{Name: "team::launch_on", Kernel: 1}, {Name: "for_each_cell", Kernel: knowledge.LastArgument}},
	Preloads:  []knowledge.Helper{{Name: "warm_kernel", Kernel: 0}},
	Clocks:    []string{"what_time_is_it_now"},
	Timers: []knowledge.TimerClass{
		{Class: "perf::ScopedTimer", Constructor: true, Destructor: true},
		{Class: "Stopwatch", Reads: []string{"begin_lap", "end_lap"}},
	},
})

func parseWith(t *testing.T, a *knowledge.Additions, src string) *File {
	t.Helper()
	p, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Additions = a
	f, err := p.Parse("test.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const teamSrc = `
struct Scale { float a; __device__ void operator()(int i) const {} };
__global__ void k(int n) {}

double f(int n, cudaStream_t s) {
  Scale sc{2.0f};
  double t0 = what_time_is_it_now();
  team::launch_on(s, k, n);
  launch_on(s, k, n);
  other::launch_on(s, k, n);
  for_each_cell(n, [=] __device__ (int i) {});
  for_each_cell(n, sc);
  for_each_cell(n, Scale{3.0f});
  warm_kernel(k);
  double t1 = what_time_is_it_now();
  return t1 - t0;
}

void scoped(int n) {
  {
    perf::ScopedTimer t("x");
    for_each_cell(n, [=] __device__ (int i) {});
  }
  Stopwatch sw;
  sw.begin_lap();
  team::launch_on(0, k, n);
  sw.end_lap();
}
`

// A configuration's launch helpers are launches of the argument it names
// (a kernel symbol, a lambda, a functor keyed by type), its preload helpers
// preloads, its clocks and timer classes clock reads; without it, none.
func TestAdditionsInFacts(t *testing.T) {
	f := parseWith(t, teamAdditions, teamSrc)
	var keys []string
	for _, l := range f.Launches {
		if l.Func.Name == "f" {
			keys = append(keys, l.KernelKey())
		}
	}
	want := "k k for_each_cell (the lambda at line 11) for_each_cell<Scale> for_each_cell<Scale>"
	if got := strings.Join(keys, " "); got != want {
		t.Errorf("launches %q, want %q (other::launch_on is not the team's)", got, want)
	}
	if p := f.Preloads(); len(p) != 1 || p[0].Keys[0] != "k" {
		t.Errorf("preloads %+v", p)
	}
	if rs := f.TimedRegions(f.FunctionNamed("f")); len(rs) != 1 {
		t.Errorf("f: %d regions, want 1 (what_time_is_it_now twice)", len(rs))
	}
	var regions []string
	for _, r := range f.TimedRegions(f.FunctionNamed("scoped")) {
		from, to := f.Position(r.From), f.Position(r.To)
		regions = append(regions, fmt.Sprintf("%d:%d-%d:%d", from.Line, from.Column, to.Line, to.Column))
	}
	if got := strings.Join(regions, " "); got != "25:17-27:3 21:29-23:3" {
		t.Errorf("scoped: regions %s (the lap, the scoped timer's block)", got)
	}
	if s := f.Summary(); len(s.Functions) == 0 {
		t.Error("no summary")
	}

	bare := parseWith(t, nil, teamSrc)
	if len(bare.Launches) != 0 || len(bare.Preloads()) != 0 || len(bare.TimedRegions(bare.FunctionNamed("f"))) != 0 || len(bare.TimedRegions(bare.FunctionNamed("scoped"))) != 0 {
		t.Errorf("without additions: %d launches, %d preloads", len(bare.Launches), len(bare.Preloads()))
	}
}

// The project step's summaries from the text alone know the additions
// too: a wrapper of a launch helper in another file launches, a wrapper
// of a clock reads a clock.
func TestAdditionsInLexicalSummary(t *testing.T) {
	src := []byte(`
void run_step(int n) { team::launch_on(0, step_kernel, n); }
void run_other(int n) { other::launch_on(0, step_kernel, n); }
void run_cells(int n) { for_each_cell(n, [=] __device__ (int i) {}); }
void warm() { warm_kernel(step_kernel); }
double now_s() { return what_time_is_it_now() * 1e-9; }
`)
	got := map[string]string{}
	for _, fn := range LexicalSummary("step.cu", src, nil, teamAdditions).Functions {
		var parts []string
		for _, st := range fn.Steps {
			if st.Kind == StepLaunch || st.Kind == StepPreload {
				parts = append(parts, fmt.Sprintf("%d:%s", st.Kind, strings.Join(st.Keys, ",")))
			}
		}
		if fn.ReadsClock {
			parts = append(parts, "clock")
		}
		got[fn.Name] = strings.Join(parts, " ")
	}
	want := map[string]string{
		"run_step":  fmt.Sprintf("%d:step_kernel", StepLaunch),
		"run_other": "",
		"run_cells": fmt.Sprintf("%d:for_each_cell (the lambda at line 4)", StepLaunch),
		"warm":      fmt.Sprintf("%d:step_kernel", StepPreload),
		"now_s":     "clock",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %q, want %q", name, got[name], w)
		}
	}
	for _, fn := range LexicalSummary("step.cu", src, nil, nil).Functions {
		for _, st := range fn.Steps {
			if st.Kind == StepLaunch || st.Kind == StepPreload || fn.ReadsClock {
				t.Errorf("without additions: %s has %+v", fn.Name, st)
			}
		}
	}
}

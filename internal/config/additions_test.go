package config

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/knowledge"
	"github.com/lazylint/lazylint/rules"
)

// launchers:, preloads:, clocks: and timers: extend the built-in tables
// (issue 25 §3): a file that extends another adds to its entries, and an
// entry of the same name replaces the extended one.
func TestAdditions(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"base.yml": `
launchers:
  - {name: launch_on, kernel: 0}
  - run_kernel
clocks: [base_now]
`,
		".lazylint.yml": `
extends: base.yml
launchers:
  - name: launch_on
    kernel: 1
  - {name: "gpu::for_each_cell", kernel: last}
preloads: [{name: warm_kernel, kernel: 0}]
clocks: [what_time_is_it_now]
timers:
  - class: perf::ScopedTimer
    reads: [lap, stop]
    constructor: true
    destructor: true
`,
	})
	cfg, err := Load(filepath.Join(dir, ".lazylint.yml"), rules.All)
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.Settings(rules.All, filepath.Join(dir, "x.cu")).Additions
	if h, ok := a.Launcher("launch_on", "launch_on"); !ok || h.Kernel != 1 {
		t.Errorf("launch_on: %v %v (want kernel 1, ours over the base's)", h, ok)
	}
	if h, ok := a.Launcher("run_kernel", "run_kernel"); !ok || h.Kernel != 0 {
		t.Errorf("run_kernel: %v %v", h, ok)
	}
	if h, ok := a.Launcher("for_each_cell", "gpu::for_each_cell"); !ok || h.Kernel != knowledge.LastArgument {
		t.Errorf("for_each_cell: %v %v", h, ok)
	}
	if _, ok := a.Preload("warm_kernel", "warm_kernel"); !ok {
		t.Error("warm_kernel")
	}
	if !a.IsClock("what_time_is_it_now", "what_time_is_it_now") || !a.IsClock("base_now", "base_now") {
		t.Error("clocks")
	}
	if tc := a.Timer("perf::ScopedTimer"); tc == nil || !tc.Constructor || !tc.Destructor || strings.Join(tc.Reads, ",") != "lap,stop" {
		t.Errorf("timer %+v", tc)
	}
	e := cfg.Effective(rules.All, "")
	if len(e.Launchers) != 3 || e.Launchers[0] != (EffectiveHelper{"launch_on", 1}) || e.Launchers[2].Kernel != "last" ||
		strings.Join(e.Clocks, " ") != "base_now what_time_is_it_now" || len(e.Timers) != 1 || len(e.Preloads) != 1 {
		t.Errorf("effective: %+v %+v %v %+v", e.Launchers, e.Preloads, e.Clocks, e.Timers)
	}
	if got, want := e.Sources["launchers/launch_on"], filepath.Join(dir, ".lazylint.yml")+":4"; got != want {
		t.Errorf("source of launch_on: %q, want %q", got, want)
	}
	if got := e.Sources["clocks/base_now"]; !strings.HasSuffix(got, "base.yml:5") {
		t.Errorf("source of base_now: %q", got)
	}
	// No config, no section: nothing added, and the effective lists empty.
	if s := (*Config)(nil).Settings(rules.All, "x.cu"); s.Additions != nil {
		t.Error("nil config adds")
	}
	var none *Config
	if e := none.Effective(rules.All, ""); e.Launchers == nil || len(e.Launchers)+len(e.Clocks)+len(e.Timers)+len(e.Preloads) != 0 {
		t.Errorf("no config: %+v", e)
	}
}

// Each mistake in the additions is one error with the file, line and
// column, saying what is wanted.
func TestAdditionsErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.yml": `launchers:
  - {name: "launch on", kernel: 0}
  - {name: go, kernel: first}
  - {nme: go}
  - {kernel: 2}
  - {name: twice}
  - twice
clocks: [ok_now, "3d_clock", [nested]]
timers:
  - class: Silent
  - {class: T, reads: [a.b], constructor: maybe}
  - just_a_name
preloads: {name: p, kernel: -1}
clock: [x]
`})
	_, err := Load(filepath.Join(dir, "a.yml"), rules.All)
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`a.yml:2:12: launchers: "launch on" is not a C++ name`,
		`a.yml:3:24: launchers: kernel of go wants the index of its kernel argument, from 0, or last; not "first"`,
		`a.yml:4:6: unknown setting "nme" (did you mean name?`,
		`a.yml:5:5: launchers: an entry needs name: the function or macro called`,
		`a.yml:7:5: launchers: twice is named twice`,
		`a.yml:8:18: clocks: "3d_clock" is not a C++ name`,
		`a.yml:8:30: clocks: want a name`,
		`a.yml:10:5: timers: Silent reads no clock: give reads`,
		`a.yml:11:24: timers: "a.b" is not a method name`,
		`a.yml:11:43: timers: constructor of T wants true or false`,
		`a.yml:12:5: timers: an entry wants a mapping`,
		`a.yml:13:29: preloads: kernel of p wants the index`,
		`a.yml:14:1: unknown setting "clock" (did you mean clocks?`,
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Errorf("%d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if i >= len(lines) || !strings.Contains(lines[i], w) {
			t.Errorf("error %d: want %q in\n%v", i, w, err)
			break
		}
	}
}

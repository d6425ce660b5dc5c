package knowledge_test

import (
	"testing"

	"github.com/lazylint/lazylint/knowledge"
)

func TestAdditions(t *testing.T) {
	var none *knowledge.Additions
	if _, ok := none.Launcher("f", "f"); ok || none.IsClock("f", "f") || none.Timer("T") != nil || none.Key() != "" || none.LoadSpellings() != nil {
		t.Error("nil additions add something")
	}
	if knowledge.NewAdditions(knowledge.AdditionsList{}) != nil {
		t.Error("no entries: want nil")
	}
	a := knowledge.NewAdditions(knowledge.AdditionsList{
		Launchers: []knowledge.Helper{{Name: "gpu::launch_on", Kernel: 1}, {Name: "FOR_EACH", Kernel: knowledge.LastArgument}},
		Preloads:  []knowledge.Helper{{Name: "warm", Kernel: 0}},
		Clocks:    []string{"what_time_is_it_now", "perf::ticks"},
		Timers:    []knowledge.TimerClass{{Class: "util::Stopwatch", Reads: []string{"lap"}, Constructor: true}},
	})
	for _, c := range []struct {
		name, spelled string
		want          bool
	}{
		{"launch_on", "gpu::launch_on", true},
		{"launch_on", "launch_on", true}, // using namespace gpu
		{"launch_on", "outer::gpu::launch_on", true},
		{"launch_on", "cpu::launch_on", false},
		{"FOR_EACH", "FOR_EACH", true},
	} {
		if _, ok := a.Launcher(c.name, c.spelled); ok != c.want {
			t.Errorf("Launcher(%s, %s) = %v", c.name, c.spelled, ok)
		}
	}
	h, _ := a.Launcher("FOR_EACH", "FOR_EACH")
	if k, ok := h.ArgumentIndex(3); !ok || k != 2 {
		t.Errorf("last of 3 = %d, %v", k, ok)
	}
	if !a.IsClock("ticks", "perf::ticks") || a.IsClock("ticks", "other::ticks") || !a.IsClock("what_time_is_it_now", "what_time_is_it_now") {
		t.Error("clocks")
	}
	if tc := a.Timer(knowledge.Spelling("util :: Stopwatch<int>")); tc == nil || !tc.Constructor || !a.IsTimerMethod("lap") || a.IsTimerMethod("start") {
		t.Errorf("timer %v", tc)
	}
	if _, ok := a.Preload("warm", "warm"); !ok {
		t.Error("preload")
	}
	if got := a.LoadSpellings(); len(got) != 3 || got[0] != "FOR_EACH" {
		t.Errorf("load spellings %v", got)
	}
	if got := a.ClockSpellings(); len(got) != 3 {
		t.Errorf("clock spellings %v", got)
	}
	b := knowledge.NewAdditions(knowledge.AdditionsList{Clocks: []string{"what_time_is_it_now"}})
	if a.Key() == b.Key() || b.Key() == "" {
		t.Error("keys do not tell the additions apart")
	}
}

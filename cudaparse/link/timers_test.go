package link

import (
	"reflect"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// A timer class two files define under one name reads in both's reading
// methods; a file declaring an object of it times with it, the defining
// file does not take it from the project.
func TestProjectTimerClasses(t *testing.T) {
	p := NewProject([]*cudaparse.FileSummary{
		{Path: "base/clocker.h", Timers: []knowledge.TimerClass{{Class: "Clocker", Reads: []string{"Elapsed"}, Constructor: true}}},
		{Path: "base/clocker_win.h", Timers: []knowledge.TimerClass{{Class: "Clocker", Reads: []string{"Mark"}}}},
	})
	got := p.DeclaredTimers("bench/speed.cc", []byte("void f() { Clocker tim; g(); use(tim.Elapsed()); }"))
	want := []knowledge.TimerClass{{Class: "Clocker", Reads: []string{"Elapsed", "Mark"}, Constructor: true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got := p.DeclaredTimers("base/clocker.h", []byte("Clocker tim;")); got != nil {
		t.Errorf("the defining file: got %+v, want none", got)
	}
}

package rule

import (
	"bytes"
	"strings"
	"testing"
)

func TestTextContains(t *testing.T) {
	long := strings.Repeat("int x = 0; // filler\n", 50) // over minIndexedLen
	tests := []struct {
		src, lit string
		want     bool
	}{
		{long + "cudaMalloc(&p, n);", "cudaMalloc", true},
		{long, "cudaMalloc", false},
		{long + "cudaMal Malloc", "cudaMalloc", false}, // every three-byte sequence there, not the literal
		{long + "cuda Malloc cudaM", "cudaMalloc", false},
		{long + "k<<<1,1>>>()", "<<<", true},
		{long, "x", true},  // one byte: a scan
		{long, "x ", true}, // two bytes: a scan
		{long, "xx", false},
		{"short cudaMalloc", "cudaMalloc", true},
		{"short", "cudaMalloc", false},
		{"", "a", false},
		{long, "", true},
	}
	for _, tt := range tests {
		text := NewText([]byte(tt.src))
		if got := text.Contains(tt.lit); got != tt.want {
			t.Errorf("Contains(%q) on %d bytes = %v, want %v", tt.lit, len(tt.src), got, tt.want)
		}
	}
}

func TestTextReset(t *testing.T) {
	long := strings.Repeat("a", 600)
	text := NewText([]byte(long + "needle"))
	if !text.Contains("needle") {
		t.Fatal("needle not found")
	}
	text.Reset([]byte(long + "other"))
	if text.Contains("needle") {
		t.Fatal("the index of the previous text was kept")
	}
	if !text.ContainsAny("nope", "other") {
		t.Fatal("other not found after Reset")
	}
}

// FuzzTextContains checks the index never changes an answer.
func FuzzTextContains(f *testing.F) {
	f.Add([]byte(strings.Repeat("__global__ void k() {}\n", 30)), "_global")
	f.Add([]byte(strings.Repeat("ab", 400)), "ba")
	f.Add([]byte("short"), "or")
	f.Fuzz(func(t *testing.T, src []byte, lit string) {
		text := NewText(src)
		for range 2 { // the second answer comes from a built index
			if got, want := text.Contains(lit), bytes.Contains(src, []byte(lit)); got != want {
				t.Fatalf("Contains(%q) = %v, bytes.Contains = %v", lit, got, want)
			}
		}
	})
}

// The engine asks prefilters again with a project fact changed only when
// one asked for it: the record must follow the questions and start afresh
// with each text.
func TestAskedProjectFacts(t *testing.T) {
	text := NewText([]byte("int main() {}"))
	if text.Asked(Loaders) || text.Asked(Clocks) {
		t.Fatal("asked before any question")
	}
	text.Give(Loaders, true)
	if !text.CallsProjectLoader() {
		t.Error("fact not kept")
	}
	if !text.Asked(Loaders) || text.Asked(Clocks) {
		t.Errorf("asked loader=%v clock=%v after asking for the loader", text.Asked(Loaders), text.Asked(Clocks))
	}
	if text.CallsProjectClock() {
		t.Error("clock fact given")
	}
	text.Give(Loaders, false)
	if text.CallsProjectLoader() {
		t.Error("a fact taken back is still given")
	}
	text.Give(Clocks, true)
	text.Reset([]byte("x"))
	if text.Asked(Loaders) || text.Asked(Clocks) || text.CallsProjectLoader() || text.CallsProjectClock() {
		t.Error("Reset kept the facts or the record")
	}
}

// A rule reads only the kinds of facts it requires (or that every rule
// sees): the engine checks a file again when those change, so reading
// another kind must fail loudly, as go/analysis does for an undeclared
// fact type.
func TestPassFactNeedsRequires(t *testing.T) {
	r := &Rule{ID: "LL999", Requires: []*Fact{CallerLoads}}
	p := NewPass(r, nil, nil, Given{CallerLoads: "callers", ProjectPreloads: "preloads"}, nil)
	if got := p.Fact(CallerLoads); got != "callers" {
		t.Errorf("Fact(CallerLoads) = %v, want the value given", got)
	}
	if got := p.Fact(Loaders); got != nil {
		t.Errorf("Fact(Loaders) = %v, want nil: nothing given", got)
	}
	if p.Loaders().Defines("k") || p.CallerLoads().LoadedOnEntry(nil) == nil {
		t.Error("facts not given do not answer as an empty project")
	}
	defer func() {
		if recover() == nil {
			t.Error("reading ProjectPreloads, not required, did not panic")
		}
	}()
	p.Fact(ProjectPreloads)
}

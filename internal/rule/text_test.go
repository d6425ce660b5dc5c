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
	if l, c := text.AskedProjectFacts(); l || c {
		t.Fatal("asked before any question")
	}
	text.SetProjectFacts(true, false)
	if !text.CallsProjectLoader() {
		t.Error("fact not kept")
	}
	if l, c := text.AskedProjectFacts(); !l || c {
		t.Errorf("asked loader=%v clock=%v after asking for the loader", l, c)
	}
	if text.CallsProjectClock() {
		t.Error("clock fact set")
	}
	text.Reset([]byte("x"))
	if l, c := text.AskedProjectFacts(); l || c || text.CallsProjectLoader() {
		t.Error("Reset kept the facts or the record")
	}
}

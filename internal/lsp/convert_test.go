package lsp

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/syntax"
)

func TestTextIndexUTF16(t *testing.T) {
	// Line 1: µ is 2 bytes and 1 unit, 🚀 4 bytes and 2 units; line 2
	// ends in \r\n.
	text := "int a;\n/* µ 🚀 */ x = 1;\r\ny\n"
	x := newTextIndex(text)
	xOff := strings.Index(text, "x =")
	for _, c := range []struct {
		off  int
		want protocol.Position
	}{
		{0, protocol.Position{Line: 0, Character: 0}},
		{6, protocol.Position{Line: 0, Character: 6}},
		{7, protocol.Position{Line: 1, Character: 0}},
		{strings.Index(text, "µ"), protocol.Position{Line: 1, Character: 3}},
		{strings.Index(text, "🚀"), protocol.Position{Line: 1, Character: 5}},
		{xOff, protocol.Position{Line: 1, Character: 11}}, // 10 code points, 14 bytes before
		{strings.Index(text, "y"), protocol.Position{Line: 2, Character: 0}},
		{len(text), protocol.Position{Line: 3, Character: 0}},
		{len(text) + 5, protocol.Position{Line: 3, Character: 0}},
	} {
		if got := x.position(c.off); got != c.want {
			t.Errorf("position(%d) = %+v, want %+v", c.off, got, c.want)
		}
		if c.off <= len(text) {
			if got := x.offset(c.want); got != c.off {
				t.Errorf("offset(%+v) = %d, want %d", c.want, got, c.off)
			}
		}
	}
	// Past the end of a line: its end, before \r\n.
	if got, want := x.offset(protocol.Position{Line: 1, Character: 99}), strings.Index(text, "\r\n"); got != want {
		t.Errorf("offset past the line's end = %d, want %d", got, want)
	}
	// Inside the surrogate pair of 🚀: the start of 🚀.
	if got, want := x.offset(protocol.Position{Line: 1, Character: 6}), strings.Index(text, "🚀"); got != want {
		t.Errorf("offset inside a surrogate pair = %d, want %d", got, want)
	}
	// Past the last line: the end.
	if got := x.offset(protocol.Position{Line: 9}); got != len(text) {
		t.Errorf("offset past the last line = %d", got)
	}
	// The engine's code-point columns.
	if got := x.lspRange(cudaparse.Position{Line: 2, Column: 11}, cudaparse.Position{Line: 2, Column: 12}); got.Start.Character != 11 || got.End.Character != 12 {
		t.Errorf("lspRange of the engine's x = %+v", got)
	}
}

// TestEnginePosRoundTrips: enginePos is the inverse of the engine's
// positions at every character start, invalid UTF-8 included.
func TestEnginePosRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"a", " ", "\n", "\r\n", "µ", "🚀", "\xff", "\xe2\x82", "é", "\t"}
	for range 200 {
		var b strings.Builder
		for range rng.Intn(40) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		text := b.String()
		li := syntax.NewLineIndex([]byte(text))
		x := newTextIndex(text)
		// The offsets where characters start (an invalid byte is one).
		offs := []int{len(text)}
		for off := 0; off < len(text); {
			offs = append(offs, off)
			_, size := utf8.DecodeRuneInString(text[off:])
			off += size
		}
		for _, off := range offs {
			p := li.Position(off)
			if got := x.enginePos(p); got != off {
				t.Fatalf("%q: enginePos(%+v) = %d, want %d", text, p, got, off)
			}
		}
	}
}

func TestEscapeMarkdown(t *testing.T) {
	if got, want := escapeMarkdown("axpy<float> takes free_bytes * 2 [x]"), `axpy\<float\> takes free\_bytes \* 2 \[x\]`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

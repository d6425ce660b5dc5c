package syntax

import (
	"sort"
	"unicode/utf8"
)

// Position is a 1-based line and column; columns count characters (UTF-8
// code points; each byte of an invalid sequence counts as one), not bytes.
type Position struct {
	Line, Column int
}

// LineIndex maps byte offsets of one source to positions.
type LineIndex struct {
	src    []byte
	starts []int // byte offset of the start of each line
}

// NewLineIndex indexes the line starts of src.
func NewLineIndex(src []byte) *LineIndex {
	starts := make([]int, 1, 64+len(src)/32)
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &LineIndex{src: src, starts: starts}
}

// Position returns the position of byte offset off.
func (x *LineIndex) Position(off int) Position {
	off = min(max(off, 0), len(x.src))
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return Position{Line: line + 1, Column: utf8.RuneCount(x.src[x.starts[line]:off]) + 1}
}

// Offset returns the byte offset of a position, the inverse of Position.
func (x *LineIndex) Offset(p Position) int {
	if p.Line < 1 {
		return 0
	}
	if p.Line > len(x.starts) {
		return len(x.src)
	}
	off := x.starts[p.Line-1]
	for col := 1; col < p.Column && off < len(x.src) && x.src[off] != '\n'; col++ {
		_, size := utf8.DecodeRune(x.src[off:])
		off += size
	}
	return off
}

// Lines is the number of lines.
func (x *LineIndex) Lines() int { return len(x.starts) }

// LineText returns line n (1-based) without its line break.
func (x *LineIndex) LineText(n int) []byte {
	if n < 1 || n > len(x.starts) {
		return nil
	}
	end := len(x.src)
	if n < len(x.starts) {
		end = x.starts[n] - 1
	}
	start := x.starts[n-1]
	if end > start && x.src[end-1] == '\r' {
		end--
	}
	return x.src[start:end]
}

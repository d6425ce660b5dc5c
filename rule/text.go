package rule

import "bytes"

// Text is a file's contents as prefilters see them. All rules together ask
// some thirty "does the file contain this literal?" questions of every
// file, and a file seldom contains most of the literals: a scan per
// question cost more than everything else a warm-cache run does. Text
// answers from an index of the byte pairs that occur in the file, built in
// one pass when first needed: a literal with a pair the file lacks is
// absent without a scan, and bytes.Contains decides the rest, so answers
// are exact.
type Text struct {
	Src   []byte
	pairs *pairSet // built on the first question about a long enough file
	built bool
}

// pairSet has one bit per byte pair (256 x 256).
type pairSet [1 << 16 / 64]uint64

// minIndexedLen is the size below which scanning beats building the index.
const minIndexedLen = 512

// NewText returns src ready for prefilters.
func NewText(src []byte) *Text { return &Text{Src: src} }

// Reset makes t hold src, keeping the index's memory for reuse: a worker
// that checks many files keeps one Text.
func (t *Text) Reset(src []byte) {
	t.Src = src
	t.built = false
}

// Contains reports whether the text contains lit.
func (t *Text) Contains(lit string) bool {
	if len(lit) >= 2 && len(t.Src) >= minIndexedLen {
		t.index()
		for i := 0; i+1 < len(lit); i++ {
			if !t.pairs.has(uint16(lit[i])<<8 | uint16(lit[i+1])) {
				return false
			}
		}
	}
	return bytes.Contains(t.Src, []byte(lit))
}

// ContainsAny reports whether the text contains one of the literals: the
// building block of prefilters.
func (t *Text) ContainsAny(literals ...string) bool {
	for _, l := range literals {
		if t.Contains(l) {
			return true
		}
	}
	return false
}

func (t *Text) index() {
	if t.built {
		return
	}
	if t.pairs == nil {
		t.pairs = new(pairSet)
	} else {
		*t.pairs = pairSet{}
	}
	if len(t.Src) > 0 {
		prev := uint16(t.Src[0])
		for _, c := range t.Src[1:] {
			k := prev<<8 | uint16(c)
			t.pairs[k>>6] |= 1 << (k & 63)
			prev = uint16(c)
		}
	}
	t.built = true
}

func (s *pairSet) has(k uint16) bool { return s[k>>6]&(1<<(k&63)) != 0 }

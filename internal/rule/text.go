package rule

import "bytes"

// Text is a file's contents as prefilters see them. All rules together ask
// some thirty "does the file contain this literal?" questions of every
// file, and a file seldom contains most of the literals: a scan per
// question cost more than everything else a warm-cache run does. Text
// answers from an index of the three-byte sequences that occur in the file,
// built in one pass when first needed: a literal with a sequence the file
// lacks is absent without a scan, and bytes.Contains decides the rest, so
// answers are exact. (Byte pairs were tried first: common words such as
// "timer" or "nolint" have all their pairs in most large files, and on the
// real corpus of bench/README.md 1.35 GB a run was still scanned in vain;
// with three-byte sequences, 0.12 GB.)
type Text struct {
	Src     []byte
	triples *tripleSet // built on the first question about a long enough file
	built   bool
}

// tripleSet has one bit per hash of a three-byte sequence: a bloom filter
// with one hash function, 2^16 bits, so a few kilobytes to clear per file.
type tripleSet [1 << 16 / 64]uint64

// tripleHash spreads the 24 bits of a sequence (a<<16 | b<<8 | c) over 16
// (Knuth's multiplicative hashing).
func tripleHash(seq uint32) uint16 { return uint16(seq * 2654435761 >> 16) }

// minIndexedLen is the size below which a file is scanned without an
// index: clearing the 8 KiB set alone costs about what a few scans of half
// a kilobyte do (a rough choice; small files weigh little in a run).
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
	if len(lit) >= 3 && len(t.Src) >= minIndexedLen {
		t.index()
		for i := 0; i+2 < len(lit); i++ {
			if !t.triples.has(tripleHash(uint32(lit[i])<<16 | uint32(lit[i+1])<<8 | uint32(lit[i+2]))) {
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
	if t.triples == nil {
		t.triples = new(tripleSet)
	} else {
		*t.triples = tripleSet{}
	}
	if src := t.Src; len(src) >= 3 {
		set := t.triples
		seq := uint32(src[0])<<8 | uint32(src[1])
		for _, c := range src[2:] {
			seq = seq<<8 | uint32(c)
			k := tripleHash(seq & 0xFFFFFF)
			set[k>>6] |= 1 << (k & 63)
		}
	}
	t.built = true
}

func (s *tripleSet) has(k uint16) bool { return s[k>>6]&(1<<(k&63)) != 0 }

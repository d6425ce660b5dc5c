package rule

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
)

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
	Src []byte

	// The kinds of project facts given for the file (Give), and those a
	// prefilter asked about since Reset (Gives).
	given, asked factSet
	// ownLoads, ownClocks: the spellings of the team's own launch and
	// preload helpers, and of its clocks and timer classes (SetAdditions).
	ownLoads, ownClocks []string
	triples             *tripleSet // built on the first question about a long enough file
	built               bool
}

// Give tells the prefilters whether the project gives the file facts of
// kind k that its text does not show: for Loaders, that it calls a
// function another file of the project defines that launches or preloads
// kernels; for Clocks, one that reads a host clock (or a header's clock
// macro).
func (t *Text) Give(k *Fact, yes bool) {
	if yes {
		t.given |= k.bit()
	} else {
		t.given &^= k.bit()
	}
}

// Gives reports whether the project gives the file facts of kind k (Give),
// and notes that a prefilter asked.
func (t *Text) Gives(k *Fact) bool {
	t.asked |= k.bit()
	return t.given&k.bit() != 0
}

// Asked reports whether a prefilter asked Gives(k) since Reset.
// Prefilters are functions of the text and the facts given: one that did
// not ask about k cannot have changed an answer, so the engine need not
// ask again with k given.
func (t *Text) Asked(k *Fact) bool { return t.asked&k.bit() != 0 }

// factSet is a set of the kinds of Facts, a bit each.
type factSet uint32

// bit is k's bit in a factSet. Every kind is one of Facts: a kind made
// elsewhere would be given and asked for by no one.
func (k *Fact) bit() factSet {
	if i := slices.Index(Facts, k); i >= 0 {
		return 1 << i
	}
	panic("rule: a kind of fact not listed in rule.Facts: " + k.Name)
}

// SetAdditions tells the prefilters the names of the team's own launch
// and preload helpers (loads) and of its clocks and timer classes (clocks),
// from the configuration (knowledge.Additions): a file that spells one may
// launch, or read a clock, though it spells nothing of the built-in tables.
func (t *Text) SetAdditions(loads, clocks []string) {
	t.ownLoads, t.ownClocks = loads, clocks
}

// CallsProjectLoader reports whether the project gives the file Loaders
// facts, or the file spells a launch or preload helper of SetAdditions:
// either way it calls a function that launches or loads kernels its text
// does not spell.
func (t *Text) CallsProjectLoader() bool {
	return t.Gives(Loaders) || len(t.ownLoads) > 0 && t.ContainsAny(t.ownLoads...)
}

// CallsProjectClock reports whether the project gives the file Clocks
// facts, or the file spells a clock or timer class of SetAdditions.
func (t *Text) CallsProjectClock() bool {
	return t.Gives(Clocks) || len(t.ownClocks) > 0 && t.ContainsAny(t.ownClocks...)
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
	t.given, t.asked = 0, 0
	t.ownLoads, t.ownClocks = nil, nil
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

// NameFilter is a small summary of a file's text, kept for the whole run
// for every file: it answers "may the file contain this name?" with no
// false negatives, so that project-wide analysis can find the callers of a
// function without reading every file again. It folds the three-byte
// sequences of the file into at most 8,192 bits, and into fewer while no
// more than a quarter of them are set: most files of a tree are small
// (11,000 of the 13-project tree's 15,400 are under 8 KB), and 8,192 bits
// each held 16 MB for the tree. Its bits are bytes (Bytes), so that a run
// can keep them out of the heap and look at them where they are
// (NameFilterOf).
type NameFilter struct {
	// bits are the folded set, little-endian: bit k of word w of the
	// triple set, folded, is bit k&7 of byte (w>>shift)*8 + k>>3.
	bits []byte
	// shift folds a word of the triple set into bits: word w of it is
	// word w>>shift here.
	shift uint8
}

// maxFilterWords is the filter's size before folding for density.
const maxFilterWords = 1 << 13 / 64

// NameFilter returns the text's filter.
func (t *Text) NameFilter() *NameFilter {
	shift := uint8(bits.TrailingZeros(uint(len(tripleSet{}) / maxFilterWords)))
	words := make([]uint64, maxFilterWords)
	if len(t.Src) >= minIndexedLen {
		t.index()
		for i, w := range t.triples {
			words[i>>shift] |= w
		}
	} else {
		for i := 0; i+2 < len(t.Src); i++ {
			k := tripleHash(uint32(t.Src[i])<<16 | uint32(t.Src[i+1])<<8 | uint32(t.Src[i+2]))
			words[k>>6>>shift] |= 1 << (k & 63)
		}
	}
	// Fold in halves while a quarter of the bits or fewer are set.
	n := len(words)
	for n > 1 {
		ones := 0
		for i := range n / 2 {
			ones += bits.OnesCount64(words[2*i] | words[2*i+1])
		}
		if ones*4 > n/2*64 {
			break
		}
		for i := range n / 2 {
			words[i] = words[2*i] | words[2*i+1]
		}
		n, shift = n/2, shift+1
	}
	out := make([]byte, 0, n*8)
	for _, w := range words[:n] {
		out = binary.LittleEndian.AppendUint64(out, w)
	}
	return &NameFilter{bits: out, shift: shift}
}

// Bytes returns the filter as bytes, for NameFilterOf (its shift last).
func (nf *NameFilter) Bytes() []byte {
	return append(slices.Clip(nf.bits), nf.shift)
}

// NameFilterOf returns the filter Bytes returned, reading data in place
// (nil for data no filter gave).
func NameFilterOf(data []byte) *NameFilter {
	if len(data) < 9 || (len(data)-1)%8 != 0 {
		return nil
	}
	return &NameFilter{bits: data[:len(data)-1], shift: data[len(data)-1]}
}

// MayContain reports whether the file may contain s: false means it does not.
// It is MayContainProbe(NewNameProbe(s)) without the probe: most questions
// are asked once of a file, and their probes were 0.4 GB of what
// sixteen copies of the 38-project corpus allocated.
func (nf *NameFilter) MayContain(s string) bool {
	if nf == nil {
		return true
	}
	for i := 0; i+2 < len(s); i++ {
		if !nf.has(tripleHash(uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2]))) {
			return false
		}
	}
	return true
}

// has reports whether the filter holds triple k.
func (nf *NameFilter) has(k uint16) bool {
	word, bit := int(k>>6), uint8(k&63)
	return nf.bits[(word>>nf.shift)<<3|int(bit>>3)]&(1<<(bit&7)) != 0
}

// NameProbe is a name's bits, computed once for asking many filters
// about it.
type NameProbe []nameBit

// nameBit is a bit of the triple set: bit bit of its word word.
type nameBit struct {
	word int
	bit  uint8
}

// NewNameProbe returns the probe for s.
func NewNameProbe(s string) NameProbe {
	out := make(NameProbe, 0, max(0, len(s)-2))
	for i := 0; i+2 < len(s); i++ {
		k := tripleHash(uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2]))
		out = append(out, nameBit{int(k >> 6), uint8(k & 63)})
	}
	return out
}

// MayContainProbe is MayContain for a probe.
func (nf *NameFilter) MayContainProbe(p NameProbe) bool {
	if nf == nil {
		return true
	}
	for _, b := range p {
		if nf.bits[(b.word>>nf.shift)<<3|int(b.bit>>3)]&(1<<(b.bit&7)) == 0 {
			return false
		}
	}
	return true
}

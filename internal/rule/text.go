package rule

import (
	"bytes"
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
	grams               gramSet // built on the first question about a long enough file
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

// gramSet is a bloom filter with one hash function over the four-byte
// sequences of a file: a bit per hash, as many bits as four per byte of the
// file (so at most a fifth of them set), between 2^12 and 2^18. Four bytes
// where three were used before: the three-byte sequences of "timer",
// "PROFIL" or "cudaMemGetInfo" are all in most large CUDA files, so on the
// 13-project tree a run still scanned 1 GB in vain; sized by the file, a
// small file clears little and a large one is not saturated.
type gramSet struct {
	words []uint64
	mask  uint32 // len(words)*64 - 1
}

const (
	minGramBits = 12
	maxGramBits = 18
)

// gramHash spreads a four-byte sequence over maxGramBits bits (Knuth's
// multiplicative hashing); a set of fewer bits keeps the low ones, so a
// hash is one value whatever the set's size (NameFilter folds them).
func gramHash(seq uint32) uint32 { return seq * 2654435761 >> (32 - maxGramBits) }

func (s *gramSet) reset(n int) {
	logBits := min(max(bits.Len(uint(4*n)), minGramBits), maxGramBits)
	words := 1 << logBits / 64
	if cap(s.words) < words {
		s.words = make([]uint64, words)
	} else {
		s.words = s.words[:words]
		clear(s.words)
	}
	s.mask = uint32(words*64 - 1)
}

func (s *gramSet) add(k uint32) {
	k &= s.mask
	s.words[k>>6] |= 1 << (k & 63)
}

func (s *gramSet) has(k uint32) bool {
	k &= s.mask
	return s.words[k>>6]&(1<<(k&63)) != 0
}

func gramAt(b []byte, i int) uint32 {
	return uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
}

// minIndexedLen is the size below which a file is scanned without an
// index: building one costs about what a few scans of half a kilobyte do
// (a rough choice; small files weigh little in a run).
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
	if len(lit) >= 4 && len(t.Src) >= minIndexedLen {
		t.index()
		for i := 0; i+3 < len(lit); i++ {
			if !t.grams.has(gramHash(uint32(lit[i])<<24 | uint32(lit[i+1])<<16 | uint32(lit[i+2])<<8 | uint32(lit[i+3]))) {
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
	src := t.Src
	t.grams.reset(len(src))
	if len(src) >= 4 {
		set := &t.grams
		seq := gramAt(src, 0)
		set.add(gramHash(seq))
		for _, c := range src[4:] {
			seq = seq<<8 | uint32(c)
			set.add(gramHash(seq))
		}
	}
	t.built = true
}

// NameFilter is a small summary of a file's text, kept for the whole run
// for every file: it answers "may the file contain this name?" with no
// false negatives, so that project-wide analysis can find the callers of a
// function without reading every file again. It folds the text's index of
// four-byte sequences into at most 8,192 bits, and into fewer while no
// more than a quarter of them are set: most files of a tree are small
// (11,000 of the 13-project tree's 15,400 are under 8 KB), and 8,192 bits
// each held 16 MB for the tree. A name shorter than four bytes may be in
// any file.
type NameFilter struct {
	words []uint64 // a power of two of them: bit k of the index is bit k&(len*64-1) here
}

// maxFilterWords is the filter's size before folding for density.
const maxFilterWords = 1 << 13 / 64

// NameFilter returns the text's filter.
func (t *Text) NameFilter() *NameFilter {
	var words []uint64
	if len(t.Src) >= minIndexedLen {
		t.index()
		words = make([]uint64, min(len(t.grams.words), maxFilterWords))
		for i, w := range t.grams.words {
			words[i&(len(words)-1)] |= w
		}
	} else {
		words = make([]uint64, maxFilterWords)
		for i := 0; i+3 < len(t.Src); i++ {
			k := gramHash(gramAt(t.Src, i))
			words[k>>6&(maxFilterWords-1)] |= 1 << (k & 63)
		}
	}
	// Fold in halves while a quarter of the bits or fewer are set.
	for len(words) > 1 {
		half := make([]uint64, len(words)/2)
		ones := 0
		for i := range half {
			half[i] = words[i] | words[i+len(half)]
			ones += bits.OnesCount64(half[i])
		}
		if ones*4 > len(half)*64 {
			break
		}
		words = half
	}
	return &NameFilter{words: slices.Clip(words)}
}

// MayContain reports whether the file may contain s: false means it does not.
func (nf *NameFilter) MayContain(s string) bool {
	return nf.MayContainProbe(NewNameProbe(s))
}

// NameProbe is a name's bits, computed once for asking many filters
// about it.
type NameProbe []nameBit

type nameBit struct {
	word int // of an index of maxGramBits bits
	mask uint64
}

// NewNameProbe returns the probe for s.
func NewNameProbe(s string) NameProbe {
	out := make(NameProbe, 0, max(0, len(s)-3))
	for i := 0; i+3 < len(s); i++ {
		k := gramHash(uint32(s[i])<<24 | uint32(s[i+1])<<16 | uint32(s[i+2])<<8 | uint32(s[i+3]))
		out = append(out, nameBit{int(k >> 6), 1 << (k & 63)})
	}
	return out
}

// MayContainProbe is MayContain for a probe.
func (nf *NameFilter) MayContainProbe(p NameProbe) bool {
	if nf == nil {
		return true
	}
	last := len(nf.words) - 1
	for _, b := range p {
		if nf.words[b.word&last]&b.mask == 0 {
			return false
		}
	}
	return true
}

package engine

import (
	"math/bits"
	"slices"
	"sort"
)

// fileSet is a set of file indexes, kept as the sorted list of its
// non-zero 64-bit words. The sets the project step memoizes (each file's
// include closure, its near sources, the files a name may be defined
// in) hold few files of a large tree: a dense bit set per file costs the
// tree's size each, which made memory grow with the square of the tree
// (18 MB of the 38-project corpus's live heap, a gigabyte at 8 times its
// size). The words keep the bit set's advantage where a set is dense: a
// library's headers, which sit side by side in walk order.
type fileSet struct {
	words []setWord
}

// setWord holds files k*64 to k*64+63, in two halves: 12 bytes, where a
// uint64 beside k made 16 (the kept sets are bounded by their words).
type setWord struct {
	k, lo, hi uint32
}

func newWord(k uint32, b uint64) setWord { return setWord{k, uint32(b), uint32(b >> 32)} }

func (w setWord) bits() uint64 { return uint64(w.hi)<<32 | uint64(w.lo) }

func newFileSet() fileSet { return fileSet{} }

// find returns the position of word k, or where it would be inserted.
func (s fileSet) find(k uint32) (int, bool) {
	n := sort.Search(len(s.words), func(j int) bool { return s.words[j].k >= k })
	return n, n < len(s.words) && s.words[n].k == k
}

func (s fileSet) has(i int) bool {
	if i < 0 {
		return false
	}
	n, ok := s.find(uint32(i / 64))
	return ok && s.words[n].bits()&(1<<(i%64)) != 0
}

// len returns the number of files in s.
func (s fileSet) len() int {
	n := 0
	for _, w := range s.words {
		n += bits.OnesCount64(w.bits())
	}
	return n
}

// each calls f with the files of s in order.
func (s fileSet) each(f func(i int)) {
	for _, w := range s.words {
		b := w.bits()
		for b != 0 {
			t := bits.TrailingZeros64(b)
			f(int(w.k)*64 + t)
			b &^= 1 << t
		}
	}
}

// shrink puts s's words in an array of their size, for a set that is
// kept: append's room is a quarter to a half more.
func (s *fileSet) shrink() {
	if cap(s.words) > len(s.words) {
		s.words = slices.Clone(s.words)
	}
}

func (s *fileSet) add(i int) {
	if i < 0 {
		return
	}
	k, bit := uint32(i/64), uint64(1)<<(i%64)
	// Files are mostly added in increasing order: append.
	if last := len(s.words) - 1; last < 0 || s.words[last].k < k {
		s.words = append(s.words, newWord(k, bit))
		return
	}
	n, ok := s.find(k)
	if ok {
		s.words[n] = newWord(k, s.words[n].bits()|bit)
		return
	}
	s.words = append(s.words, setWord{})
	copy(s.words[n+1:], s.words[n:])
	s.words[n] = newWord(k, bit)
}

// holds reports whether every file of o is in s.
func (s *fileSet) holds(o fileSet) bool {
	a := s.words
	for _, w := range o.words {
		for len(a) > 0 && a[0].k < w.k {
			a = a[1:]
		}
		if len(a) == 0 || a[0].k != w.k || w.bits()&^a[0].bits() != 0 {
			return false
		}
	}
	return true
}

// union adds the files of o to s.
func (s *fileSet) union(o fileSet) {
	if len(o.words) == 0 || s.holds(o) {
		// Most often the sets of files a name's callers reach are the
		// same project's: the union of the first is the union of all.
		// Merging into a new array each time was 8.6 GB of allocation
		// for sixteen copies of the corpus checked as one project.
		return
	}
	out := make([]setWord, 0, len(s.words)+len(o.words))
	a, b := s.words, o.words
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0].k < b[0].k:
			out, a = append(out, a[0]), a[1:]
		case b[0].k < a[0].k:
			out, b = append(out, b[0]), b[1:]
		default:
			out = append(out, newWord(a[0].k, a[0].bits()|b[0].bits()))
			a, b = a[1:], b[1:]
		}
	}
	// Its room is left to see: a set kept is made of its size (shrink).
	s.words = append(append(out, a...), b...)
}

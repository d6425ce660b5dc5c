package engine

import "hash/maphash"

// pathIndex finds a file's index by its path: an open-addressing table
// of file indexes. A map[string]int kept about 40 bytes a file for the
// whole run; this keeps 8 (the table half full), and a lookup costs one
// hash and, most often, one comparison (a binary search over the sorted
// paths was 5% of the CPU of eight copies of the corpus checked as one
// project). The paths themselves are not kept: is compares file i's path
// with a string (filePaths builds them when asked).
type pathIndex struct {
	seed maphash.Seed
	is   func(i int, path string) bool
	// slots hold an index plus one; 0 is an empty slot.
	slots []int32
}

// newPathIndex indexes n files whose paths path builds and is compares;
// of paths spelled alike, the last is found.
func newPathIndex(n int, path func(i int) string, is func(i int, path string) bool) pathIndex {
	size := 1
	for size < 2*n {
		size *= 2
	}
	x := pathIndex{seed: maphash.MakeSeed(), is: is, slots: make([]int32, size)}
	for i := range n {
		x.slots[x.probe(path(i))] = int32(i + 1)
	}
	return x
}

// probe returns the slot of path, or the empty slot where it would go.
func (x *pathIndex) probe(path string) int {
	mask := uint64(len(x.slots) - 1)
	for at := maphash.String(x.seed, path) & mask; ; at = (at + 1) & mask {
		if s := x.slots[at]; s == 0 || x.is(int(s)-1, path) {
			return int(at)
		}
	}
}

// find returns the index of path.
func (x *pathIndex) find(path string) (int, bool) {
	if len(x.slots) == 0 {
		return -1, false
	}
	s := x.slots[x.probe(path)]
	return int(s) - 1, s != 0
}

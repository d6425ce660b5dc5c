package engine

import "hash/maphash"

// pathIndex finds a file's index by its path: an open-addressing table
// of indexes into the paths it was built from. A map[string]int kept
// about 40 bytes a file for the whole run; this keeps 8 (the table half
// full), and a lookup costs one hash and, most often, one comparison
// (a binary search over the sorted paths was 5% of the CPU of eight
// copies of the corpus checked as one project).
type pathIndex struct {
	seed  maphash.Seed
	paths []string
	// slots hold an index plus one; 0 is an empty slot.
	slots []int32
}

// newPathIndex indexes paths; of paths spelled alike, the last is found.
func newPathIndex(paths []string) pathIndex {
	n := 1
	for n < 2*len(paths) {
		n *= 2
	}
	x := pathIndex{seed: maphash.MakeSeed(), paths: paths, slots: make([]int32, n)}
	for i, p := range paths {
		at := x.probe(p)
		x.slots[at] = int32(i + 1)
	}
	return x
}

// probe returns the slot of path, or the empty slot where it would go.
func (x *pathIndex) probe(path string) int {
	mask := uint64(len(x.slots) - 1)
	for at := maphash.String(x.seed, path) & mask; ; at = (at + 1) & mask {
		if s := x.slots[at]; s == 0 || x.paths[s-1] == path {
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

package engine

import (
	"encoding/binary"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
)

// The resolver keeps, by file, the files its directives name, in their
// order: beside the file when quoted, in an include folder, else by the
// path's end nearest the file; not the file itself, not a file outside
// the run. A file noted again keeps its last directives.
func TestIncludeResolver(t *testing.T) {
	abs := []string{"/p/src/x.cu", "/p/src/y.h", "/p/inc/z.h", "/p/lib/w.h", "/q/lib/w.h", "/p/src/v.cu"}
	r := newIncludeResolver(pathsOf(abs, nil), []string{"/p/inc"})
	r.note(0, []cudaparse.Include{
		{Path: "y.h", Quoted: true}, {Path: "z.h"}, {Path: "lib/w.h", Quoted: true},
		{Path: "missing.h", Quoted: true}, {Path: "x.cu", Quoted: true}, {Path: "y.h"},
	})
	r.note(5, []cudaparse.Include{{Path: "x.cu", Quoted: true}})
	r.note(5, []cudaparse.Include{{Path: "z.h", Quoted: true}, {Path: "y.h", Quoted: true}})
	e := r.edges()
	for i, want := range [][]int32{{1, 2, 3, 1}, nil, nil, nil, nil, {2, 1}} {
		if got := e.appendOf(nil, i); !slices.Equal(got, want) {
			t.Errorf("file %d includes %v, want %v", i, got, want)
		}
	}
}

func TestEdgesReversed(t *testing.T) {
	lists := [][]int32{{1, 2}, {2}, nil, {0, 2, 2}}
	e := newEdges(lists)
	if e.len() != 4 {
		t.Fatalf("len %d, want 4", e.len())
	}
	for i, l := range lists {
		if got := e.appendOf(nil, i); !slices.Equal(got, l) {
			t.Errorf("appendOf(%d) = %v, want %v", i, got, l)
		}
	}
	r := e.reversed()
	want := [][]int32{{3}, {0}, {0, 1, 3, 3}, nil}
	for i, l := range want {
		if got := r.appendOf(nil, i); !slices.Equal(got, l) {
			t.Errorf("reversed appendOf(%d) = %v, want %v", i, got, l)
		}
	}
	if got := e.appendOf([]int32{7}, 0); !slices.Equal(got, []int32{7, 1, 2}) {
		t.Errorf("appendOf([7], 0) = %v: not appended", got)
	}
}

// Edges far apart in either direction, and many of them, read back as
// they were given (differences of several varint bytes, both signs).
func TestEdgesFarApart(t *testing.T) {
	const n = 1 << 20
	lists := make([][]int32, n)
	lists[5] = []int32{n - 1, 0, 70000, 70001, 69999, 5 + 64, 3}
	lists[n-1] = []int32{0, n - 2, 1 << 14}
	for i := 100; i < 200; i++ {
		lists[i] = []int32{int32(i + 1), int32(i - 1)}
	}
	e := newEdges(lists)
	rev := make([][]int32, n)
	for i, l := range lists {
		if got := e.appendOf(nil, i); !slices.Equal(got, l) {
			t.Fatalf("appendOf(%d) = %v, want %v", i, got, l)
		}
		for _, j := range l {
			rev[j] = append(rev[j], int32(i))
		}
	}
	r := e.reversed()
	for j, l := range rev {
		if got := r.appendOf(nil, j); !slices.Equal(got, l) {
			t.Fatalf("reversed appendOf(%d) = %v, want %v", j, got, l)
		}
	}
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 8191, -8192, 8192, 1 << 40, -1 << 40} {
		if got, want := varintLen(v), len(binary.AppendVarint(nil, v)); got != want {
			t.Errorf("varintLen(%d) = %d, want %d", v, got, want)
		}
	}
}

func TestPathIndex(t *testing.T) {
	paths := []string{"a/x.cu", "b/y.h", "a/x.cu", "", "c/z.cuh"}
	x := stringPaths(paths)
	for path, want := range map[string]int{"a/x.cu": 2, "b/y.h": 1, "": 3, "c/z.cuh": 4} {
		if got, ok := x.find(path); !ok || got != want {
			t.Errorf("find(%q) = %d, %v; want %d", path, got, ok, want)
		}
	}
	for _, path := range []string{"a/x", "x.cu", "d/w.cu"} {
		if got, ok := x.find(path); ok {
			t.Errorf("find(%q) = %d, want none", path, got)
		}
	}
	var empty pathIndex
	if _, ok := empty.find("a"); ok {
		t.Error("an index of nothing found a path")
	}
	// Many paths: every one found at its own index, the table never full.
	many := make([]string, 5000)
	for i := range many {
		many[i] = strings.Repeat("d/", i%7) + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
	}
	x = stringPaths(many)
	for i, p := range many {
		if got, ok := x.find(p); !ok || got != i {
			t.Fatalf("find(%q) = %d, %v; want %d", p, got, ok, i)
		}
	}
}

func TestNearDirs(t *testing.T) {
	abs := []string{"/p/a/x.cu", "/p/a/b/y.cu", "/p/a/c/z.cu", "/p/q.cu", "/r.cu", "/p/a/b/d/w.cu"}
	pr := &projectRun{sources: pathsOf(abs, nil)}
	pr.indexShown()
	near := func(i, j int) bool { return pr.nearDirs(pr.dirID(i), pr.dirID(j)) }
	for _, c := range []struct {
		i, j int
		want bool
	}{
		{0, 0, true},  // the same folder
		{0, 1, true},  // parent and child
		{1, 0, true},  // child and parent
		{1, 2, false}, // siblings: two programs
		{0, 3, true},  // /p/a and /p
		{1, 3, false}, // a grandparent
		{5, 0, false}, // a grandchild
		{4, 3, true},  // the root and its child
		{4, 4, true},  // the root, its own parent
	} {
		if got := near(c.i, c.j); got != c.want {
			t.Errorf("near(%s, %s) = %v, want %v", abs[c.i], abs[c.j], got, c.want)
		}
	}
	// nearSources: the file's folder, its parent and its children, not
	// its siblings or grandchildren.
	var got []int
	pr.nearSources(0).each(func(j int) { got = append(got, j) })
	if want := []int{0, 1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("nearSources(%s) = %v, want %v", abs[0], got, want)
	}
}

// nearestBySuffix picks what the plain reading picks (every candidate's
// path built: ends with the include, longest shared folder prefix with the
// includer, then the first path), for folders at the root and below,
// names the include's suffix only partly matches, and ties.
func TestNearestBySuffixAsPlainPaths(t *testing.T) {
	plain := func(abs func(int) string, cands []int32, inc, dir string) int {
		best, bestShared, bestPath := -1, -1, ""
		suffix := string(filepath.Separator) + filepath.FromSlash(inc)
		for _, c := range cands {
			j := int(c)
			path := abs(j)
			if !strings.HasSuffix(path, suffix) {
				continue
			}
			shared := sharedPrefix(filepath.Dir(path), dir)
			if shared > bestShared || shared == bestShared && path < bestPath {
				best, bestShared, bestPath = j, shared, path
			}
		}
		return best
	}
	var absolute []string
	for _, root := range []string{"/", "/w/", "/w/a/", "/w/b/", "/w/a/include/", "/w/b/include/", "/w/ab/include/", "/x/include/sub/"} {
		for _, name := range []string{"util.h", "autil.h", "include", "sub.h"} {
			absolute = append(absolute, root+name)
		}
	}
	paths := newFilePaths(absolute, func(_ int, abs string) string { return abs })
	r := rand.New(rand.NewPCG(3, 3))
	checked := 0
	for range 2000 {
		var cands []int32
		for j := range absolute {
			if r.IntN(3) > 0 {
				cands = append(cands, int32(j))
			}
		}
		inc := []string{"util.h", "include/util.h", "a/include/util.h", "sub.h", "include/sub/sub.h", "til.h"}[r.IntN(6)]
		dir := filepath.Dir(absolute[r.IntN(len(absolute))])
		want := plain(paths.abs, cands, inc, dir)
		if got := nearestBySuffix(paths, cands, inc, dir); got != want {
			t.Fatalf("include %q from %s among %v: got %d, want %d", inc, dir, cands, got, want)
		}
		if want >= 0 {
			checked++
		}
	}
	if checked < 500 {
		t.Fatalf("only %d of the cases found a file: the test checks little", checked)
	}
}

// A scan's four lists of names, kept in one array, read back as set, in
// any order of setting and setting again.
func TestScannedNamesLists(t *testing.T) {
	var n scannedNames
	want := [4][]nameID{}
	r := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		k := r.IntN(4)
		ids := make([]nameID, r.IntN(4))
		for i := range ids {
			ids[i] = nameID(r.IntN(100))
		}
		n.set(k, ids)
		want[k] = ids
		for l := range 4 {
			if got := n.list(l); !slices.Equal(got, want[l]) {
				t.Fatalf("list %d: got %v, want %v", l, got, want[l])
			}
		}
	}
	if !slices.Equal(n.calls(), want[callsList]) || !slices.Equal(n.timingDefines(), want[timingDefinesList]) {
		t.Fatal("the named lists are not the numbered ones")
	}
}

// A walk of the include graph visits each file it reaches once, the
// file it starts from only through a cycle, and a walk after its marks
// are cleared starts afresh.
func TestClosureWalkVisitsEachFileOnce(t *testing.T) {
	// 0 -> 1 -> 2 -> {0, 1}; 3 -> 1; 4 alone.
	g := newEdges([][]int32{{1}, {2}, {0, 1}, {1}, nil})
	var w closureWalk
	walk := func(from int) []int32 {
		var got []int32
		lo, hi := w.walk(g, from, func(j int32) { got = append(got, j) })
		if lo <= hi {
			clear(w.seen[lo : hi+1])
		}
		return got
	}
	for _, c := range []struct {
		from int
		want []int32
	}{{0, []int32{1, 2, 0}}, {3, []int32{1, 2, 0}}, {1, []int32{2, 0, 1}}, {4, nil}} {
		if got := walk(c.from); !slices.Equal(got, c.want) {
			t.Errorf("walk from %d visits %v, want %v", c.from, got, c.want)
		}
	}
	for k, word := range w.seen {
		if word != 0 {
			t.Errorf("word %d still marked after the walks: %b", k, word)
		}
	}
}

// Rows hold each key's numbers in increasing order; a negative key puts a
// number in none.
func TestRows(t *testing.T) {
	keys := []int32{2, 0, -1, 2, 0, 3, 2}
	r := newRows(5, len(keys), func(i int) int32 { return keys[i] })
	for k, want := range [][]int32{{1, 4}, nil, {0, 3, 6}, {5}, nil} {
		if got := r.row(int32(k)); !slices.Equal(got, want) {
			t.Errorf("row(%d) = %v, want %v", k, got, want)
		}
	}
	if len(r.items) != 6 {
		t.Errorf("%d items, want 6: the one of key -1 is in no row", len(r.items))
	}
}

// newEdges makes the graph whose file i has edges lists[i], as the
// include resolver would keep it.
func newEdges(lists [][]int32) edges {
	e := edges{start: make([]uint32, len(lists)+1)}
	n := 0
	for i, l := range lists {
		prev := int64(i)
		for _, j := range l {
			n += varintLen(int64(j) - prev)
			prev = int64(j)
		}
	}
	e.data = make([]byte, 0, n)
	for i, l := range lists {
		e.data = appendEdgeRun(e.data, i, l)
		e.start[i+1] = uint32(len(e.data))
	}
	return e
}

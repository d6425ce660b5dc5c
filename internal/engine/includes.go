package engine

import (
	"encoding/binary"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/varint"
)

// nearSources returns the source files (not headers) of file i's folder,
// its parent and its children: those whose functions a call in file i
// may reach without an include (visibleFrom).
func (pr *projectRun) nearSources(i int) fileSet {
	return pr.memoSet(&pr.near, i, func() fileSet {
		set := newFileSet()
		d := pr.dirID(i)
		addSources := func(dir int32) {
			for _, j := range pr.dirFiles.row(dir) {
				if !pr.header[j] {
					set.add(int(j))
				}
			}
		}
		addSources(d)
		if parent := pr.dirParent[d]; parent >= 0 {
			addSources(parent)
		}
		for _, child := range pr.dirChildren.row(d) {
			addSources(child)
		}
		return set
	})
}

// memoSet returns (*memo)[i], computing and keeping it on the first ask,
// under visMu and with the files indexed: the per-file sets the link's
// visibility questions ask again and again.
func (pr *projectRun) memoSet(memo *map[int]fileSet, i int, compute func() fileSet) fileSet {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	if set, ok := (*memo)[i]; ok {
		return set
	}
	pr.indexShown()
	set := compute()
	set.shrink() // it is kept
	// The sets are the tree's files a file's questions reach, and their
	// number grows with the tree's (eight copies of the 38-project
	// corpus as one project held 27 MB of them): past a budget the
	// memos start again, each set a function of the linked files alone.
	pr.memoWords += len(set.words) + 4
	if pr.memoWords > maxMemoWords {
		pr.near, pr.includedHdr, pr.includedSrc, pr.besideHdr = nil, nil, nil, nil
		pr.memoWords = len(set.words) + 4
	}
	if *memo == nil {
		*memo = map[int]fileSet{}
	}
	(*memo)[i] = set
	return set
}

// maxMemoWords bounds the words of the sets memoSet keeps (12 bytes
// each, four more a set for its slice and map entry: about 3 MB), and
// maxVisibleMacros the macros visibleMacros keeps. Halving both (and
// keptParseBytes, link's maxResolved) took eight copies of the corpus
// checked as one project from 872 to 768 MB of RSS at the same CPU time
// (123.8 against 122.9 s) and changed nothing at one copy.
//
// maxClosureWords bounds the words of the include closures kept (about
// 6 MB).
const (
	maxClosureWords  = 1 << 19
	maxMemoWords     = 1 << 18
	maxVisibleMacros = 1 << 15
)

// includedHeaders returns the headers of file i's own folder that it
// includes, directly or not: a wrapper header beside the code that calls
// it (a library's headers, elsewhere, define thousands of functions).
func (pr *projectRun) includedHeaders(i int) fileSet {
	return pr.memoSet(&pr.includedHdr, i, func() fileSet {
		return pr.includedWhere(i, func(j int) bool { return pr.header[j] && pr.dirID(j) == pr.dirID(i) })
	})
}

// includedWhere returns the files file i includes, directly or not, that
// keep says (under visMu).
func (pr *projectRun) includedWhere(i int, keep func(j int) bool) fileSet {
	pr.indexShown()
	set := newFileSet()
	pr.includeClosure(i).each(func(j int) {
		if keep(j) {
			set.add(j)
		}
	})
	return set
}

// includedSources returns the source files (not headers) file i includes,
// directly or not: a test that includes the implementation it tests.
// Headers are left to definedBy: a template library's headers define
// thousands of functions, none of them a second definition of a name.
func (pr *projectRun) includedSources(i int) fileSet {
	return pr.memoSet(&pr.includedSrc, i, func() fileSet {
		return pr.includedWhere(i, func(j int) bool { return !pr.header[j] })
	})
}

// includedFrom reports whether file from includes file def, directly or
// not.
func (pr *projectRun) includedFrom(from, def string) bool {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	fi, di, ok := pr.pair(from, def)
	return ok && pr.includeClosure(fi).has(di)
}

// pair returns the indexes of files from and def (under visMu).
func (pr *projectRun) pair(from, def string) (fi, di int, ok bool) {
	pr.indexShown()
	di, ok = pr.fileByShown(def)
	fi, ok2 := pr.fileByShown(from)
	return fi, di, ok && ok2
}

// visibleFrom says whether a function defined in file def can be what a
// call in file from reaches: def is a header from includes (directly or
// not), or a source file of the same program: in from's folder, its
// parent or a child. A repository of many programs
// (benchmark suites, samples) reuses names across them; a definition in
// another program is not the one called.
func (pr *projectRun) visibleFrom(from, def string) bool {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	fi, di, ok := pr.pair(from, def)
	if !ok {
		return false
	}
	if !pr.header[di] && (pr.nearDirs(pr.dirID(fi), pr.dirID(di)) || slices.Contains(pr.headerDirs(fi), pr.dirID(di))) {
		return true
	}
	if pr.includeClosure(fi).has(di) {
		return true
	}
	// A header included into another one (an implementation header at
	// the end of its interface's, `#include "primitives_inl.h"`) is that
	// header's text: it sees what its includer includes.
	if pr.header[fi] {
		pr.includersBuf = pr.directIncluders(pr.includersBuf[:0], fi)
		if by := pr.includersBuf; len(by) <= maxTextualIncluders {
			for _, k := range by {
				if pr.header[k] && pr.includeClosure(int(k)).has(di) {
					return true
				}
			}
		}
	}
	return false
}

// maxTextualIncluders bounds the headers a header is read as part of: an
// implementation header is included by its interface's header alone; a
// header many include is a header of its own.
const maxTextualIncluders = 2

// directIncluders appends the files that include file i directly to dst
// (under visMu).
func (pr *projectRun) directIncluders(dst []int32, i int) []int32 {
	if pr.includedBy.start == nil {
		pr.macroMu.Lock()
		pr.resolveIncludes()
		pr.macroMu.Unlock()
		pr.includedBy = pr.includes.reversed()
	}
	return pr.includedBy.appendOf(dst, i)
}

// nearFrom reports whether def is a source file in from's folder, its
// parent or a child.
func (pr *projectRun) nearFrom(from, def string) bool {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	fi, di, ok := pr.pair(from, def)
	return ok && !pr.header[di] && pr.nearDirs(pr.dirID(fi), pr.dirID(di))
}

// sourcesBesideHeaders returns the source files in the folders of the
// headers file i includes (headerDirs): their implementations.
func (pr *projectRun) sourcesBesideHeaders(i int) fileSet {
	return pr.memoSet(&pr.besideHdr, i, func() fileSet {
		set := newFileSet()
		for _, d := range pr.headerDirs(i) {
			for _, j := range pr.dirFiles.row(d) {
				if !pr.header[j] {
					set.add(int(j))
				}
			}
		}
		return set
	})
}

// headerDirs returns the folders of the headers file i includes, directly
// or not (under visMu): a source file beside a header a file includes is
// most likely that header's implementation, linked into the same program
// (tests/ calling what src/ defines and declares in src/lib.h).
//
// The folders are numbers (dirID), each once, in no set order: comparing
// and inserting path strings in order was a tenth of the link's serial
// time on the 13-project tree.
func (pr *projectRun) headerDirs(i int) []int32 {
	if dirs, ok := pr.includedDirs[i]; ok {
		return dirs
	}
	var dirs []int32
	pr.includeClosure(i).each(func(j int) {
		if d := pr.dirID(j); pr.header[j] && d != pr.dirID(i) && !pr.dirSeen[d] {
			pr.dirSeen[d] = true
			dirs = append(dirs, d)
		}
	})
	for _, d := range dirs {
		pr.dirSeen[d] = false
	}
	// Each file asked about keeps its list (13 MB of sixteen copies of the
	// corpus checked as one project): past a budget the memo starts again.
	pr.includedDirsHeld += len(dirs) + 8
	if pr.includedDirs == nil || pr.includedDirsHeld > maxIncludedDirs {
		pr.includedDirs = map[int][]int32{}
		pr.includedDirsHeld = len(dirs) + 8
	}
	pr.includedDirs[i] = slices.Clip(dirs)
	return dirs
}

// maxIncludedDirs bounds the folder numbers headerDirs keeps, each list
// counted 8 more for its slice and map entry (about 2 MB).
const maxIncludedDirs = 1 << 19

// indexShown lists each folder's files, parent and children (by the
// path table's folder numbers) and indexes the files by shown path, once
// (under visMu). Numbers, not maps of paths: a map entry per file was 40
// bytes of every file of a large tree, kept to the end of the run.
func (pr *projectRun) indexShown() {
	if pr.byShown.slots != nil {
		return
	}
	n := pr.sources.len()
	folders := pr.sources.folders
	pr.header = make([]bool, n)
	for i := range n {
		pr.header[i] = cudaparse.IsHeader(pr.sources.name(i))
	}
	pr.dirFiles = newRows(len(folders), n, pr.dirID)
	// Each folder's parent and children among the folders that hold files
	// (a root is its own parent, and its own child, as filepath.Dir has it).
	ids := make(map[string]int32, len(folders))
	for id, folder := range folders {
		ids[filepath.Clean(folder)] = int32(id)
	}
	pr.dirParent = make([]int32, len(folders))
	for id, folder := range folders {
		parent, ok := ids[filepath.Dir(filepath.Clean(folder))]
		if !ok {
			parent = -1
		}
		pr.dirParent[id] = parent
	}
	pr.dirChildren = newRows(len(folders), len(folders), func(id int) int32 { return pr.dirParent[id] })
	pr.dirSeen = make([]bool, len(folders))
	pr.byShown = newPathIndex(n, pr.sources.shown, pr.sources.isShown)
}

// dirID is the number of file i's folder: the path table's (filePaths
// numbers each folder once, in walk order).
func (pr *projectRun) dirID(i int) int32 { return int32(pr.sources.folderOf[i]) }

// fileByShown returns the index of the file shown as path (after
// indexShown): of files shown alike, the last.
func (pr *projectRun) fileByShown(path string) (int, bool) {
	// The link asks about the same strings again and again (a summary's
	// path, the calling file's): hashing and comparing the path was 7%
	// of the CPU of sixteen copies of the corpus checked as one project.
	// The key holds the string's bytes, which stay where they are while
	// the memo keeps them.
	key := shownKey{unsafe.StringData(path), len(path)}
	if i, ok := pr.shownAt[key]; ok {
		return int(i), i >= 0
	}
	i, ok := pr.byShown.find(path)
	if !ok {
		i = -1
	}
	if pr.shownAt == nil || len(pr.shownAt) >= maxShownMemo {
		pr.shownAt = map[shownKey]int32{}
	}
	pr.shownAt[key] = int32(i)
	return i, ok
}

// shownKey is a string by where its bytes are (fileByShown).
type shownKey struct {
	data *byte
	n    int
}

// maxShownMemo bounds fileByShown's memo (about 2 MB, and the strings it
// keeps).
const maxShownMemo = 1 << 15

// includersOf returns the source files (not headers) that include header,
// directly or not, by shown path and in that order (the link's question).
func (pr *projectRun) includersOf(header string) []string {
	pr.visMu.Lock()
	pr.indexShown()
	h, ok := pr.fileByShown(header)
	pr.visMu.Unlock()
	if !ok {
		return nil
	}
	got := pr.includerFiles(h)
	out := make([]string, len(got))
	for k, i := range got {
		out[k] = pr.sources.shown(int(i))
	}
	return out
}

// includerFiles returns the source files (not headers) that include file
// h, directly or not, in the order of their shown paths (memoized; under
// visMu).
func (pr *projectRun) includerFiles(h int) []int32 {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	if got, ok := pr.includers[int32(h)]; ok {
		return got
	}
	pr.indexShown()
	got := pr.findIncluders(h)
	if pr.includers == nil {
		pr.includers = map[int32][]int32{}
	}
	pr.includers[int32(h)] = got
	return got
}

// findIncluders returns the source files (not headers) that include file
// h, directly or not, sorted by shown path.
func (pr *projectRun) findIncluders(h int) []int32 {
	// Back along the include graph, as deep as includeClosure goes
	// forward: the same files, without the closure of every file.
	type includer struct {
		file  int32
		shown string
	}
	var found []includer
	seen := newFileSet()
	frontier := pr.directIncluders(nil, h)
	for depth := 0; depth < maxIncludeDepth && len(frontier) > 0; depth++ {
		var next []int32
		for _, i := range frontier {
			if seen.has(int(i)) {
				continue
			}
			seen.add(int(i))
			if !pr.header[i] {
				found = append(found, includer{i, pr.sources.shown(int(i))})
			}
			next = pr.includedBy.appendOf(next, int(i))
		}
		frontier = next
	}
	sort.Slice(found, func(a, b int) bool { return found[a].shown < found[b].shown })
	out := make([]int32, len(found))
	for k, f := range found {
		out[k] = f.file
	}
	return out
}

// nearDirs reports whether folders a and b (dirID) are the same, or
// parent and child. Siblings are not: examples/10_x and examples/11_y are
// two programs.
func (pr *projectRun) nearDirs(a, b int32) bool {
	return a == b || pr.dirParent[a] == b || pr.dirParent[b] == a
}

// includeClosure returns the files file i includes, directly or not
// (memoized; under visMu). In a library whose headers include hundreds
// of others (cccl), maps of them held 90 MB of the 15,400-file corpus's
// 200 MB live heap: a fileSet keeps them as words of bits.
func (pr *projectRun) includeClosure(i int) fileSet {
	if c, ok := pr.closures[i]; ok {
		return c
	}
	pr.macroMu.Lock()
	pr.resolveIncludes()
	pr.macroMu.Unlock()
	// The walk marks a dense bit set and two frontiers kept between calls,
	// and builds the sparse set once, in order: growing it file by file
	// allocated 160 MB over the 13-project tree.
	w := &pr.closureWalk
	lo, hi := w.walk(pr.includes, i, nil)
	// The marks, read in order and cleared: the set is built sorted
	// without sorting.
	c := newFileSet()
	for k := lo; k <= hi; k++ {
		for word := w.seen[k]; word != 0; word &= word - 1 {
			c.add(k*64 + bits.TrailingZeros64(word)) // in order: appends
		}
		w.seen[k] = 0
	}
	c.shrink() // it is kept
	// As memoSet's: a closure is a function of the include graph alone,
	// and the closures of a large tree's files grow with it (12 MB of
	// eight copies of the corpus): past a budget they start again.
	pr.closureWords += len(c.words) + 4
	if pr.closures == nil || pr.closureWords > maxClosureWords {
		pr.closures = map[int]fileSet{}
		pr.closureWords = len(c.words) + 4
	}
	pr.closures[i] = c
	return c
}

// closureWalk is the scratch memory of walks of the include graph, one
// at a time (includeClosure's under visMu, visibleMacros' under macroMu).
type closureWalk struct {
	seen           []uint64
	frontier, next []int32
}

// walk marks the files from reaches through includes, breadth first to
// maxIncludeDepth, and calls visit (when not nil) with each as it is
// first marked (from itself only where a cycle leads back to it). It
// returns the range of words of seen that holds the marks, which the
// caller clears (lo > hi: none).
func (w *closureWalk) walk(includes edges, from int, visit func(j int32)) (lo, hi int) {
	if len(w.seen) == 0 {
		w.seen = make([]uint64, (includes.len()+63)/64)
	}
	w.frontier = includes.appendOf(w.frontier[:0], from)
	frontier, next := w.frontier, w.next[:0]
	lo, hi = len(w.seen), -1
	for depth := 0; depth < maxIncludeDepth && len(frontier) > 0; depth++ {
		next = next[:0]
		for _, j := range frontier {
			if w.seen[j/64]&(1<<(j%64)) == 0 {
				w.seen[j/64] |= 1 << (j % 64)
				lo, hi = min(lo, int(j/64)), max(hi, int(j/64))
				if visit != nil {
					visit(j)
				}
				next = includes.appendOf(next, int(j))
			}
		}
		frontier, next = next, frontier
	}
	w.frontier, w.next = frontier[:0], next[:0]
	return lo, hi
}

// resolveIncludes fills includes: the indices each file includes, as the
// files were noted (includeResolver).
func (pr *projectRun) resolveIncludes() {
	if pr.includes.start != nil {
		return
	}
	pr.includes = pr.resolver.edges()
	pr.resolver = nil // its indexes are the run's no longer
}

// nearestBySuffix picks, of the files named like the include, those whose
// path ends with it, and of them the one sharing the longest folder prefix
// with the includer (then the first by path). A candidate's path is built
// only when it is as near as the best so far: each include of a tree
// whose copies name their headers alike has a candidate a copy, and
// building every one's path was 3.7 GB of allocation for sixteen copies
// of the corpus checked as one project.
func nearestBySuffix(paths *filePaths, cands []int32, inc, dir string) int {
	best, bestShared, bestPath := -1, -1, ""
	suffix := string(filepath.Separator) + filepath.FromSlash(inc)
	for _, c := range cands {
		j := int(c)
		folder, name := paths.folders[paths.folderOf[j]], paths.name(j)
		if !joinedHasSuffix(folder, name, suffix) {
			continue
		}
		shared := sharedPrefix(folderDir(folder), dir)
		if shared < bestShared {
			continue
		}
		if path := folder + name; shared > bestShared || path < bestPath {
			best, bestShared, bestPath = j, shared, path
		}
	}
	return best
}

// joinedHasSuffix reports whether folder+name ends with suffix.
func joinedHasSuffix(folder, name, suffix string) bool {
	if len(suffix) <= len(name) {
		return strings.HasSuffix(name, suffix)
	}
	return strings.HasSuffix(name, suffix[len(suffix)-len(name):]) && strings.HasSuffix(folder, suffix[:len(suffix)-len(name)])
}

// folderDir is filepath.Dir of a path in folder (a clean absolute folder
// with its trailing separator, as filePaths keeps them).
func folderDir(folder string) string {
	switch len(folder) {
	case 0:
		return "."
	case 1:
		return folder
	}
	return folder[:len(folder)-1]
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// maxIncludeDepth bounds how deep the include graph is followed.
const maxIncludeDepth = 16

// visibleMacros returns the call-renaming macros of the project headers
// file i includes, directly or not (its own are the parser's business).
// Include cycles end where a file was seen; a header included from many
// files is walked once per includer, its own macros shared.
func (pr *projectRun) visibleMacros(i int) cudaparse.MacroTable {
	pr.macroMu.Lock()
	defer pr.macroMu.Unlock()
	if t, ok := pr.visible[i]; ok {
		return t
	}
	pr.resolveIncludes()
	t := cudaparse.MacroTable{}
	t.Add(pr.opts.GlobalMacros...)
	// A walk with the memory kept between calls: a map and two lists a
	// walk were 1.4 of the 35 GB sixteen copies of the 38-project corpus
	// checked as one project allocated.
	w := &pr.macroWalk
	lo, hi := w.walk(pr.includes, i, func(j int32) {
		if int(j) != i { // its own are the parser's business
			t.Add(pr.facts[j].scanResult().macros...)
		}
	})
	if lo <= hi {
		clear(w.seen[lo : hi+1])
	}
	// As memoSet's: the tables grow with the tree, and start again past
	// a budget.
	pr.visibleCount += len(t) + 1
	if pr.visible == nil || pr.visibleCount > maxVisibleMacros {
		pr.visible = map[int]cudaparse.MacroTable{}
		pr.visibleCount = len(t) + 1
	}
	pr.visible[i] = t
	return t
}

// rows are lists of numbers by key in one array (compressed rows): row k
// is items[start[k]:start[k+1]]. A slice a key was 24 bytes of each of a
// large tree's folders, and its own small array.
type rows struct {
	start []uint32
	items []int32
}

// newRows makes n rows: row k holds, in increasing order, the numbers i
// under m whose keyOf(i) is k (a negative key: in no row).
func newRows(n, m int, keyOf func(i int) int32) rows {
	r := rows{start: make([]uint32, n+1)}
	for i := range m {
		if k := keyOf(i); k >= 0 {
			r.start[k+1]++
		}
	}
	for k := 1; k <= n; k++ {
		r.start[k] += r.start[k-1]
	}
	r.items = make([]int32, r.start[n])
	next := slices.Clone(r.start[:n])
	for i := range m {
		if k := keyOf(i); k >= 0 {
			r.items[next[k]] = int32(i)
			next[k]++
		}
	}
	return r
}

// row returns row k (not to be written).
func (r rows) row(k int32) []int32 { return r.items[r.start[k]:r.start[k+1]:r.start[k+1]] }

// edges is a graph on the files, its edges in one byte array (compressed
// rows): file i's lie in data[start[i]:start[i+1]], in their order, each
// as a zigzag varint of its difference from the one before it (the first
// from i). A slice per file was 24 bytes of every file of a large tree,
// most of them with no edge; an int32 an edge was 11 MB of sixteen copies
// of the 38-project corpus checked as one project (both ways), where a
// file's includes and includers lie near it in walk order: one or two
// bytes an edge.
type edges struct {
	start []uint32
	data  []byte
}

// appendEdgeRun appends file from's edges to, encoded as edges keeps them
// (appendOf reads them back).
func appendEdgeRun(dst []byte, from int, to []int32) []byte {
	prev := int64(from)
	for _, j := range to {
		dst = binary.AppendVarint(dst, int64(j)-prev)
		prev = int64(j)
	}
	return dst
}

// varintLen is the length of binary.AppendVarint's encoding of v.
func varintLen(v int64) int {
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	return (bits.Len64(u|1) + 6) / 7
}

// len returns the number of files.
func (e edges) len() int { return max(len(e.start)-1, 0) }

// appendOf appends file i's edges to dst.
func (e edges) appendOf(dst []int32, i int) []int32 {
	r := varint.Reader{Data: e.data[e.start[i]:e.start[i+1]]}
	prev := int64(i)
	for len(r.Data) > 0 {
		prev += r.Varint()
		dst = append(dst, int32(prev))
	}
	return dst
}

// reversed returns the graph with every edge turned around, each file's
// edges in increasing order of their origin. Its rows are sized first,
// then filled, each from its own offset: no list of the edges is made.
func (e edges) reversed() edges {
	n := e.len()
	r := edges{start: make([]uint32, n+1)}
	last := make([]int32, n) // by target: the origin of its last edge
	for j := range last {
		last[j] = int32(j)
	}
	var buf []int32
	for i := range n {
		buf = e.appendOf(buf[:0], i)
		for _, j := range buf {
			r.start[j+1] += uint32(varintLen(int64(i) - int64(last[j])))
			last[j] = int32(i)
		}
	}
	for j := 1; j <= n; j++ {
		r.start[j] += r.start[j-1]
	}
	r.data = make([]byte, r.start[n])
	next := slices.Clone(r.start[:n])
	for j := range last {
		last[j] = int32(j)
	}
	for i := range n {
		buf = e.appendOf(buf[:0], i)
		for _, j := range buf {
			next[j] += uint32(binary.PutVarint(r.data[next[j]:], int64(i)-int64(last[j])))
			last[j] = int32(i)
		}
	}
	return r
}

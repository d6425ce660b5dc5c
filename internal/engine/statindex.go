package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/fastread"
	"github.com/lazylint/lazylint/internal/varint"
)

// A stat index spares a warm run the reading of files that did not
// change: for each file it keeps the stamp the file had when it was last
// read (size, modification and change times, inode) and the fingerprint of
// its text then. A file whose stamp is the same is taken to have the same
// text, as git's index takes it: an edit changes the change time, which no
// tool can set back. Reading every file was most of a warm run (15,419
// files of the 13-project tree: 0.19 of its 0.32 s of CPU), about what
// ripgrep spends reading them.
//
// The index is local to a machine and a tree: its cache key names the
// tree's folder, and a restored cache on another machine (CI) finds none
// and reads every file, as before. A file changed within racyWindow before
// the index was written is not trusted (its stamp may not show a second
// edit in the same tick of a coarse clock); it is read the next time.
type statIndex struct {
	// written is when the files were stamped (before any was read), in
	// nanoseconds since 1970.
	written int64
	entries map[string]statEntry
}

// statEntry is what the index keeps of one file.
type statEntry struct {
	stamp fastread.Stamp
	// hash is the fingerprint of the file's text (hashSources); size the
	// text's length (what a warm run reports as read).
	hash uint64
	size int64
}

// racyWindow is how long before the index was written a file must have
// last changed for its stamp to be trusted: file systems with coarse
// timestamps tick once a second or two.
var racyWindow = 2 * time.Second

const statIndexVersion = 1

// statIndexKey is the cache key of the stat index of the tree at base (an
// absolute folder), for this binary.
func statIndexKey(base string) cache.Key {
	binary, _ := cache.BinaryHash()
	return sha256.Sum256(fmt.Appendf(nil, "lazylint stat index %d\n%x\n%s", statIndexVersion, binary, base))
}

// unchanged returns the entry of the file at path when its stamp now is
// the one the index holds and old enough to trust.
func (ix *statIndex) unchanged(path string, now fastread.Stamp) (statEntry, bool) {
	if ix == nil || !now.Known() {
		return statEntry{}, false
	}
	e, ok := ix.entries[path]
	if !ok || e.stamp != now || e.stamp.Mtime >= ix.written-int64(racyWindow) || e.stamp.Ctime >= ix.written-int64(racyWindow) {
		return statEntry{}, false
	}
	return e, true
}

// The index is written (stampedSources.encode) as its time, then per
// file the path and the entry, each number a varint.
func appendStatIndexHead(out []byte, written int64, n int) []byte {
	out = binary.AppendUvarint(out, statIndexVersion)
	out = binary.AppendVarint(out, written)
	return binary.AppendUvarint(out, uint64(n))
}

func appendStatEntry(out []byte, path string, e statEntry) []byte {
	out = binary.AppendUvarint(out, uint64(len(path)))
	out = append(out, path...)
	for _, v := range [...]int64{e.stamp.Size, e.stamp.Mtime, e.stamp.Ctime, e.size} {
		out = binary.AppendVarint(out, v)
	}
	for _, v := range [...]uint64{e.stamp.Ino, e.stamp.Dev, e.hash} {
		out = binary.AppendUvarint(out, v)
	}
	return out
}

// decodeStatIndex reads what stampedSources.encode wrote; nil for
// anything else (a damaged index costs the reading of the files, nothing
// more).
func decodeStatIndex(data []byte) *statIndex {
	d := varint.Reader{Data: data}
	if d.Uvarint() != statIndexVersion {
		return nil
	}
	ix := &statIndex{written: d.Varint()}
	n := d.Uvarint()
	if d.Bad || n > uint64(len(data)) {
		return nil
	}
	ix.entries = make(map[string]statEntry, n)
	for range n {
		path := d.Bytes(d.Uvarint())
		var e statEntry
		e.stamp.Size, e.stamp.Mtime, e.stamp.Ctime, e.size = d.Varint(), d.Varint(), d.Varint(), d.Varint()
		e.stamp.Ino, e.stamp.Dev, e.hash = d.Uvarint(), d.Uvarint(), d.Uvarint()
		if d.Bad {
			return nil
		}
		ix.entries[string(path)] = e
	}
	if len(d.Data) != 0 {
		return nil
	}
	return ix
}

// stampedSources is a run's use of the stat index: the index of the last
// run (old, nil for none) and what this run learns (fresh), by source.
// A nil *stampedSources reads every file.
type stampedSources struct {
	sources *filePaths
	old     *statIndex
	fresh   []statEntry
	// started is when this run began stamping (before it read a file).
	started time.Time
	reread  atomic.Int64
}

func newStampedSources(sources *filePaths, old *statIndex) *stampedSources {
	return &stampedSources{sources: sources, old: old, fresh: make([]statEntry, sources.len()), started: time.Now()}
}

// unchanged returns source i's entry when the old index may stand for its
// text (and keeps it for the next index).
func (s *stampedSources) unchanged(i int) (statEntry, bool) {
	if s == nil || s.old == nil {
		return statEntry{}, false
	}
	abs := s.sources.abs(i)
	e, ok := s.old.unchanged(abs, fastread.StampOf(abs))
	if ok {
		s.fresh[i] = e
	}
	return e, ok
}

// read notes that source i was read, and its entry when it could be.
func (s *stampedSources) read(i int, e statEntry, ok bool) {
	if s == nil {
		return
	}
	s.reread.Add(1)
	if ok && e.stamp.Known() {
		s.fresh[i] = e
	}
}

// encode returns the index for the next run (statIndex.encode): the
// entries of the files this run read or trusted, written as they are
// (a large tree's index as a map cost tens of MB for a moment).
func (s *stampedSources) encode() []byte {
	n := 0
	for _, e := range s.fresh {
		if e.stamp.Known() {
			n++
		}
	}
	out := appendStatIndexHead(nil, s.started.UnixNano(), n)
	for i, e := range s.fresh {
		if e.stamp.Known() {
			out = appendStatEntry(out, s.sources.abs(i), e)
		}
	}
	return out
}

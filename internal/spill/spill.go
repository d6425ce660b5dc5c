// Package spill keeps byte records out of the Go heap's object graph: a
// large project's summaries hold millions of small values that the link
// reads once or twice, and as Go values they were most of a check's peak
// memory (8 copies of the 38-project corpus as one project: 1.6 GB). A
// Store packs records into fixed chunks, keeps the first chunks in memory
// and writes the rest to a temporary file, read back on demand; a small
// project never touches the disk.
package spill

import (
	"os"
	"runtime"
	"sync"
)

// chunkSize is the size of a chunk (New's); a record is never split
// across two, so a record longer than a chunk is not stored (Put reports
// false and the caller keeps its value).
const chunkSize = 1 << 20

// Ref names a stored record: its offset in the store (40 bits) and its
// length (24 bits).
type Ref uint64

func makeRef(off int64, n int) Ref { return Ref(uint64(off)<<24 | uint64(n)) }

func (r Ref) offset() int64 { return int64(r >> 24) }
func (r Ref) length() int   { return int(r & (1<<24 - 1)) }

// Store is an append-only set of records, safe for concurrent use.
type Store struct {
	mu sync.Mutex
	// chunks are the chunks in memory, by index (nil: written to file).
	chunks [][]byte
	// inMemory is how many chunks may stay in memory; the others go to
	// file once full. chunkSize is their size.
	inMemory  int
	chunkSize int
	dir       string
	file      *os.File
	// removed: the file left its folder when made (it goes when closed).
	removed bool
	// written are the lengths of the chunks on file, by index; kept the
	// pages GetNear read, nextKept the one replaced next.
	written  []int
	kept     [keptPages]keptPage
	nextKept int
	// fileFailed: the file could not be made or written; every chunk
	// stays in memory from then on (correct, only larger).
	fileFailed bool
}

// New returns a store that keeps up to memoryBytes in memory and writes
// the rest to a temporary file in dir ("" for the system's).
func New(memoryBytes int, dir string) *Store { return NewChunked(memoryBytes, chunkSize, dir) }

// NewChunked is New with chunks of chunkBytes (at most 16 MiB): small
// chunks put a test's few records on disk.
func NewChunked(memoryBytes, chunkBytes int, dir string) *Store {
	chunkBytes = min(max(chunkBytes, 1), 1<<24)
	return &Store{inMemory: memoryBytes / chunkBytes, chunkSize: chunkBytes, dir: dir}
}

// Put stores data and returns its reference; false when data is larger
// than a chunk (or the store is nil).
func (s *Store) Put(data []byte) (Ref, bool) {
	if s == nil || len(data) > s.chunkSize {
		return 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	last := len(s.chunks) - 1
	if last < 0 || s.chunks[last] == nil || len(s.chunks[last])+len(data) > s.chunkSize {
		if last >= 0 {
			s.retire(last)
		}
		s.chunks = append(s.chunks, make([]byte, 0, s.chunkSize))
		s.written = append(s.written, 0)
		last++
	}
	c := s.chunks[last]
	off := int64(last)*int64(s.chunkSize) + int64(len(c))
	// The chunk's array is never reallocated (its capacity is a chunk):
	// records handed out by Get stay valid while it grows.
	s.chunks[last] = append(c, data...)
	return makeRef(off, len(data)), true
}

// retire writes full chunk k to the file when the chunks in memory exceed
// their number, and drops it from memory.
func (s *Store) retire(k int) {
	if k < s.inMemory || s.fileFailed {
		return
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, "lazylint-spill-*")
		if err != nil {
			s.fileFailed = true
			return
		}
		// Gone from the folder at once where the system allows it: a
		// killed run leaves nothing behind. Where it does not, the file
		// goes with the store (no one need call Close: a language
		// server's project keeps its store while it is current).
		s.removed = os.Remove(f.Name()) == nil
		s.file = f
		if !s.removed {
			runtime.AddCleanup(s, func(f *os.File) {
				name := f.Name()
				_ = f.Close()
				_ = os.Remove(name)
			}, f)
		}
	}
	if _, err := s.file.WriteAt(s.chunks[k], int64(k)*int64(s.chunkSize)); err != nil {
		s.fileFailed = true
		return
	}
	s.written[k] = len(s.chunks[k])
	s.chunks[k] = nil
}

// Get returns the record ref names. The bytes are the caller's to read,
// not to change; nil when ref names nothing stored (or the file cannot be
// read back). A record on disk is read alone, unless the page around it
// was read for GetNear and is still kept (then it is copied from it).
func (s *Store) Get(ref Ref) []byte { return s.get(ref, false, nil) }

// GetNear is Get for a caller going through many records in the order
// they were put (a pass over every file's filter): a record on disk is
// read with the page of the chunk around it (nearPage bytes), which the
// next records are then read from (the last keptPages pages are kept).
// A record not in memory is copied into *buf (grown as needed), which the
// caller keeps for the next record (a record in memory is not copied:
// never pass a returned record as buf). The kept pages' arrays are
// then the store's alone, and a page read replaces the oldest one in its
// array: a page each read was 7 GB of allocation for sixteen copies of
// the corpus checked as one project, and 10-17 MB of the most live heap
// (pages allocated while the collector marked).
func (s *Store) GetNear(ref Ref, buf *[]byte) []byte { return s.get(ref, true, buf) }

// nearPage and keptPages size GetNear's reads and what it keeps of them:
// a page holds about 25 name filters; 64 of them 1 MB.
const (
	nearPage  = 16 << 10
	keptPages = 64
)

// keptPage is part of a chunk read from the file: its bytes from start.
type keptPage struct {
	chunk, start int
	data         []byte
}

func (s *Store) get(ref Ref, near bool, buf *[]byte) []byte {
	if s == nil {
		return nil
	}
	off, n := ref.offset(), ref.length()
	k := int(off / int64(s.chunkSize))
	at := int(off % int64(s.chunkSize))
	s.mu.Lock()
	if k >= len(s.chunks) {
		s.mu.Unlock()
		return nil
	}
	if c := s.chunks[k]; c != nil {
		// A chunk's array is never reused: its records stay valid.
		s.mu.Unlock()
		if at+n > len(c) {
			return nil
		}
		return c[at : at+n : at+n]
	}
	for _, p := range s.kept {
		if p.chunk == k && p.data != nil && at >= p.start && at+n <= p.start+len(p.data) {
			out := copyInto(buf, p.data[at-p.start:at-p.start+n])
			s.mu.Unlock()
			return out
		}
	}
	f, size := s.file, s.written[k]
	if f == nil {
		s.mu.Unlock()
		return nil
	}
	if !near {
		s.mu.Unlock()
		out := make([]byte, n)
		if _, err := f.ReadAt(out, off); err != nil {
			return nil
		}
		return out
	}
	// The oldest kept page's array is taken out of the ring while the new
	// page is read into it: no other reader sees it meanwhile.
	slot := s.nextKept
	s.nextKept = (slot + 1) % keptPages
	page := s.kept[slot].data
	s.kept[slot] = keptPage{}
	s.mu.Unlock()
	start := at &^ (nearPage - 1)
	need := min(size, max(start+nearPage, at+n)) - start
	if cap(page) < need {
		page = make([]byte, need)
	}
	page = page[:need]
	if _, err := f.ReadAt(page, int64(k)*int64(s.chunkSize)+int64(start)); err != nil || at+n > start+need {
		return nil
	}
	out := copyInto(buf, page[at-start:at-start+n])
	s.mu.Lock()
	s.kept[slot] = keptPage{k, start, page}
	s.mu.Unlock()
	return out
}

// copyInto copies rec into *buf, grown as needed (nil: into a new array).
func copyInto(buf *[]byte, rec []byte) []byte {
	if buf == nil {
		return append([]byte(nil), rec...)
	}
	*buf = append((*buf)[:0], rec...)
	return *buf
}

// Size returns the bytes of the records' chunks held in memory and
// written to file.
func (s *Store) Size() (inMemory, onDisk int64) {
	if s == nil {
		return 0, 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, c := range s.chunks {
		if c != nil {
			inMemory += int64(len(c))
		} else {
			onDisk += int64(s.written[k])
		}
	}
	return inMemory, onDisk
}

// Close drops the records and removes the file.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.chunks, s.written, s.kept = nil, nil, [keptPages]keptPage{}
	if s.file == nil {
		return nil
	}
	name := s.file.Name()
	err := s.file.Close()
	if !s.removed {
		// Not removed when made (a system that keeps open files).
		if rerr := os.Remove(name); err == nil && rerr != nil && !os.IsNotExist(rerr) {
			err = rerr
		}
	}
	s.file = nil
	return err
}

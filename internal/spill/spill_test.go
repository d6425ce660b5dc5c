package spill

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Records put from several goroutines, across chunks kept in memory and
// chunks written to file, read back as they were put.
func TestStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := New(2*chunkSize, dir)
	const workers, each = 4, 3000
	refs := make([][]Ref, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for k := range each {
				ref, ok := s.Put(record(w, k, r.IntN(2000)))
				if !ok {
					t.Errorf("put %d/%d refused", w, k)
					return
				}
				refs[w] = append(refs[w], ref)
			}
		})
	}
	wg.Wait()
	var scratch []byte // GetNear's copies, reused
	for w := range workers {
		r := rand.New(rand.NewPCG(uint64(w), 1))
		for k, ref := range refs[w] {
			want := record(w, k, r.IntN(2000))
			if got := s.Get(ref); !bytes.Equal(got, want) {
				t.Fatalf("record %d/%d: got %d bytes, want %d", w, k, len(got), len(want))
			}
			if got := s.GetNear(ref, &scratch); !bytes.Equal(got, want) {
				t.Fatalf("record %d/%d read with its chunk: got %d bytes, want %d", w, k, len(got), len(want))
			}
		}
	}
	if s.file == nil {
		t.Fatalf("%d chunks and none written to file: the test does not reach the file", len(s.chunks))
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 && s.removed {
		t.Errorf("the spill file stays in the folder: %v", entries)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("left after Close: %v", entries)
	}
}

func record(w, k, n int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("%d.%d;", w, k)), n/8+1)
}

// A record longer than a chunk is refused (the caller keeps its value);
// a store that cannot make its file keeps every chunk in memory.
func TestStoreLimits(t *testing.T) {
	s := New(0, filepath.Join(t.TempDir(), "missing"))
	if _, ok := s.Put(make([]byte, chunkSize+1)); ok {
		t.Error("a record longer than a chunk was stored")
	}
	var refs []Ref
	for k := range 5 {
		ref, ok := s.Put(bytes.Repeat([]byte{byte(k)}, chunkSize/2+1))
		if !ok {
			t.Fatal("refused")
		}
		refs = append(refs, ref)
	}
	if !s.fileFailed {
		t.Error("the file was made in a folder that does not exist")
	}
	for k, ref := range refs {
		if got := s.Get(ref); len(got) != chunkSize/2+1 || got[0] != byte(k) {
			t.Fatalf("record %d lost", k)
		}
	}
	var nilStore *Store
	if _, ok := nilStore.Put([]byte("x")); ok || nilStore.Get(0) != nil || nilStore.Close() != nil {
		t.Error("a nil store stores")
	}
}

// GetNear reads pages into the arrays of the pages it keeps, and copies a
// record out of them: a record read before, by Get or GetNear, stays as it
// was while later passes replace every kept page, and passes from several
// goroutines read what was put (go test -race checks the pages' arrays).
func TestKeptPagesAreTheStores(t *testing.T) {
	s := NewChunked(1<<12, 1<<12, t.TempDir())
	var refs []Ref
	var want [][]byte
	for k := range 3000 {
		rec := record(0, k, 40+k%200)
		ref, ok := s.Put(rec)
		if !ok {
			t.Fatalf("put %d refused", k)
		}
		refs, want = append(refs, ref), append(want, rec)
	}
	mid := len(refs) / 2 // in a chunk on disk (the first chunk stays in memory)
	var buf []byte
	first := s.GetNear(refs[mid], &buf)
	if len(first) == 0 || &first[0] != &buf[0] {
		t.Fatal("a record on disk was not copied into the caller's buffer")
	}
	held := s.Get(refs[mid+1]) // from the page the GetNear before kept
	if !bytes.Equal(held, want[mid+1]) {
		t.Fatalf("a record read from a kept page: got %d bytes, want %d", len(held), len(want[mid+1]))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			var buf []byte
			for k := w; k < len(refs); k += 2 {
				if got := s.GetNear(refs[k], &buf); !bytes.Equal(got, want[k]) {
					t.Errorf("record %d: got %d bytes, want %d", k, len(got), len(want[k]))
					return
				}
			}
		})
	}
	wg.Wait()
	if !bytes.Equal(held, want[mid+1]) || !bytes.Equal(s.Get(refs[mid]), want[mid]) {
		t.Error("a record read before changed when its page's array was reused")
	}
	if s.file == nil {
		t.Fatal("no chunk written to file: the test does not reach the kept pages")
	}
}

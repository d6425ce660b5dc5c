package cache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestPutGetAndPrune(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fresh, old := Key{1}, Key{2}
	c.Put(fresh, []byte("fresh"))
	c.Put(old, []byte("old"))
	if got, ok := c.Get(fresh); !ok || string(got) != "fresh" {
		t.Fatalf("Get = %q %v", got, ok)
	}
	if _, ok := c.Get(Key{3}); ok {
		t.Fatal("a missing entry was found")
	}
	long := time.Now().Add(-60 * 24 * time.Hour)
	if err := os.Chtimes(c.path(old), long, long); err != nil {
		t.Fatal(err)
	}
	if n := c.Prune(30*24*time.Hour, time.Hour); n != 1 {
		t.Errorf("pruned %d, want 1", n)
	}
	if _, ok := c.Get(old); ok {
		t.Error("the old entry survived")
	}
	if _, ok := c.Get(fresh); !ok {
		t.Error("the fresh entry was pruned")
	}
	// A hit refreshes an entry's time once it is old: it is then kept.
	c.Put(old, []byte("old"))
	_ = os.Chtimes(c.path(old), long, long)
	if _, ok := c.Get(old); !ok {
		t.Fatal("the old entry was not found")
	}
	if st, err := os.Stat(c.path(old)); err != nil || time.Since(st.ModTime()) > time.Hour {
		t.Fatalf("a hit did not refresh the entry's time (%v)", err)
	}
	// Within the interval a second prune does nothing.
	c.Put(old, []byte("old"))
	_ = os.Chtimes(c.path(old), long, long)
	if n := c.Prune(30*24*time.Hour, time.Hour); n != 0 {
		t.Errorf("pruned again within the interval: %d", n)
	}
	// No temporary files are left behind.
	matches, _ := filepath.Glob(filepath.Join(c.dir, "*", ".tmp-*"))
	if len(matches) != 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

func TestReadOnlyLayers(t *testing.T) {
	own, shared := t.TempDir(), t.TempDir()
	sc, err := Open(shared)
	if err != nil {
		t.Fatal(err)
	}
	sc.Put(Key{1}, []byte("shared"))
	oc, err := Open(own)
	if err != nil {
		t.Fatal(err)
	}
	oc.Put(Key{2}, []byte("own"))
	c := oc.WithReadOnly(filepath.Join(t.TempDir(), "missing"), shared)
	if got, ok := c.Get(Key{1}); !ok || string(got) != "shared" {
		t.Errorf("Get from the read-only layer = %q %v", got, ok)
	}
	if got, ok := c.Get(Key{2}); !ok || string(got) != "own" {
		t.Errorf("Get from its own folder = %q %v", got, ok)
	}
	// Writes go to its own folder only.
	c.Put(Key{3}, []byte("new"))
	if _, ok := sc.Get(Key{3}); ok {
		t.Error("a write reached the read-only folder")
	}
	if _, ok := oc.Get(Key{3}); !ok {
		t.Error("a write missed the cache's own folder")
	}
	// Without a folder of its own, a cache only reads.
	ro := (*Cache)(nil).WithReadOnly(shared)
	ro.Put(Key{4}, []byte("lost"))
	if _, ok := ro.Get(Key{4}); ok {
		t.Error("a read-only cache kept a write")
	}
	if _, ok := ro.Get(Key{1}); !ok {
		t.Error("a read-only cache missed its folder's entry")
	}
	if n := ro.Prune(0, 0); n != 0 {
		t.Errorf("a read-only cache pruned %d", n)
	}
}

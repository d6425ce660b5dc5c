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

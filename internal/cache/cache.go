// Package cache stores per-file results on disk, content-addressed: an
// entry's name is a hash of everything the result depends on (the file's
// bytes, the lazylint binary, the rules and their settings), so an entry is
// never stale, only unused. Writes go through a temporary file and a
// rename, so concurrent runs never see half an entry; an entry that cannot
// be read or decoded is a miss, and is rewritten.
package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/lazylint/lazylint/internal/fastread"
)

// Key names an entry.
type Key [sha256.Size]byte

// Cache is a folder of entries, and the read-only folders (summaries
// written by `lazylint summarize`, a cache restored on a CI machine) that
// are looked in when it misses. A cache with no folder of its own only
// reads.
type Cache struct {
	dir      string
	readOnly []*Cache
}

// WithReadOnly returns a cache that writes to c's folder (none when c is
// nil) and reads from it, then from dirs in order. The folders need not
// exist: a missing one has no entries.
func (c *Cache) WithReadOnly(dirs ...string) *Cache {
	out := &Cache{}
	if c != nil {
		out.dir, out.readOnly = c.dir, c.readOnly
	}
	for _, d := range dirs {
		out.readOnly = append(out.readOnly, &Cache{dir: d})
	}
	return out
}

// Dir is the default folder: lazylint/ in the user's cache folder
// ($XDG_CACHE_HOME or ~/.cache on Linux), or $LAZYLINT_CACHE_DIR.
func Dir() (string, error) {
	if d := os.Getenv("LAZYLINT_CACHE_DIR"); d != "" {
		return d, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "lazylint"), nil
}

// Open returns the cache in dir, creating the folder.
func Open(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Cache{dir: dir}, nil
}

func (c *Cache) path(k Key) string {
	name := hex.EncodeToString(k[:])
	return filepath.Join(c.dir, name[:2], name[2:])
}

// refreshAfter is how old an entry's time may be before a hit refreshes
// it: Prune counts in days, and refreshing on every hit would cost a
// system call per file of a warm run.
const refreshAfter = time.Hour

// Get returns the entry's bytes. A hit refreshes the entry's time, which
// Prune goes by, when it is more than refreshAfter old.
func (c *Cache) Get(k Key) ([]byte, bool) {
	if c.dir != "" {
		if data, ok := c.get(k); ok {
			return data, true
		}
	}
	for _, r := range c.readOnly {
		if data, _, err := fastread.ReadFile(r.path(k)); err == nil {
			return data, true
		}
	}
	return nil, false
}

func (c *Cache) get(k Key) ([]byte, bool) {
	p := c.path(k)
	data, mtime, err := fastread.ReadFile(p)
	if err != nil {
		return nil, false
	}
	if now := time.Now(); now.Sub(mtime) > refreshAfter {
		_ = os.Chtimes(p, now, now)
	}
	return data, true
}

// pruneMarker is the file whose time says when the cache was last pruned.
const pruneMarker = ".pruned"

// Prune removes the entries not used for maxAge, at most once per
// interval (runs in between return at once), so that the folder does not
// grow without end. It returns the number of entries removed.
func (c *Cache) Prune(maxAge, interval time.Duration) int {
	if c.dir == "" {
		return 0
	}
	marker := filepath.Join(c.dir, pruneMarker)
	if st, err := os.Stat(marker); err == nil && time.Since(st.ModTime()) < interval {
		return 0
	}
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		return 0
	}
	removed := 0
	cutoff := time.Now().Add(-maxAge)
	subdirs, _ := os.ReadDir(c.dir)
	for _, sd := range subdirs {
		if !sd.IsDir() || len(sd.Name()) != 2 {
			continue
		}
		dir := filepath.Join(c.dir, sd.Name())
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			info, err := e.Info()
			if err != nil || info.IsDir() || info.ModTime().After(cutoff) {
				continue
			}
			if os.Remove(filepath.Join(dir, e.Name())) == nil {
				removed++
			}
		}
	}
	return removed
}

// Put writes an entry; failures are ignored (a cache that cannot be
// written only makes the next run slower).
func (c *Cache) Put(k Key, data []byte) {
	if c.dir == "" {
		return
	}
	p := c.path(k)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
	}
}

var (
	binaryOnce sync.Once
	binaryHash []byte
	binaryErr  error
)

// BinaryHash is a hash of the running executable: results computed by
// another build of lazylint (changed rules, same version string) get other
// keys.
func BinaryHash() ([]byte, error) {
	binaryOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			binaryErr = err
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			binaryErr = err
			return
		}
		defer f.Close()
		// xxHash, not SHA-256: the binary is tens of megabytes, and a warm
		// run (a quarter of a second) spent a twentieth of its time here.
		// Telling builds apart needs no cryptographic hash.
		h := xxhash.New()
		if _, err := io.Copy(h, f); err != nil {
			binaryErr = err
			return
		}
		binaryHash = h.Sum(nil)
	})
	if binaryHash == nil && binaryErr == nil {
		binaryErr = errors.New("no executable hash")
	}
	return binaryHash, binaryErr
}

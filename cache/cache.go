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
)

// Key names an entry.
type Key [sha256.Size]byte

// Cache is a folder of entries.
type Cache struct {
	dir string
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

// Get returns the entry's bytes.
func (c *Cache) Get(k Key) ([]byte, bool) {
	data, err := os.ReadFile(c.path(k))
	return data, err == nil
}

// Put writes an entry; failures are ignored (a cache that cannot be
// written only makes the next run slower).
func (c *Cache) Put(k Key, data []byte) {
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
		h := sha256.New()
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

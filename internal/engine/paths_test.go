package engine

import (
	"path/filepath"
	"testing"
)

// stringPaths indexes a list of paths.
func stringPaths(paths []string) pathIndex {
	return newPathIndex(len(paths), func(i int) string { return paths[i] }, func(i int, path string) bool { return paths[i] == path })
}

// pathsOf keeps absolute paths shown as shown says (nil: as themselves).
func pathsOf(abs, shown []string) *filePaths {
	return newFilePaths(abs, func(i int, a string) string {
		if shown == nil {
			return a
		}
		return shown[i]
	})
}

func TestFilePaths(t *testing.T) {
	abs := []string{"/p/a/x.cu", "/p/a/y.h", "/p/b/x.cu", "/r.cu", "/p/a/b/c/z.cuh", "/q/out.cu", "/p/a/x.cu", "/p/n"}
	shown := []string{"a/x.cu", "a/y.h", "b/x.cu", "/r.cu", "a/b/c/z.cuh", "../q/out.cu", "x.cu", "n"}
	p := pathsOf(abs, shown)
	if p.len() != len(abs) {
		t.Fatalf("len %d, want %d", p.len(), len(abs))
	}
	if len(p.folders) != 6 {
		t.Errorf("%d folders (%q), want 6: one for each folder, however many files it holds", len(p.folders), p.folders)
	}
	if want := "x.cuy.hr.cuz.cuhout.cun"; p.names != want {
		t.Errorf("names %q, want %q: each base name once, however many folders hold it", p.names, want)
	}
	for i := range abs {
		if got := p.abs(i); got != abs[i] {
			t.Errorf("abs(%d) = %q, want %q", i, got, abs[i])
		}
		if got := p.shown(i); got != shown[i] {
			t.Errorf("shown(%d) = %q, want %q", i, got, shown[i])
		}
		if got, want := p.name(i), filepath.Base(abs[i]); got != want {
			t.Errorf("name(%d) = %q, want %q", i, got, want)
		}
		if got, want := p.dir(i), filepath.Dir(abs[i]); got != want {
			t.Errorf("dir(%d) = %q, want %q", i, got, want)
		}
		for j := range abs {
			if got, want := p.isAbs(i, abs[j]), abs[i] == abs[j]; got != want {
				t.Errorf("isAbs(%d, %q) = %v, want %v", i, abs[j], got, want)
			}
			if got, want := p.isShown(i, shown[j]), shown[i] == shown[j]; got != want {
				t.Errorf("isShown(%d, %q) = %v, want %v", i, shown[j], got, want)
			}
		}
		// Near misses: a path one byte longer or shorter, or the name
		// alone, is another path.
		for _, s := range []string{abs[i] + "x", abs[i][:len(abs[i])-1], filepath.Base(abs[i]) + "/"} {
			if p.isAbs(i, s) {
				t.Errorf("isAbs(%d, %q) = true", i, s)
			}
			if s != shown[i] && p.isShown(i, s) {
				t.Errorf("isShown(%d, %q) = true", i, s)
			}
		}
	}
	if len(p.others) != 1 || p.others[5] != "../q/out.cu" {
		t.Errorf("others %v, want only the path outside the base folder", p.others)
	}
	// Indexed by either path, the last of paths spelled alike found.
	byAbs := newPathIndex(p.len(), p.abs, p.isAbs)
	byShown := newPathIndex(p.len(), p.shown, p.isShown)
	for i := range abs {
		want := i
		if i == 0 {
			want = 6
		}
		if got, ok := byAbs.find(abs[i]); !ok || got != want {
			t.Errorf("byAbs.find(%q) = %d, %v; want %d", abs[i], got, ok, want)
		}
		if got, ok := byShown.find(shown[i]); !ok || got != i {
			t.Errorf("byShown.find(%q) = %d, %v; want %d", shown[i], got, ok, i)
		}
	}
	if _, ok := byShown.find("a/z.cu"); ok {
		t.Error("found a path no file has")
	}
}

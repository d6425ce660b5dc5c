package fastread

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestReadFileMatchesOS(t *testing.T) {
	dir := t.TempDir()
	contents := map[string]string{
		"empty.cu": "",
		"one.cu":   "x",
		"small.cu": "__global__ void k() {}\n",
		"big.cuh":  strings.Repeat("int a[] = {1, 2, 3};\n", 100_000),
	}
	for name, body := range contents {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		got, mtime, err := ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, []byte(body)) {
			t.Errorf("%s: read %d bytes, want %d", name, len(got), len(body))
		}
		st, _ := os.Stat(path)
		if !mtime.Equal(st.ModTime()) {
			t.Errorf("%s: modification time %v, os.Stat says %v", name, mtime, st.ModTime())
		}
	}
}

// A file whose size stat does not know (procfs says 0) is read to its end.
func TestReadFileGrows(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	got, _, err := ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got, []byte("Name:")) || !bytes.HasSuffix(got, []byte("\n")) {
		t.Errorf("read %q", got)
	}
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{filepath.Join(dir, "missing.cu"), dir} {
		_, _, err := ReadFile(path)
		_, osErr := os.ReadFile(path)
		var pe *fs.PathError
		if err == nil || !errors.As(err, &pe) {
			t.Fatalf("%s: error %v, want a *fs.PathError", path, err)
		}
		if err.Error() != osErr.Error() {
			t.Errorf("%s: error %q, os.ReadFile says %q", path, err, osErr)
		}
	}
}

// A file's stamp is the same read or stat'ed, and an edit that keeps the
// size and the modification time still changes it (the change time).
func TestStampSeesAnEdit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.cu")
	if err := os.WriteFile(path, []byte("cudaMalloc(p, 1);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, read, err := ReadFileStamped(path)
	if err != nil {
		t.Fatal(err)
	}
	if !read.Known() {
		t.Skip("no stamps on " + runtime.GOOS)
	}
	if got := StampOf(path); got != read {
		t.Fatalf("stat %+v, read %+v", got, read)
	}
	if read.Ctime%int64(time.Second) == 0 {
		time.Sleep(1100 * time.Millisecond) // a file system that counts whole seconds
	}
	info, _ := os.Stat(path)
	if err := os.WriteFile(path, []byte("cudaMallox(p, 1);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	after := StampOf(path)
	if after == read || after.Size != read.Size || after.Mtime != read.Mtime {
		t.Errorf("after the edit %+v, before %+v: want only the change time to differ", after, read)
	}
	if StampOf(filepath.Join(filepath.Dir(path), "none.cu")).Known() || StampOf(filepath.Dir(path)).Known() {
		t.Error("a missing file or a folder has a stamp")
	}
}

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

package cudaparse

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// With DeviceCodeOnly, a parse stops after the pre-pass only for a file of
// which no function is device code: checked on every C, C++ and CUDA file
// of the repository's fixtures and examples, where both outcomes occur.
func TestDeviceCodeOnlyStopsOnlyWithoutDeviceFunctions(t *testing.T) {
	full, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	only, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer only.Close()
	only.DeviceCodeOnly = true
	stopped, parsed := 0, 0
	eachSourceFixture(t, func(path string, src []byte) {
		f, parseErr := full.Parse(path, src)
		if parseErr != nil {
			t.Logf("%s: %v (left out)", path, parseErr) // files that do not parse are not the question here
			return
		}
		device := false
		for _, fn := range f.Functions {
			device = device || fn.Space&(SpaceDevice|SpaceGlobal) != 0
		}
		_, err := only.Parse(path, src)
		switch {
		case errors.Is(err, ErrNoDeviceCode) && device:
			t.Errorf("%s: stopped, but a function of it is device code", path)
		case errors.Is(err, ErrNoDeviceCode):
			stopped++
		case err != nil:
			t.Errorf("%s: %v", path, err)
		default:
			parsed++
		}
	})
	if stopped < 20 || parsed < 20 {
		t.Errorf("%d files stopped and %d parsed: the fixtures should hold many of both", stopped, parsed)
	}
	t.Logf("%d stopped, %d parsed", stopped, parsed)
}

// eachSourceFixture calls visit with every C, C++ and CUDA file of the
// repository's fixtures and examples, and its text.
func eachSourceFixture(t *testing.T, visit func(path string, src []byte)) {
	t.Helper()
	for _, root := range []string{"testdata", "../rules", "../testdata", "../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !slices.Contains([]string{".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc", ".c"}, filepath.Ext(path)) {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			visit(path, src)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Package fakecuda builds a stand-in for libcuda.so.1 (testdata/libcuda.c)
// so that the probe is tested on machines without a GPU. Only tests import
// it.
package fakecuda

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Source is the path of the fake driver's C source.
func Source() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", "libcuda.c")
}

// Build compiles the fake driver with gcc into a fresh folder and returns
// the path of its libcuda.so.1. Each build is a separate library, with its
// own state, even when one process dlopens several. defines are passed as
// -D flags (e.g. "FAKE_NO_LIBRARY").
func Build(t testing.TB, defines ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "libcuda.so.1")
	args := []string{"-shared", "-fPIC", "-O1", "-Wall", "-Werror", "-o", out}
	for _, d := range defines {
		args = append(args, "-D"+d)
	}
	args = append(args, Source())
	cmd := exec.Command("gcc", args...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the fake libcuda: %v\n%s", err, msg)
	}
	return out
}

package cgoheaders

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

func TestWrite(t *testing.T) {
	want := []string{"cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "nvml.h"}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	dir := filepath.Join(t.TempDir(), "new", "dir")
	written, err := Write(dir)
	if err != nil || len(written) != len(want) {
		t.Fatalf("Write: %v %v", written, err)
	}
	for _, p := range written {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	// The headers compile as C and as C++, with every warning on.
	src := filepath.Join(t.TempDir(), "all.c")
	body := "#include <cuda.h>\n#include <cuda_runtime.h>\n#include <nvml.h>\n" +
		"int main(void) { size_t f, t; cuMemGetInfo(&f, &t); cudaMemGetInfo(&f, &t); return (int)nvmlMemory_v2 & 0; }\n"
	if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cc := range [][]string{{"gcc", "-std=c99"}, {"g++", "-x", "c++"}} {
		if _, err := exec.LookPath(cc[0]); err != nil {
			continue
		}
		args := append(append([]string{}, cc[1:]...), "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I"+dir, src)
		if out, err := exec.Command(cc[0], args...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", cc[0], err, out)
		}
	}
}

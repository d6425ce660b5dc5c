package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestReadCompileDB(t *testing.T) {
	dir := t.TempDir()
	db := `[
  {"directory": "/work/build", "file": "../src/a.cu",
   "command": "nvcc -I../include -I /opt/cuda/include -isystem third_party \"-DGPU_NAME=my gpu\" -DgpuMalloc=cudaMalloc -c ../src/a.cu"},
  {"directory": "/work/build", "file": "../src/b.cpp",
   "arguments": ["c++", "-iquote", "gen", "-I../include", "-DLOG(x)=log_it(x)", "-DgpuFree(p)=cudaFree(p)", "-c", "../src/b.cpp"]}
]`
	path := filepath.Join(dir, "compile_commands.json")
	if err := os.WriteFile(path, []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCompileDB(path)
	if err != nil {
		t.Fatal(err)
	}
	wantDirs := []string{"/work/include", "/opt/cuda/include", "/work/build/third_party", "/work/build/gen"}
	if !reflect.DeepEqual(got.IncludeDirs, wantDirs) {
		t.Errorf("include dirs = %v, want %v", got.IncludeDirs, wantDirs)
	}
	if len(got.Macros) != 2 || got.Macros[0].Name != "gpuMalloc" || got.Macros[1].Name != "gpuFree" || !got.Macros[1].FunctionLike {
		t.Errorf("macros = %+v, want gpuMalloc and gpuFree(p) (LOG renames to no CUDA call)", got.Macros)
	}
	if err := os.WriteFile(path, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCompileDB(path); err == nil {
		t.Error("a broken database read without error")
	}
}

func TestSplitCommand(t *testing.T) {
	got := splitCommand(`nvcc 'a b' "c \"d\"" e\ f  g`)
	want := []string{"nvcc", "a b", `c "d"`, "e f", "g"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

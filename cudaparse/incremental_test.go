package cudaparse

import (
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// An incremental parse (Parser.Incremental, as the language server uses)
// gives the same tree as a fresh parse, edit after edit: insertions and
// deletions anywhere, CUDA syntax the pre-pass rewrites (so the pre-passed
// text changes beyond the edit) and edits that break the syntax and mend it.
func TestIncrementalParseMatchesFresh(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "rules", "ll00*", "testdata", "*.cu"))
	if len(files) < 5 {
		t.Fatalf("only %d fixtures", len(files))
	}
	slices.Sort(files)
	inserts := []string{"k<<<1, 1>>>(p);\n", "__global__ void g() {}\n", "{", "}", "(", "/* c */", "\"", "#define X(a) a\n", "x", "\n", "while (*f == 0) {}\n"}
	incremental, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer incremental.Close()
	incremental.Incremental = true
	fresh, err := NewParser()
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	rng := rand.New(rand.NewSource(1))
	for _, path := range files[:min(len(files), 12)] {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 25; step++ {
			if step > 0 {
				at := rng.Intn(len(src) + 1)
				if rng.Intn(2) == 0 || len(src) < 10 {
					ins := inserts[rng.Intn(len(inserts))]
					src = slices.Concat(src[:at], []byte(ins), src[at:])
				} else {
					end := min(len(src), at+1+rng.Intn(20))
					src = slices.Concat(src[:at], src[end:])
				}
			}
			a, errA := incremental.Parse(path, slices.Clone(src))
			b, errB := fresh.Parse(path, slices.Clone(src))
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s step %d: errors %v vs %v", path, step, errA, errB)
			}
			if errA != nil {
				continue
			}
			if !reflect.DeepEqual(a.nodes, b.nodes) {
				t.Fatalf("%s step %d: the incremental tree differs from a fresh parse (%d vs %d nodes)", path, step, len(a.nodes), len(b.nodes))
			}
		}
	}
	// Another file after all those edits: nothing of the last one leaks in.
	other := []byte("__global__ void k(int *p) { *p = 1; }\nvoid h(int *p) { k<<<1, 1>>>(p); }\n")
	a, _ := incremental.Parse("other.cu", other)
	b, _ := fresh.Parse("other.cu", other)
	if !reflect.DeepEqual(a.nodes, b.nodes) {
		t.Fatal("a new file parsed incrementally differs from a fresh parse")
	}
}

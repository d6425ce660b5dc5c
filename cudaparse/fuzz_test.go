package cudaparse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// addSeeds adds every fixture of the repository's rules and GPU programs
// to a fuzz corpus, and a few shapes that broke parsers before.
func addSeeds(f *testing.F) {
	f.Helper()
	for _, pattern := range []string{"../rules/*/testdata/*", "../testdata/gpu/*.cu", "../examples/*/*.c*"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	for _, s := range []string{"", "<<<", "k<<<1,1>>>(", "/* open", "\"open", "R\"x(open", "#if 0\n", "#endif\n",
		"<<<<<<< HEAD\nint a;\n=======\nint b;\n>>>>>>> branch\n", "\x00\xff\xfe", "__global__ __global__", "a<<<b<<<c>>>(d)>>>(e);"} {
		f.Add([]byte(s))
	}
}

// FuzzNeutralize checks the pre-pass's invariants on arbitrary bytes: the
// same length, every line break in place, idempotent, no panic.
func FuzzNeutralize(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _ := syntax.Neutralize(src)
		if len(out) != len(src) {
			t.Fatalf("length %d -> %d", len(src), len(out))
		}
		for i, c := range src {
			if (c == '\n' || c == '\r') != (out[i] == '\n' || out[i] == '\r') || (c == '\n') != (out[i] == '\n') {
				t.Fatalf("line break moved at offset %d: %q -> %q", i, c, out[i])
			}
		}
		again, _ := syntax.Neutralize(out)
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent:\n once %q\ntwice %q", out, again)
		}
	})
}

// FuzzParse parses arbitrary bytes and walks every fact: errors are
// fine, panics and positions outside the file are not.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	p, err := NewParser()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := p.Parse("fuzz.cu", src)
		if err != nil {
			return
		}
		check := func(what string, n Node) {
			if !n.Valid() {
				return
			}
			if r := n.Range(); r.Start < 0 || r.End < r.Start || r.End > len(src) {
				t.Fatalf("%s range %v outside the %d-byte file", what, r, len(src))
			}
		}
		check("root", file.Root())
		for _, fn := range file.Functions {
			check("function", fn.Node)
		}
		for _, c := range file.Calls {
			check("call", c.Node)
		}
		for _, l := range file.Launches {
			check("launch", l.Node)
		}
		pos := file.Position(len(src))
		if pos.Line < 1 || pos.Column < 1 {
			t.Fatalf("end of file at %+v", pos)
		}
	})
}

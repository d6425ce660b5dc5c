package engine

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"

	"github.com/charlievieth/fastwalk"

	"github.com/lazylint/lazylint/internal/rule"
)

func utf16Bytes(s string, bigEndian bool) []byte {
	out := []byte{0xFF, 0xFE}
	if bigEndian {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

func TestDecodeEncodeSource(t *testing.T) {
	const text = "// h\u00e9llo \U0001F600\r\nint x;\n"
	for _, tc := range []struct {
		raw  []byte
		want sourceEncoding
	}{
		{[]byte(text), encUTF8},
		{append([]byte{0xEF, 0xBB, 0xBF}, text...), encUTF8BOM},
		{utf16Bytes(text, false), encUTF16LE},
		{utf16Bytes(text, true), encUTF16BE},
	} {
		got, enc, err := decodeSource(tc.raw)
		if err != nil || enc != tc.want || string(got) != text {
			t.Errorf("%s: decoded %q as %s, %v", tc.want, got, enc, err)
			continue
		}
		if back := encodeSource(got, enc); !bytes.Equal(back, tc.raw) {
			t.Errorf("%s: re-encoded % x, want % x", tc.want, back, tc.raw)
		}
	}
	// Bytes that only start like a UTF-16 BOM are taken as they are: an odd
	// length, or text that is not mostly ASCII in UTF-16.
	for _, raw := range [][]byte{{0xFF, 0xFE, 'a'}, append([]byte{0xFF, 0xFE, 0xFD, '\n'}, "int x;\n"...)} {
		if got, enc, err := decodeSource(raw); err != nil || enc != encUTF8 || !bytes.Equal(got, raw) {
			t.Errorf("% x: decoded as %s %v", raw, enc, err)
		}
	}
}

// Findings in a file with a UTF-8 BOM, or in UTF-16 (either byte order)
// with one, land where they do in the plain UTF-8 file: the BOM shifts no
// column and UTF-16 is not called binary.
func TestEncodedFilesMapPositions(t *testing.T) {
	dir := t.TempDir()
	const text = "void f(void **p) { cudaMalloc(p, 1); }\n// h\u00e9llo\nvoid g(void **p) { /* \u00e9\u00e9 */ cudaMalloc(p, 2); }\r\n"
	files := map[string][]byte{
		"plain.cu":   []byte(text),
		"bom.cu":     append([]byte{0xEF, 0xBB, 0xBF}, text...),
		"utf16le.cu": utf16Bytes(text, false),
		"utf16be.cu": utf16Bytes(text, true),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := &rule.Rule{ID: "LL996", Name: "calls", Triggers: []string{"cudaMalloc"}, Run: func(p *rule.Pass) {
		for _, c := range p.File.CallsTo("cudaMalloc") {
			p.Report(c.Node, "call")
		}
	}}
	res := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{r}, BaseDir: dir, Workers: 2})
	if len(res.Errors) != 0 {
		t.Fatalf("errors: %+v", res.Errors)
	}
	got := map[string][]string{}
	for _, f := range res.Findings {
		got[f.Path] = append(got[f.Path], fmt.Sprintf("%d:%d", f.Start.Line, f.Start.Column))
	}
	want := strings.Join(got["plain.cu"], " ")
	if want != "1:20 3:29" {
		t.Fatalf("plain.cu findings at %q, want 1:20 3:29", want)
	}
	for name := range files {
		if g := strings.Join(got[name], " "); g != want {
			t.Errorf("%s: findings at %q, want %q", name, g, want)
		}
	}
}

// --fix keeps a file's line endings and encoding: CRLF lines get CRLF
// insertions, UTF-16 files are written back in UTF-16 with their BOM.
func TestFixesKeepLineEndingsAndEncoding(t *testing.T) {
	dir := t.TempDir()
	const text = "a();\r\nb();\r\n"
	for _, tc := range []struct {
		name string
		raw  []byte
		enc  func(string) []byte
	}{
		{"crlf.cu", []byte(text), func(s string) []byte { return []byte(s) }},
		{"bom.cu", append([]byte{0xEF, 0xBB, 0xBF}, text...), func(s string) []byte { return append([]byte{0xEF, 0xBB, 0xBF}, s...) }},
		{"le.cu", utf16Bytes(text, false), func(s string) []byte { return utf16Bytes(s, false) }},
		{"be.cu", utf16Bytes(text, true), func(s string) []byte { return utf16Bytes(s, true) }},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, tc.raw, 0o644); err != nil {
			t.Fatal(err)
		}
		// Offsets are into the decoded text: "b" starts at 6.
		fixes, errs := PlanFixes([]Finding{withFix(path, edit(6, 6, "cuInit(0);\n  x();\n"))})
		if len(errs) != 0 || len(fixes) != 1 {
			t.Fatalf("%s: fixes %+v errors %v", tc.name, fixes, errs)
		}
		const wantText = "a();\r\ncuInit(0);\r\n  x();\r\nb();\r\n"
		if got := string(fixes[0].New); got != wantText {
			t.Errorf("%s: new text %q, want %q", tc.name, got, wantText)
		}
		if got := fixes[0].Encoded(); !bytes.Equal(got, tc.enc(wantText)) {
			t.Errorf("%s: written % x", tc.name, got)
		}
	}
	// An LF file stays LF.
	path := filepath.Join(dir, "lf.cu")
	if err := os.WriteFile(path, []byte("a();\nb();\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixes, _ := PlanFixes([]Finding{withFix(path, edit(5, 5, "cuInit(0);\n"))})
	if len(fixes) != 1 || string(fixes[0].Encoded()) != "a();\ncuInit(0);\nb();\n" {
		t.Errorf("lf: %+v", fixes)
	}
}

// An unreadable folder gives one error naming it, not also Go's "skip this
// directory". With chmod 000 where permissions apply (not as root), and
// through an injected error from the walk everywhere.
func TestUnreadableFolder(t *testing.T) {
	check := func(t *testing.T, dir, locked string) {
		t.Helper()
		res := Run(Options{Paths: []string{dir}, Rules: nil, BaseDir: dir, Workers: 1})
		if len(res.Errors) != 1 || filepath.Base(res.Errors[0].Path) != filepath.Base(locked) || strings.Contains(res.Errors[0].Message, "skip") {
			t.Errorf("errors: %+v, want one for %s", res.Errors, locked)
		}
		if res.Stats.Files != 1 {
			t.Errorf("files checked: %d, want the readable one", res.Stats.Files)
		}
	}
	setup := func(t *testing.T) (dir, locked string) {
		dir = t.TempDir()
		locked = filepath.Join(dir, "locked")
		if err := os.Mkdir(locked, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{filepath.Join(dir, "ok.cu"), filepath.Join(locked, "hidden.cu")} {
			if err := os.WriteFile(p, []byte("int x;\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir, locked
	}
	t.Run("chmod", func(t *testing.T) {
		dir, locked := setup(t)
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = os.Chmod(locked, 0o755) }()
		if _, err := os.ReadDir(locked); err == nil {
			t.Skip("permissions do not apply here (root); the injected case covers it")
		}
		check(t, dir, locked)
	})
	t.Run("injected", func(t *testing.T) {
		dir, locked := setup(t)
		saved := walkDir
		defer func() { walkDir = saved }()
		// As fastwalk does for a folder it cannot read: the callback sees
		// the folder, then its ReadDir error, and Walk returns the
		// callback's answer to that second call.
		walkDir = func(conf *fastwalk.Config, root string, fn fs.WalkDirFunc) error {
			var answer error
			err := saved(conf, root, func(path string, d fs.DirEntry, err error) error {
				if path != locked {
					return fn(path, d, err)
				}
				if err := fn(path, d, nil); err != nil {
					return err
				}
				answer = fn(path, d, &fs.PathError{Op: "open", Path: path, Err: syscall.EACCES})
				return fs.SkipDir // the real walk cannot read it either
			})
			if err == nil {
				err = answer
			}
			return err
		}
		check(t, dir, locked)
	})
}

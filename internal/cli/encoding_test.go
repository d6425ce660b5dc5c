package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf16"
)

// check --fix on a CRLF file writes CRLF lines, and on a UTF-16LE file with
// a BOM writes UTF-16LE with its BOM; the findings are where they are in
// the UTF-8 file.
func TestFixKeepsCRLFAndUTF16(t *testing.T) {
	const text = "void f(void) {\r\n  CUmoduleLoadingMode m;\r\n  cuModuleGetLoadingMode(&m);\r\n}\r\n"
	le := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(text)) {
		le = append(le, byte(u), byte(u>>8))
	}
	dir := t.TempDir()
	for name, data := range map[string][]byte{"crlf.c": []byte(text), "utf16.c": le} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, stderr := run(t, dir, "check", "--no-cache", ".")
	if code != ExitFindings || !reported(out, "crlf.c:3:3:", "LL006", "") || !reported(out, "utf16.c:3:3:", "LL006", "") {
		t.Fatalf("check: %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := run(t, dir, "check", "--no-cache", "--fix", "."); code != ExitClean {
		t.Fatalf("--fix: %d\n%s%s", code, out, stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "crlf.c"))
	if bytes.Count(got, []byte("\n")) != bytes.Count(got, []byte("\r\n")) || !bytes.Contains(got, []byte("  cuInit(0);\r\n")) {
		t.Errorf("crlf.c after --fix: %q", got)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "utf16.c"))
	if !bytes.HasPrefix(raw, []byte{0xFF, 0xFE}) || len(raw)%2 != 0 {
		t.Fatalf("utf16.c after --fix is not UTF-16LE with a BOM: % x", raw)
	}
	units := make([]uint16, 0, len(raw)/2)
	for i := 2; i+1 < len(raw); i += 2 {
		units = append(units, uint16(raw[i])|uint16(raw[i+1])<<8)
	}
	if s := string(utf16.Decode(units)); s != string(got) {
		t.Errorf("utf16.c after --fix decodes to %q, want %q", s, got)
	}
}

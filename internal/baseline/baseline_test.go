package baseline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/rules"
)

// A baseline writes C++ lines as they are: no \u003c for < (issue 23 item
// 7), and reads back to the same keys.
func TestWriteKeepsHTMLCharacters(t *testing.T) {
	dir := t.TempDir()
	f := engine.Finding{Path: "src/k.cu", Snippet: "k<<<1, 1>>>(a && b);"}
	f.Rule = rules.ByID("LL002")
	f.Message = "first launch of k<<<1, 1>>>"
	path := filepath.Join(dir, "baseline.json")
	if err := Write(path, []engine.Finding{f}, dir); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); !strings.Contains(s, `"snippet": "k<<<1, 1>>>(a && b);"`) || strings.Contains(s, `\u00`) {
		t.Errorf("baseline escapes the source text:\n%s", s)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	kept, known, stale := b.Filter([]engine.Finding{f}, dir)
	if len(kept) != 0 || len(known) != 1 || stale != 0 {
		t.Errorf("read back: kept %d, known %d, stale %d", len(kept), len(known), stale)
	}
}

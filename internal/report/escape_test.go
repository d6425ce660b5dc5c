package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/engine"
)

// JSON reports write <, > and & as they are in the source (issue 23 item
// 7): a message or path with a C++ template or && is readable, and still
// decodes to the same text.
func TestJSONFormatsWriteHTMLCharactersLiterally(t *testing.T) {
	f := finding("LL002", "src/a&b<c>.cu", 3, "k<<<1, 1>>>(a && b);")
	f.Message = "first launch of k<<<1, 1>>> in std::vector<int> && friends"
	res := engine.Result{Findings: []engine.Finding{f}, Errors: []engine.FileError{{Path: "x<y>.cu", Message: "binary file"}}}
	for _, format := range []string{"json", "sarif", "gitlab"} {
		var out, errs bytes.Buffer
		if err := Write(&out, &errs, format, res, Extras{}); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		s := out.String()
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if strings.Contains(s, esc) {
				t.Errorf("%s escapes HTML characters (%s):\n%s", format, esc, s)
			}
		}
		if !strings.Contains(s, "k<<<1, 1>>>") && format != "gitlab" {
			t.Errorf("%s: the message is not written literally:\n%s", format, s)
		}
		var v any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Errorf("%s: not JSON: %v", format, err)
		}
	}
}

package suppress

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

// FuzzParse reads suppression comments from arbitrary bytes, as C and as
// Go: ParseText gives what Parse does, every directive and problem lies on
// a line of the text, and matching against every rule never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x; // NOLINT(lazylint-LL001)\n", "// NOLINTNEXTLINE(lazylint-*)\nx;\n",
		"// NOLINTBEGIN(lazylint-LL003)\nx;\n// NOLINTEND(lazylint-LL003)\n", "// NOLINTEND\n",
		"x; // lazylint:ignore LL001 reason\n", "// lazylint:ignore\n", "/* NOLINT */ \"// NOLINT\" '\\''",
		"x; // lazylint: ignore LL001 r\n", "// LAZYLINT:IGNORE LL001\n", "x; // nolint(lazylint-LL01)\n", "// lazylint:file-ignore LL008 r\ny;\n",
		"x //nolint:lazylint // why\n", "//nolint\n", "R\"x(// NOLINT)x\"\n", "`//nolint`\n", "/* unterminated NOLINT",
		strings.Repeat("x;\n", 200) + "y; // NOLINT(lazylint-LL001)\n", // long enough for rule.Text's index
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, goSyntax bool) {
		s := Parse(src, goSyntax)
		if viaText := ParseText(rule.NewText(src), goSyntax); !reflect.DeepEqual(viaText, s) {
			t.Fatalf("ParseText and Parse differ:\n%+v\n%+v", viaText, s)
		}
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, d := range s.Directives {
			if d.Line < 1 || d.Line > lines {
				t.Fatalf("directive %q on line %d of %d", d.Text, d.Line, lines)
			}
		}
		for _, p := range s.Problems {
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("problem %q on line %d of %d", p.Message, p.Line, lines)
			}
		}
		for _, r := range rules.All {
			for line := 0; line <= lines+1; line++ {
				s.Match(r, line)
			}
		}
		s.Unused(rules.All)
	})
}

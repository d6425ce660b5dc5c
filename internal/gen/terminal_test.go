package gen

import (
	"strings"
	"testing"
)

func TestTerminalRendering(t *testing.T) {
	md := "<!-- generated\n  comment -->\n\n# LL009 `name`\n\nA [link](https://x.test/y) and `code`,\n**bold** text that wraps at the width given here.\n\n" +
		"## Options\n\n| option | default |\n| --- | --- |\n| `threshold` | `0.9` |\n\n- a list item\n  that goes on\n\n```cuda\nk<<<1, 1>>>();\n```\n"
	got := string(Terminal{Width: 30}.render([]byte(md)))
	want := `LL009 name
==========

A link (https://x.test/y) and
code, bold text that wraps at
the width given here.

Options
-------

  option     default
  threshold  0.9

- a list item that goes on

    k<<<1, 1>>>();
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	colored := string(Terminal{Width: 30, Color: true}.render([]byte(md)))
	if !strings.Contains(colored, "\x1b[1mLL009 name\x1b[0m\n\n") || strings.Contains(colored, "=====") || !strings.Contains(colored, "\x1b[36mcode\x1b[0m") {
		t.Errorf("colored:\n%q", colored)
	}
}

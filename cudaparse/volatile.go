package cudaparse

import (
	"bytes"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// VolatileData reports whether src applies the volatile keyword to data,
// as far as a lexer can tell: in a declaration, a cast or a macro's body,
// but not in an asm statement (`asm volatile`), a comment, a string, or
// after a parameter list (a volatile member function). Prefilters use it:
// PTX-heavy headers spell volatile hundreds of times, all in asm.
func VolatileData(src []byte) bool {
	return syntax.WithTokens(src, func(toks []syntax.Token) bool { return volatileDataIn(src, toks) })
}

func volatileDataIn(src []byte, toks []syntax.Token) bool {
	if n := len(toks); n > 0 && unterminated(src, toks[n-1]) {
		return true
	}
	prev := -1 // the last token that is not a comment
	for k, t := range toks {
		switch t.Kind {
		case syntax.TokComment:
			continue
		case syntax.TokDirective:
			if directiveVolatile(src[t.Start:t.End]) {
				return true
			}
		case syntax.TokIdent:
			if w := src[t.Start:t.End]; string(w) == "volatile" || string(w) == "__volatile__" {
				if prev < 0 {
					return true
				}
				p := toks[prev]
				before := string(src[p.Start:p.End])
				asm := p.Kind == syntax.TokIdent && (before == "asm" || before == "__asm__" || before == "__asm")
				qualifier := p.Kind == syntax.TokPunct && before == ")"
				if !asm && !qualifier {
					return true
				}
			}
		}
		prev = k
	}
	return false
}

// directiveVolatile reports whether a directive (a macro's body) spells
// volatile other than after asm.
func directiveVolatile(d []byte) bool {
	for i := 0; ; {
		k := bytes.Index(d[i:], []byte("volatile"))
		if k < 0 {
			return false
		}
		at := i + k
		before := bytes.TrimRight(d[:at], " \t\\\r\n_")
		if !bytes.HasSuffix(before, []byte("asm")) {
			return true
		}
		i = at + len("volatile")
	}
}

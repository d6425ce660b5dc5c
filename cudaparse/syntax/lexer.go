package syntax

import (
	"slices"
	"sync"
)

// A light C/C++ lexer for the pre-pass. It only needs to know where code is:
// comments, string and character literals and preprocessor directives are
// opaque tokens, so nothing inside them is ever rewritten.

type TokenKind uint8

const (
	TokIdent TokenKind = iota
	TokNumber
	TokPunct     // one byte of punctuation
	TokString    // "..." and raw strings R"d(...)d", with any prefix
	TokChar      // '...'
	TokComment   // // and /* */
	TokDirective // a whole preprocessor directive, continuation lines included
)

type Token struct {
	Start, End int32
	Kind       TokenKind
	// LineStart is true when only whitespace precedes the token on its line.
	LineStart bool
}

// The lexers here (the pre-pass's, EachName's, the prefilters' scans) ask
// these of nearly every byte they read: a table answers with one load
// where the comparisons took several branches.
func IsIdentStart(c byte) bool { return byteClasses[c]&classIdentStart != 0 }

func IsIdentByte(c byte) bool { return byteClasses[c]&classIdentByte != 0 }

func IsSpace(c byte) bool { return byteClasses[c]&classSpace != 0 }

const (
	classIdentStart = 1 << iota // a letter, '_', '$' or a byte above 0x7f
	classIdentByte              // those and the digits
	classSpace                  // blanks other than the newline
)

var byteClasses = func() (t [256]uint8) {
	for c := range 256 {
		b := byte(c)
		if b == '_' || b == '$' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80 {
			t[c] |= classIdentStart | classIdentByte
		}
		if b >= '0' && b <= '9' {
			t[c] |= classIdentByte
		}
		if b == ' ' || b == '\t' || b == '\r' || b == '\f' || b == '\v' {
			t[c] |= classSpace
		}
	}
	return t
}()

// Lex splits src into tokens. It never fails: unterminated comments, strings
// and directives run to the end of the input.
func Lex(src []byte) []Token { return LexAppend(make([]Token, 0, len(src)/4), src) }

// WithTokens calls f with the tokens of src, lexed into memory that later
// calls reuse: f must not keep them. The whole-text scans every file gets
// (class bodies, loop calls, volatile data) allocated 150 MB of tokens
// over the 13-project tree, each slice garbage a moment later.
func WithTokens[T any](src []byte, f func(toks []Token) T) T {
	buf, ok := tokenPool.Get().(*[]Token)
	if !ok {
		buf = new([]Token)
	}
	toks := LexAppend((*buf)[:0], src)
	defer func() {
		if cap(toks) <= maxPooledTokens {
			*buf = toks[:0]
			tokenPool.Put(buf)
		}
	}()
	return f(toks)
}

var tokenPool = sync.Pool{New: func() any { return new([]Token) }}

// maxPooledTokens keeps a huge file's tokens (generated tables) from
// staying in the pool.
const maxPooledTokens = 1 << 18

// LexAppend is lex appending to toks, whose memory it reuses.
func LexAppend(toks []Token, src []byte) []Token {
	n := len(src)
	atLineStart := true
	for i := 0; i < n; {
		c := src[i]
		if c == '\n' {
			atLineStart = true
			i++
			continue
		}
		if IsSpace(c) {
			i++
			continue
		}
		start := i
		var kind TokenKind
		switch {
		case c == '#' && atLineStart:
			kind = TokDirective
			i = SkipDirective(src, i)
		case c == '/' && i+1 < n && src[i+1] == '/':
			kind = TokComment
			i = SkipLineComment(src, i)
		case c == '/' && i+1 < n && src[i+1] == '*':
			kind = TokComment
			i = SkipBlockComment(src, i)
		case c == '"':
			kind = TokString
			i = SkipQuoted(src, i, '"')
		case c == '\'':
			kind = TokChar
			i = SkipQuoted(src, i, '\'')
		case c >= '0' && c <= '9' || c == '.' && i+1 < n && src[i+1] >= '0' && src[i+1] <= '9':
			kind = TokNumber
			i = SkipNumber(src, i)
		case IsIdentStart(c):
			j := i
			for j < n && IsIdentByte(src[j]) {
				j++
			}
			// String and character literal prefixes: u8"", L'', R"(...)", u8R"x(...)x".
			if j < n && (src[j] == '"' || src[j] == '\'') && IsLiteralPrefix(src[i:j]) {
				if src[j] == '"' && src[j-1] == 'R' {
					kind = TokString
					i = SkipRawString(src, j)
				} else if src[j] == '"' {
					kind = TokString
					i = SkipQuoted(src, j, '"')
				} else {
					kind = TokChar
					i = SkipQuoted(src, j, '\'')
				}
			} else {
				kind = TokIdent
				i = j
			}
		default:
			kind = TokPunct
			i++
		}
		if len(toks) == cap(toks) {
			// Double, where append would grow a large slice by a quarter:
			// a 20 MB file has millions of tokens.
			toks = slices.Grow(toks, cap(toks)+16)
		}
		toks = append(toks, Token{Kind: kind, Start: int32(start), End: int32(i), LineStart: atLineStart})
		atLineStart = false
		if kind == TokDirective || (kind == TokComment && src[i-1] == '\n') {
			atLineStart = true
		}
	}
	return toks
}

func IsLiteralPrefix(p []byte) bool {
	switch string(p) {
	case "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}

func SkipLineComment(src []byte, i int) int {
	for i < len(src) {
		if src[i] == '\n' {
			// A backslash before the newline continues a // comment.
			if i > 0 && src[i-1] == '\\' || i > 1 && src[i-1] == '\r' && src[i-2] == '\\' {
				i++
				continue
			}
			return i
		}
		i++
	}
	return i
}

func SkipBlockComment(src []byte, i int) int {
	for i += 2; i+1 < len(src); i++ {
		if src[i] == '*' && src[i+1] == '/' {
			return i + 2
		}
	}
	return len(src)
}

// SkipQuoted skips a "..." or '...' literal starting at the quote at i. A
// literal never spans an unescaped newline; an unterminated one ends there.
func SkipQuoted(src []byte, i int, quote byte) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case quote:
			return i + 1
		case '\n':
			return i
		}
	}
	return len(src)
}

// SkipRawString skips R"delim( ... )delim" starting at the quote at i.
func SkipRawString(src []byte, i int) int {
	open := i + 1
	j := open
	for j < len(src) && j-open <= 16 && src[j] != '(' {
		if src[j] == '\n' || src[j] == ')' || src[j] == '\\' || src[j] == ' ' {
			return SkipQuoted(src, i, '"') // not a valid raw string
		}
		j++
	}
	if j >= len(src) || src[j] != '(' {
		return SkipQuoted(src, i, '"')
	}
	delim := src[open:j]
	for k := j + 1; k < len(src); k++ {
		if src[k] == ')' && hasPrefixAt(src, k+1, delim) && k+1+len(delim) < len(src) && src[k+1+len(delim)] == '"' {
			return k + 2 + len(delim)
		}
	}
	return len(src)
}

func hasPrefixAt(src []byte, at int, p []byte) bool {
	if at+len(p) > len(src) {
		return false
	}
	for k := range p {
		if src[at+k] != p[k] {
			return false
		}
	}
	return true
}

// SkipNumber skips a pp-number, including C++14 digit separators (1'000) and
// exponents with signs (1e-5, 0x1p+3).
func SkipNumber(src []byte, i int) int {
	n := len(src)
	for i < n {
		c := src[i]
		switch {
		case IsIdentByte(c) || c == '.':
			if (c|0x20) == 'e' || (c|0x20) == 'p' {
				if i+1 < n && (src[i+1] == '+' || src[i+1] == '-') {
					i += 2
					continue
				}
			}
			i++
		case c == '\'' && i+1 < n && IsIdentByte(src[i+1]):
			i += 2
		default:
			return i
		}
	}
	return i
}

// SkipDirective skips a preprocessor directive to its end of line, following
// backslash continuations and block comments that span lines.
func SkipDirective(src []byte, i int) int {
	n := len(src)
	for i < n {
		switch c := src[i]; {
		case c == '\n':
			if i > 0 && src[i-1] == '\\' || i > 1 && src[i-1] == '\r' && src[i-2] == '\\' {
				i++
				continue
			}
			return i
		case c == '/' && i+1 < n && src[i+1] == '*':
			i = SkipBlockComment(src, i)
		case c == '/' && i+1 < n && src[i+1] == '/':
			return SkipLineComment(src, i)
		case c == '"' || c == '\'':
			i = SkipQuoted(src, i, c)
		default:
			i++
		}
	}
	return n
}

// BalancedEnd returns the index of the token that closes the parenthesis
// toks[k] opens, k itself when toks[k] opens none, and the last token when
// the file ends first.
func BalancedEnd(src []byte, toks []Token, k int) int {
	depth := 0
	for ; k < len(toks); k++ {
		if toks[k].Kind == TokPunct {
			switch src[toks[k].Start] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		if depth == 0 {
			return k
		}
	}
	return len(toks) - 1
}

package metamorphic

// A small C/C++ lexer for renaming: identifiers, numbers, string and
// character literals, punctuation, with comments skipped and each token's
// preprocessor directive noted. The parse tree does not see inside macro
// bodies, which a consistent rename must change too.

type tokenKind uint8

const (
	tokIdent tokenKind = iota
	tokNumber
	tokString // string or character literal, with any prefix
	tokPunct
)

type token struct {
	kind       tokenKind
	start, end int
	// directive is the directive the token is in ("define", "include",
	// ...), "" outside directives.
	directive string
}

func (t token) text(src []byte) string { return string(src[t.start:t.end]) }

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isIdentByte(c byte) bool { return isIdentStart(c) || '0' <= c && c <= '9' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// lex splits src into tokens.
func lex(src []byte) []token {
	var out []token
	directive := ""
	lineStart := true // only white space since the last line break
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			i++
			directive, lineStart = "", true
			continue
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i += 2 // a continued line stays in its directive
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := indexFrom(src, i+2, "*/")
			if end < 0 {
				return out
			}
			i = end + 2
			continue
		}
		if c == '#' && lineStart {
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			k := j
			for k < len(src) && isIdentByte(src[k]) {
				k++
			}
			directive = string(src[j:k])
			if directive == "" {
				directive = "#"
			}
			lineStart = false
			i = k
			continue
		}
		lineStart = false
		start := i
		kind := tokPunct
		switch {
		case isIdentStart(c):
			for i < len(src) && isIdentByte(src[i]) {
				i++
			}
			kind = tokIdent
			// String prefixes: L"", u8"", R"(...)".
			if i < len(src) && (src[i] == '"' || src[i] == '\'') && isStringPrefix(string(src[start:i])) {
				i = stringEnd(src, i, src[start:i])
				kind = tokString
			}
		case isDigit(c) || c == '.' && i+1 < len(src) && isDigit(src[i+1]):
			for i < len(src) && (isIdentByte(src[i]) || src[i] == '.' || src[i] == '\'' ||
				(src[i] == '+' || src[i] == '-') && (src[i-1] == 'e' || src[i-1] == 'E' || src[i-1] == 'p' || src[i-1] == 'P')) {
				i++
			}
			kind = tokNumber
		case c == '"' || c == '\'':
			i = stringEnd(src, i, nil)
			kind = tokString
		case directive == "include" && c == '<':
			for i < len(src) && src[i] != '>' && src[i] != '\n' {
				i++
			}
			if i < len(src) && src[i] == '>' {
				i++
			}
			kind = tokString
		default:
			i += punctLen(src[i:])
		}
		out = append(out, token{kind: kind, start: start, end: i, directive: directive})
	}
	return out
}

func isStringPrefix(p string) bool {
	switch p {
	case "L", "u", "U", "u8", "R", "LR", "uR", "UR", "u8R":
		return true
	}
	return false
}

// stringEnd returns the end of the literal whose quote is at src[i].
func stringEnd(src []byte, i int, prefix []byte) int {
	quote := src[i]
	if quote == '"' && len(prefix) > 0 && prefix[len(prefix)-1] == 'R' {
		open := indexFrom(src, i+1, "(")
		if open < 0 {
			return len(src)
		}
		delim := ")" + string(src[i+1:open]) + "\""
		end := indexFrom(src, open+1, delim)
		if end < 0 {
			return len(src)
		}
		return end + len(delim)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case quote:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

func indexFrom(src []byte, from int, s string) int {
	for j := from; j+len(s) <= len(src); j++ {
		if string(src[j:j+len(s)]) == s {
			return j
		}
	}
	return -1
}

var puncts3 = []string{"<<=", ">>=", "...", "->*", "<=>", "<<<", ">>>"}
var puncts2 = []string{"::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*"}

func punctLen(b []byte) int {
	for _, p := range puncts3 {
		if len(b) >= 3 && string(b[:3]) == p {
			return 3
		}
	}
	for _, p := range puncts2 {
		if len(b) >= 2 && string(b[:2]) == p {
			return 2
		}
	}
	return 1
}

package suppress

import "bytes"

type comment struct{ start, end int } // byte range, delimiters included

// comments finds the comments of C, C++, CUDA or Go source, skipping string
// and character literals (C++ raw strings and Go raw strings too). It never
// fails: an unterminated literal or comment runs to the end of its line or
// of the file.
func comments(src []byte, goSyntax bool) []comment {
	var out []comment
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			end := bytes.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			out = append(out, comment{i, i + end})
			i += end
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				out = append(out, comment{i, len(src)})
				return out
			}
			out = append(out, comment{i, i + 2 + end + 2})
			i += 2 + end + 2
		case c == '`' && goSyntax:
			end := bytes.IndexByte(src[i+1:], '`')
			if end < 0 {
				return out
			}
			i += 1 + end + 1
		case c == '"' && !goSyntax && i > 0 && src[i-1] == 'R' && (i < 2 || !isIdent(src[i-2]) || src[i-2] == 'u' || src[i-2] == 'U' || src[i-2] == 'L' || src[i-2] == '8'):
			i = skipRawString(src, i)
		case c == '"':
			i = skipQuoted(src, i, '"')
		// A quote after a digit or letter is a digit separator (1'000) or
		// follows a prefix (u8'a'); neither opens a literal worth skipping.
		case c == '\'' && (i == 0 || !isIdent(src[i-1])):
			i = skipQuoted(src, i, '\'')
		default:
			i++
		}
	}
	return out
}

// skipQuoted skips a literal opened at src[i], honouring backslash escapes;
// an unterminated one ends at the end of its line.
func skipQuoted(src []byte, i int, quote byte) int {
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

// skipRawString skips R"delim( ... )delim" opened at the quote src[i].
func skipRawString(src []byte, i int) int {
	open := bytes.IndexByte(src[i+1:], '(')
	if open < 0 || open > 16 {
		return skipQuoted(src, i, '"')
	}
	closing := append(append([]byte(")"), src[i+1:i+1+open]...), '"')
	end := bytes.Index(src[i+1+open:], closing)
	if end < 0 {
		return len(src)
	}
	return i + 1 + open + end + len(closing)
}

func isIdent(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

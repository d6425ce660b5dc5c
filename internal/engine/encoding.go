package engine

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lazylint/lazylint/internal/fastread"
	"github.com/lazylint/lazylint/internal/rule"
)

// sourceEncoding is how a file's bytes encode its text. Rules see UTF-8
// without a byte order mark, so positions count the characters an editor
// shows; fixes are written back in the file's own encoding.
type sourceEncoding int

const (
	encUTF8    sourceEncoding = iota // UTF-8 (or bytes that are not valid UTF-8), no BOM
	encUTF8BOM                       // UTF-8 after EF BB BF
	encUTF16LE                       // UTF-16 little-endian after FF FE
	encUTF16BE                       // UTF-16 big-endian after FE FF
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

func (e sourceEncoding) String() string {
	return [...]string{"UTF-8", "UTF-8 with BOM", "UTF-16LE", "UTF-16BE"}[e]
}

// decodeSource returns the text of raw that rules see: a UTF-8 BOM is
// dropped (so it does not shift the first line's columns), and UTF-16 with a
// BOM (either byte order) is decoded to UTF-8 (an unpaired surrogate becomes
// U+FFFD). Bytes that start like a UTF-16 BOM but are not UTF-16 source (an
// odd length, or mostly characters outside ASCII, which source code is not)
// are taken as they are, as are files without a BOM. The error is for
// callers' sake; no input gives one today.
func decodeSource(raw []byte) ([]byte, sourceEncoding, error) {
	switch {
	case bytes.HasPrefix(raw, bomUTF8):
		return raw[len(bomUTF8):], encUTF8BOM, nil
	case bytes.HasPrefix(raw, bomUTF16LE):
		if text, ok := decodeUTF16(raw[2:], false); ok {
			return text, encUTF16LE, nil
		}
	case bytes.HasPrefix(raw, bomUTF16BE):
		if text, ok := decodeUTF16(raw[2:], true); ok {
			return text, encUTF16BE, nil
		}
	}
	return raw, encUTF8, nil
}

// decodeUTF16 decodes b, reporting false when b does not look like UTF-16
// source code: an odd length, or fewer than half its code units ASCII.
func decodeUTF16(b []byte, bigEndian bool) ([]byte, bool) {
	if len(b)%2 != 0 {
		return nil, false
	}
	units := make([]uint16, len(b)/2)
	ascii := 0
	for i := range units {
		if bigEndian {
			units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			units[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
		if units[i] < 0x80 {
			ascii++
		}
	}
	if 2*ascii < len(units) {
		return nil, false
	}
	out := make([]byte, 0, len(units)+len(units)/4)
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// ReadSource reads a C, C++ or CUDA file and returns the text rules see
// (decodeSource).
func ReadSource(path string) ([]byte, error) {
	raw, _, err := fastread.ReadFile(path)
	if err != nil {
		return nil, err
	}
	src, _, err := decodeSource(raw)
	return src, err
}

// readSourceStamped is ReadSource with the file's stamp as it was opened.
func readSourceStamped(path string) ([]byte, fastread.Stamp, error) {
	raw, stamp, err := fastread.ReadFileStamped(path)
	if err != nil {
		return nil, stamp, err
	}
	src, _, err := decodeSource(raw)
	return src, stamp, err
}

// encodeSource is decodeSource's inverse: text (UTF-8) in encoding e, with
// its BOM.
func encodeSource(text []byte, e sourceEncoding) []byte {
	switch e {
	case encUTF8BOM:
		return append(append([]byte{}, bomUTF8...), text...)
	case encUTF16LE, encUTF16BE:
		units := utf16.Encode([]rune(string(text)))
		out := make([]byte, 2, 2+2*len(units))
		if e == encUTF16LE {
			copy(out, bomUTF16LE)
			for _, u := range units {
				out = append(out, byte(u), byte(u>>8))
			}
		} else {
			copy(out, bomUTF16BE)
			for _, u := range units {
				out = append(out, byte(u>>8), byte(u))
			}
		}
		return out
	}
	return text
}

// usesCRLF reports whether text's lines end in CRLF: its first line break
// is one.
func usesCRLF(text []byte) bool {
	i := bytes.IndexByte(text, '\n')
	return i > 0 && text[i-1] == '\r'
}

// crlfEdits returns the edits with every line break they insert written as
// CRLF (the rules write "\n"), for a file whose lines end in CRLF.
func crlfEdits(es []rule.TextEdit) []rule.TextEdit {
	out := make([]rule.TextEdit, len(es))
	for i, e := range es {
		e.NewText = strings.ReplaceAll(strings.ReplaceAll(e.NewText, "\r\n", "\n"), "\n", "\r\n")
		out[i] = e
	}
	return out
}

package lsp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzReadFrame reads frames from arbitrary bytes until an error: it never
// panics, never returns a body over the limit, and always advances.
func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}Content-Length: 0\r\n\r\n",
		"content-length:3\n\n[1]", "Content-Length: 99999999999\r\n\r\n", "Content-Length: x\r\n\r\n",
		"\r\n\r\n", "no colon\r\n\r\n", "Content-Length: 5\r\n\r\n{}", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReaderSize(bytes.NewReader(data), maxHeaderLine+2)
		var consumed int64
		for range len(data) + 1 {
			body, n, err := readFrame(r)
			consumed += n
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, errFraming) {
					t.Fatalf("error neither EOF nor framing: %v", err)
				}
				return
			}
			if len(body) > maxMessage || consumed > int64(len(data)) || n <= 0 {
				t.Fatalf("body %d bytes, consumed %d of %d, step %d", len(body), consumed, len(data), n)
			}
		}
		t.Fatal("readFrame did not reach the end of the input")
	})
}

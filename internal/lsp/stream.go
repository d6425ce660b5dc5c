package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage bounds one message's body: a client announcing more is cut
// off instead of making the server allocate it (jsonrpc2's own stream
// allocates whatever Content-Length says, up to 2 GiB).
const maxMessage = 64 << 20

// maxHeaderLine bounds one header line.
const maxHeaderLine = 4096

// errFraming is a broken frame: the stream cannot find the next message,
// so the connection ends.
var errFraming = errors.New("broken LSP framing")

// readFrame reads one Content-Length framed body from r.
func readFrame(r *bufio.Reader) ([]byte, int64, error) {
	var total int64
	length := int64(-1)
	for {
		line, err := r.ReadSlice('\n')
		total += int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) || len(line) > maxHeaderLine {
			return nil, total, fmt.Errorf("%w: a header line over %d bytes", errFraming, maxHeaderLine)
		}
		if err != nil {
			if errors.Is(err, io.EOF) && total == 0 {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("%w: reading a header: %w", errFraming, err)
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			break
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			return nil, total, fmt.Errorf("%w: header line %q has no colon", errFraming, text)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return nil, total, fmt.Errorf("%w: bad Content-Length %q", errFraming, value)
			}
			if n > maxMessage {
				return nil, total, fmt.Errorf("%w: a %d-byte message is over the %d-byte limit", errFraming, n, maxMessage)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, total, fmt.Errorf("%w: no Content-Length header", errFraming)
	}
	body := make([]byte, length)
	n, err := io.ReadFull(r, body)
	total += int64(n)
	if err != nil {
		return nil, total, fmt.Errorf("%w: reading a %d-byte body: %w", errFraming, length, err)
	}
	return body, total, nil
}

// stream is the server's side of an LSP connection: Content-Length framed
// JSON-RPC. A frame whose body is not a JSON-RPC message is answered with a
// JSON-RPC error (id null, as the spec says when the id cannot be read) and
// the next one is read; a broken frame ends the connection.
type stream struct {
	in     *bufio.Reader
	out    io.Writer
	closer io.Closer
	log    func(format string, args ...any)

	mu sync.Mutex // one message written at a time
}

func newStream(rwc io.ReadWriteCloser, log func(string, ...any)) *stream {
	return &stream{in: bufio.NewReaderSize(rwc, maxHeaderLine+2), out: rwc, closer: rwc, log: log}
}

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		body, n, err := readFrame(s.in)
		total += n
		if err != nil {
			return nil, total, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, total, nil
		}
		code, what := jsonrpc2.InvalidRequest, "not a JSON-RPC request, notification or response"
		if !json.Valid(body) {
			code, what = jsonrpc2.ParseError, "not JSON"
		}
		s.log("answering a message that is %s: %v", what, err)
		if werr := s.writeError(code, "lazylint: the message is "+what); werr != nil {
			return nil, total, werr
		}
	}
}

// writeError sends an error response with a null id.
func (s *stream) writeError(code jsonrpc2.Code, message string) error {
	data, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": message},
	})
	if err != nil {
		return err
	}
	_, err = s.writeFrame(data)
	return err
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling a message: %w", err)
	}
	return s.writeFrame(data)
}

// writeFrame writes header and body in one call, under the lock, so that
// two messages never interleave.
func (s *stream) writeFrame(data []byte) (int64, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(data))
	b.Write(data)
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.out.Write(b.Bytes())
	return int64(n), err
}

func (s *stream) Close() error { return s.closer.Close() }

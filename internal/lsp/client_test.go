package lsp_test

// A small LSP client written for the tests: its own Content-Length framing
// and JSON types, none of the server's libraries, so that a framing or
// encoding bug of the server cannot be cancelled out by the same bug here.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// waitLong bounds every wait for an answer or a publication: checks parse
// with tree-sitter, and the race detector slows them down.
const waitLong = 30 * time.Second

// rpcMessage is any JSON-RPC message.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type diagnostic struct {
	Range           lspRange `json:"range"`
	Severity        int      `json:"severity"`
	Code            string   `json:"code"`
	CodeDescription *struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
	Source             string `json:"source"`
	Message            string `json:"message"`
	RelatedInformation []struct {
		Location struct {
			URI   string   `json:"uri"`
			Range lspRange `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

type publishParams struct {
	URI         string        `json:"uri"`
	Version     *int          `json:"version"`
	Diagnostics []diagnostic  `json:"diagnostics"`
	Raw         rpcMessageRaw `json:"-"`
}

// rpcMessageRaw keeps a message's params as sent, for checks on the JSON
// itself (an empty list must be [], not null).
type rpcMessageRaw = json.RawMessage

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type codeAction struct {
	Title       string       `json:"title"`
	Kind        string       `json:"kind"`
	Diagnostics []diagnostic `json:"diagnostics"`
	IsPreferred bool         `json:"isPreferred"`
	Edit        *struct {
		Changes map[string][]textEdit `json:"changes"`
	} `json:"edit"`
}

// transcript records the framed messages of sessions, both ways.
type transcript struct {
	mu sync.Mutex
	w  io.Writer
}

func (t *transcript) section(name string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "\n######## %s\n", name)
}

func (t *transcript) record(dir string, frame []byte) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "\n=== %s %s\n", time.Now().Format("15:04:05.000"), dir)
	_, _ = t.w.Write(frame)
	fmt.Fprintln(t.w)
}

// sessionTranscript is where LAZYLINT_LSP_TRANSCRIPT asks for sessions to
// be written (nil: nowhere).
var sessionTranscript *transcript

type lspClient struct {
	t       testing.TB
	w       io.Writer
	tr      *transcript
	in      chan *rpcMessage
	done    chan struct{} // closed when the reading ends
	readErr error         // why it ended; set before done is closed
	queue   []*rpcMessage
	nextID  int
	docs    map[string]*clientDoc
}

// clientDoc is the client's copy of an open document.
type clientDoc struct {
	uri     string
	text    string
	version int
}

func newClient(t testing.TB, r io.Reader, w io.Writer, tr *transcript) *lspClient {
	c := &lspClient{t: t, w: w, tr: tr, in: make(chan *rpcMessage, 1024), done: make(chan struct{}), docs: map[string]*clientDoc{}}
	go c.readLoop(bufio.NewReader(r))
	return c
}

// readFrame reads one message: headers, each ending in \r\n, with a
// Content-Length, a blank line, and that many bytes of JSON.
func readFrame(r *bufio.Reader) (body, frame []byte, err error) {
	var raw bytes.Buffer
	length := -1
	for {
		line, err := r.ReadString('\n')
		raw.WriteString(line)
		if err != nil {
			return nil, nil, err
		}
		if !strings.HasSuffix(line, "\r\n") {
			return nil, nil, fmt.Errorf("header line %q does not end in \\r\\n", line)
		}
		line = strings.TrimSuffix(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, nil, fmt.Errorf("malformed header line %q", line)
		}
		if strings.EqualFold(name, "Content-Length") {
			if length, err = strconv.Atoi(value); err != nil || length < 0 {
				return nil, nil, fmt.Errorf("bad Content-Length %q", value)
			}
		}
	}
	if length < 0 {
		return nil, nil, errors.New("message without Content-Length")
	}
	body = make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, nil, fmt.Errorf("body of %d bytes: %w", length, err)
	}
	raw.Write(body)
	return body, raw.Bytes(), nil
}

func (c *lspClient) readLoop(r *bufio.Reader) {
	defer close(c.in)
	defer close(c.done)
	for {
		body, frame, err := readFrame(r)
		if err != nil {
			c.readErr = err
			return
		}
		c.tr.record("server -> client", frame)
		var m rpcMessage
		if err := json.Unmarshal(body, &m); err != nil {
			c.readErr = fmt.Errorf("bad JSON %q: %w", body, err)
			return
		}
		if m.JSONRPC != "2.0" {
			c.readErr = fmt.Errorf("message without jsonrpc 2.0: %s", body)
			return
		}
		c.in <- &m
	}
}

func (c *lspClient) send(msg map[string]any) {
	c.t.Helper()
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	frame := append([]byte(fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body))), body...)
	c.tr.record("client -> server", frame)
	if _, err := c.w.Write(frame); err != nil {
		c.t.Fatalf("write %s: %v", msg["method"], err)
	}
}

func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	m := map[string]any{"method": method}
	if params != nil {
		m["params"] = params
	}
	c.send(m)
}

// call sends a request and waits for its answer.
func (c *lspClient) call(method string, params any) (json.RawMessage, *rpcError) {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	m := map[string]any{"method": method, "id": id}
	if params != nil {
		m["params"] = params
	}
	c.send(m)
	want := strconv.Itoa(id)
	resp := c.await(waitLong, func(m *rpcMessage) bool { return m.Method == "" && string(m.ID) == want })
	if resp == nil {
		c.t.Fatalf("no answer to %s within %s (read error: %v)", method, waitLong, c.err())
	}
	if resp.Result == nil && resp.Error == nil {
		c.t.Fatalf("answer to %s has neither result nor error", method)
	}
	return resp.Result, resp.Error
}

// mustCall is call for a request that must succeed; it decodes the result
// into out (when not nil).
func (c *lspClient) mustCall(method string, params, out any) json.RawMessage {
	c.t.Helper()
	res, rerr := c.call(method, params)
	if rerr != nil {
		c.t.Fatalf("%s: error %d %s", method, rerr.Code, rerr.Message)
	}
	if out != nil {
		if err := json.Unmarshal(res, out); err != nil {
			c.t.Fatalf("%s: result %s: %v", method, res, err)
		}
	}
	return res
}

// err is why the reading ended; nil while it goes on.
func (c *lspClient) err() error {
	select {
	case <-c.done:
		return c.readErr
	default:
		return nil
	}
}

// await returns the first message, queued or arriving within timeout, that
// match accepts; the others stay queued. nil: none came.
func (c *lspClient) await(timeout time.Duration, match func(*rpcMessage) bool) *rpcMessage {
	for i, m := range c.queue {
		if match(m) {
			c.queue = append(c.queue[:i], c.queue[i+1:]...)
			return m
		}
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		select {
		case m, ok := <-c.in:
			if !ok {
				return nil
			}
			if match(m) {
				return m
			}
			c.queue = append(c.queue, m)
		case <-deadline.C:
			return nil
		}
	}
}

func isPublish(uri string) func(*rpcMessage) bool {
	return func(m *rpcMessage) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var p publishParams
		return json.Unmarshal(m.Params, &p) == nil && p.URI == uri
	}
}

func decodePublish(t testing.TB, m *rpcMessage) *publishParams {
	t.Helper()
	var p publishParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatalf("publishDiagnostics %s: %v", m.Params, err)
	}
	p.Raw = m.Params
	return &p
}

// diagnostics waits for the next publication for d.
func (c *lspClient) diagnostics(d *clientDoc) *publishParams {
	c.t.Helper()
	m := c.await(waitLong, isPublish(d.uri))
	if m == nil {
		c.t.Fatalf("no diagnostics for %s within %s (read error: %v)", d.uri, waitLong, c.err())
	}
	return decodePublish(c.t, m)
}

// publications collects the publications for uri that arrive within d.
func (c *lspClient) publications(uri string, d time.Duration) []*publishParams {
	c.t.Helper()
	var out []*publishParams
	end := time.Now().Add(d)
	for {
		left := time.Until(end)
		if left <= 0 {
			return out
		}
		m := c.await(left, isPublish(uri))
		if m == nil {
			return out
		}
		out = append(out, decodePublish(c.t, m))
	}
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: path}).String()
}

func (c *lspClient) initialize(root string) map[string]any {
	c.t.Helper()
	var res map[string]any
	params := map[string]any{
		"processId":    os.Getpid(),
		"clientInfo":   map[string]any{"name": "lazylint-test-client"},
		"rootUri":      nil,
		"capabilities": map[string]any{"textDocument": map[string]any{"publishDiagnostics": map[string]any{"relatedInformation": true, "versionSupport": true}}},
	}
	if root != "" {
		params["rootUri"] = fileURI(root)
		params["workspaceFolders"] = []map[string]any{{"uri": fileURI(root), "name": "ws"}}
	}
	c.mustCall("initialize", params, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *lspClient) open(path, languageID, text string) *clientDoc {
	c.t.Helper()
	d := &clientDoc{uri: fileURI(path), text: text, version: 1}
	c.docs[d.uri] = d
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": d.uri, "languageId": languageID, "version": d.version, "text": text,
	}})
	return d
}

// change sends d's new whole text as its next version.
func (c *lspClient) change(d *clientDoc, text string) {
	c.t.Helper()
	d.text = text
	d.version++
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": d.uri, "version": d.version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

func (c *lspClient) close(d *clientDoc) {
	c.t.Helper()
	delete(c.docs, d.uri)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": d.uri}})
}

func (c *lspClient) codeActions(d *clientDoc, diags []diagnostic, rng lspRange) []codeAction {
	c.t.Helper()
	var out []codeAction
	c.mustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": d.uri},
		"range":        rng,
		"context":      map[string]any{"diagnostics": diags},
	}, &out)
	return out
}

// apply applies a code action's edit to its document, as an editor would,
// and sends the result as a change.
func (c *lspClient) apply(a codeAction) {
	c.t.Helper()
	if a.Edit == nil {
		c.t.Fatalf("action %q has no edit", a.Title)
	}
	for uri, edits := range a.Edit.Changes {
		d := c.docs[uri]
		if d == nil {
			c.t.Fatalf("action %q edits %s, which is not open", a.Title, uri)
		}
		text, err := applyEdits(d.text, edits)
		if err != nil {
			c.t.Fatalf("action %q: %v", a.Title, err)
		}
		c.change(d, text)
	}
}

// utf16Offset returns the byte offset of an LSP position in text, counting
// characters in UTF-16 code units; positions past a line's end are errors
// here, since the server must not send them.
func utf16Offset(text string, p position) (int, error) {
	lines := strings.SplitAfter(text, "\n")
	if p.Line > len(lines) || p.Line == len(lines) && p.Character > 0 {
		return 0, fmt.Errorf("line %d past the end (%d lines)", p.Line, len(lines))
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	if p.Line == len(lines) {
		return off, nil
	}
	line := strings.TrimRight(lines[p.Line], "\r\n")
	units := 0
	for i, r := range line {
		if units == p.Character {
			return off + i, nil
		}
		if units > p.Character {
			return 0, fmt.Errorf("character %d splits a surrogate pair", p.Character)
		}
		units += len(utf16.Encode([]rune{r}))
	}
	if units == p.Character {
		return off + len(line), nil
	}
	return 0, fmt.Errorf("character %d past the end of line %d (%d units)", p.Character, p.Line, units)
}

// applyEdits applies non-overlapping edits, as LSP defines them: all
// ranges refer to the text before any edit.
func applyEdits(text string, edits []textEdit) (string, error) {
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		s, err := utf16Offset(text, e.Range.Start)
		if err != nil {
			return "", err
		}
		end, err := utf16Offset(text, e.Range.End)
		if err != nil {
			return "", err
		}
		if end < s {
			return "", fmt.Errorf("edit ends before it starts: %+v", e.Range)
		}
		spans = append(spans, span{s, end, e.NewText})
	}
	// Apply from the last to the first, so offsets stay valid.
	for i := 1; i < len(spans); i++ {
		for j := i; j > 0 && spans[j].start > spans[j-1].start; j-- {
			spans[j], spans[j-1] = spans[j-1], spans[j]
		}
	}
	for i, s := range spans {
		if i > 0 && s.end > spans[i-1].start {
			return "", errors.New("overlapping edits")
		}
		text = text[:s.start] + s.text + text[s.end:]
	}
	if !utf8.ValidString(text) {
		return "", errors.New("edit splits a character")
	}
	return text, nil
}

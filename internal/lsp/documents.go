package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
)

// document is an open file the server checks.
type document struct {
	uri    protocol.DocumentURI
	path   string
	goFile bool

	// Guarded by server.mu.
	text     string
	version  int32
	textSeq  uint64 // advances with every change of text
	checkSeq uint64 // advances with every check started
	timer    *time.Timer
	closed   bool
	last     *checked // the check last published

	// parserMu guards parser, the document's incremental parser: each
	// check reparses only what the edit changed, one check at a time.
	parserMu     sync.Mutex
	parser       *cudaparse.Parser
	parserClosed bool // the document closed: no parser is made again

	// pubMu orders the publications of this document: a check publishes
	// only while it is the newest one, and holds pubMu from that test to
	// the end of its write.
	pubMu sync.Mutex
}

// checked is one check's outcome: the text it ran on and what was
// published for it.
type checked struct {
	textSeq  uint64
	text     string
	index    *textIndex
	findings []engine.Finding
	diags    []protocol.Diagnostic // diags[i] is findings[i]'s; a file error's comes after them
}

// filePath returns the file of a file: URI.
func filePath(raw protocol.DocumentURI) (string, bool) {
	u, err := uri.Parse(string(raw))
	if err != nil || u.Scheme() != "file" {
		return "", false
	}
	return filepath.Clean(u.FsPath()), true
}

// didOpen starts checking a document the server checks: one with a C, C++
// or CUDA ending (the configuration's extensions: included), or a .go file
// (for its cgo). The editor's languageId does not matter (VS Code sends
// cuda-cpp for .cu files).
func (s *server) didOpen(p *didOpenParams) {
	path, ok := filePath(p.TextDocument.uri())
	if !ok {
		return
	}
	s.mu.Lock()
	warning := ""
	// The workspace's settings are loaded when the first checkable file
	// opens (a file that only the configuration's extensions: make
	// checkable waits for one).
	if s.opts == nil && engine.Checkable(path, nil) {
		warning = s.loadOptionsLocked(filepath.Dir(path))
	}
	if s.opts == nil || !engine.Checkable(path, s.opts.Extensions) {
		s.mu.Unlock()
		return
	}
	old := s.docs[p.TextDocument.uri()]
	if old != nil {
		s.closeLocked(old)
	}
	d := &document{uri: p.TextDocument.uri(), path: path, goFile: strings.HasSuffix(path, ".go"), text: p.TextDocument.Text, version: p.TextDocument.Version}
	s.docs[d.uri] = d
	s.scheduleLocked(d, 0)
	s.mu.Unlock()
	if old != nil {
		old.closeParser()
	}
	if warning != "" {
		s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: warning})
	}
}

// didChangeParams is protocol.DidChangeTextDocumentParams with the range
// of a change optional, as it is on the wire: the server asks for whole
// texts, but applies ranged changes too.
type didChangeParams struct {
	TextDocument struct {
		textDocumentID
		Version int32 `json:"version"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Range *protocol.Range `json:"range"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

func (s *server) didChange(p *didChangeParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.uri()]
	if d == nil {
		return
	}
	text := d.text
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			text = c.Text
			continue
		}
		x := newTextIndex(text)
		start, end := x.offset(c.Range.Start), x.offset(c.Range.End)
		if end < start {
			start, end = end, start
		}
		text = text[:start] + c.Text + text[end:]
	}
	d.text = text
	d.version = p.TextDocument.Version
	d.textSeq++
	s.scheduleLocked(d, s.cfg.Debounce)
}

// didSave checks the document at once; a saved Go file also has the other
// open Go files of its folder checked again, since their cgo checks read it
// from disk.
func (s *server) didSave(p *docParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.uri()]
	if d == nil {
		return
	}
	s.scheduleLocked(d, 0)
	if !d.goFile {
		s.buildProjectLocked()
		return
	}
	for _, o := range s.docs {
		if o != d && o.goFile && filepath.Dir(o.path) == filepath.Dir(d.path) {
			s.scheduleLocked(o, 0)
		}
	}
}

func (s *server) didClose(p *docParams) {
	s.mu.Lock()
	d := s.docs[p.TextDocument.uri()]
	if d != nil {
		s.closeLocked(d)
	}
	s.mu.Unlock()
	if d == nil {
		return
	}
	// The document's diagnostics go with it; a check still running sees
	// it closed and publishes nothing.
	d.pubMu.Lock()
	defer d.pubMu.Unlock()
	s.notify(protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	d.closeParser()
}

func (s *server) closeLocked(d *document) {
	d.closed = true
	d.textSeq++
	s.stopTimerLocked(d)
	if s.docs[d.uri] == d {
		delete(s.docs, d.uri)
	}
}

// scheduleLocked checks d after delay (at once for 0), replacing a check
// still waiting for its delay.
func (s *server) scheduleLocked(d *document, delay time.Duration) {
	s.stopTimerLocked(d)
	if s.closed || s.state != stateRunning || d.closed {
		return
	}
	textSeq := d.textSeq
	s.checks.Add(1)
	run := func() {
		defer s.checks.Done()
		s.check(d, textSeq)
	}
	if delay <= 0 {
		go run()
		return
	}
	d.timer = time.AfterFunc(delay, run)
}

// stopTimerLocked drops d's pending check, if any.
func (s *server) stopTimerLocked(d *document) {
	if d.timer != nil && d.timer.Stop() {
		s.checks.Done() // it will not run
	}
	d.timer = nil
}

// check checks d's text of textSeq, unless it changed since, and publishes
// the diagnostics unless a newer check started meanwhile.
func (s *server) check(d *document, textSeq uint64) {
	s.mu.Lock()
	if s.closed || s.state != stateRunning || d.closed || d.textSeq != textSeq || s.opts == nil {
		s.mu.Unlock()
		return
	}
	d.checkSeq++
	seq, text, version, opts := d.checkSeq, d.text, d.version, *s.opts
	opts.Project = s.project
	s.mu.Unlock()

	start := time.Now()
	d.parserMu.Lock()
	opts.Parser = d.incrementalParser()
	res := checkSource(opts, d.path, text)
	d.parserMu.Unlock()
	c := s.diagnose(d, text, textSeq, res)

	d.pubMu.Lock()
	defer d.pubMu.Unlock()
	s.mu.Lock()
	current := !s.closed && !d.closed && d.textSeq == textSeq && d.checkSeq == seq
	if current {
		d.last = c
	}
	s.mu.Unlock()
	if !current {
		return
	}
	if res.Err != nil {
		msg := fmt.Sprintf("%s: %s", d.path, res.Err.Message)
		s.logf("%s", msg)
		s.notify(protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: "lazylint: " + msg})
	}
	s.logf("checked %s (version %d) in %s: %d findings", d.path, version, time.Since(start).Round(time.Microsecond), len(res.Findings))
	s.notify(protocol.MethodTextDocumentPublishDiagnostics, &protocol.PublishDiagnosticsParams{URI: d.uri, Version: uint32(max(version, 0)), Diagnostics: c.diags})
}

// incrementalParser is the document's parser, made on first need; nil if
// none can be made (the check then makes its own). Hold parserMu.
func (d *document) incrementalParser() *cudaparse.Parser {
	if d.parser == nil && !d.goFile && !d.parserClosed {
		if p, err := cudaparse.NewParser(); err == nil {
			p.Incremental = true
			d.parser = p
		}
	}
	return d.parser
}

// closeParser frees the document's parser and its kept tree.
func (d *document) closeParser() {
	d.parserMu.Lock()
	defer d.parserMu.Unlock()
	d.parserClosed = true
	if d.parser != nil {
		d.parser.Close()
		d.parser = nil
	}
}

// checkSource is engine.CheckSource with a panic made a file error: a bug
// in a check must not take the editor's server down.
func checkSource(opts engine.Options, path, text string) (res engine.FileResult) {
	defer func() {
		if v := recover(); v != nil {
			res = engine.FileResult{Err: &engine.FileError{Path: path, Message: fmt.Sprintf("internal error while checking this file: %v; please report it", v)}}
		}
	}()
	return engine.CheckSource(opts, path, []byte(text))
}

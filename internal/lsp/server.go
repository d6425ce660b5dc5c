// Package lsp is lazylint's language server. It checks the C, C++, CUDA and
// cgo Go files an editor has open as they are edited (the unsaved text, with
// engine.CheckSource), publishes the findings as diagnostics, offers the
// rules' suggested fixes and suppression comments as quick fixes, and shows
// a rule's documentation on hover.
//
// It speaks LSP over one stream (stdio in `lazylint lsp`) with go.lsp.dev's
// jsonrpc2 framing and protocol types, and dispatches the few methods it
// serves itself.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lazylint/lazylint/internal/engine"
)

// DefaultDebounce is how long a document must stay unchanged before it is
// checked again.
const DefaultDebounce = 300 * time.Millisecond

// Config configures a server.
type Config struct {
	// Options returns the engine options for checks under the workspace's
	// root folder. It is called once, when the root is known (at
	// initialize, or at the first document when the client names no
	// root). When it is nil or fails, every rule runs at its defaults.
	Options func(rootDir string) (engine.Options, error)
	// Rules are every rule the tool has: what runs, at its defaults, when
	// Options is nil or fails.
	Rules []*rule.Rule
	// Version is the version reported in serverInfo.
	Version string
	// Debounce is how long after its last change a document is checked
	// (0: DefaultDebounce). Opened and saved documents are checked at once.
	Debounce time.Duration
	// Log receives the server's log lines (nil: none).
	Log io.Writer
}

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without a shutdown request first; the process should then exit with 1.
var ErrExitWithoutShutdown = errors.New("exit notification without a shutdown request first")

// Waits at the end of Serve: for checks still running, and for the reading
// goroutine after the stream was closed (a blocking stdin is not woken by
// closing it; the process exits anyway).
const (
	checksGrace = 5 * time.Second
	readerGrace = 100 * time.Millisecond
)

type lifecycle int

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

type server struct {
	cfg  Config
	conn jsonrpc2.Conn

	logMu sync.Mutex

	mu    sync.Mutex
	state lifecycle
	opts  *engine.Options // nil until the root is known
	docs  map[protocol.DocumentURI]*document
	// project is the workspace's linked facts (see project.go): nil until
	// the first build in the background ends.
	project         *link.Project
	projectBuilding bool
	projectStale    bool // a save came during the build: build again
	closed          bool // Serve is ending: no more checks or publications
	// checks counts the scheduled and running checks (a pending debounce
	// timer counts); Add is only called under mu while !closed.
	checks sync.WaitGroup

	exited   chan struct{}
	exitOnce sync.Once
}

// Serve runs a language server on stream until the client sends exit, the
// stream ends or ctx is done. It returns nil after shutdown and exit,
// ErrExitWithoutShutdown after an exit that came without shutdown, and an
// error when the stream ended before shutdown. It closes stream.
func Serve(ctx context.Context, stream io.ReadWriteCloser, cfg Config) error {
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	s := &server{cfg: cfg, docs: map[protocol.DocumentURI]*document{}, exited: make(chan struct{})}
	s.conn = jsonrpc2.NewConn(newStream(stream, s.logf))
	s.conn.Go(ctx, s.handle)

	var err error
	select {
	case <-s.exited:
		if !s.isShutdown() {
			err = ErrExitWithoutShutdown
		}
	case <-s.conn.Done():
		if !s.isShutdown() {
			err = fmt.Errorf("the connection ended before shutdown: %w", s.conn.Err())
		}
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.stop()
	_ = s.conn.Close()
	if !waitTimeout(&s.checks, checksGrace) {
		s.logf("checks still running after %s; leaving them", checksGrace)
	}
	select {
	case <-s.conn.Done():
	case <-time.After(readerGrace):
	}
	return err
}

// waitTimeout waits for wg at most d and reports whether it finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}

func (s *server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == stateShutdown
}

// stop ends all checking: pending checks are dropped, running ones publish
// nothing.
func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, d := range s.docs {
		s.stopTimerLocked(d)
	}
}

func (s *server) signalExit() { s.exitOnce.Do(func() { close(s.exited) }) }

// handle serves one message. It runs on the connection's reading
// goroutine, so messages are handled in order; checks run on goroutines of
// their own. An error returned here ends the connection: only failed
// writes are returned.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	_, isCall := req.(*jsonrpc2.Call)
	method := req.Method()
	if method == protocol.MethodExit {
		s.signalExit()
		return nil
	}
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	switch {
	case st == stateNew && method != protocol.MethodInitialize:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized"))
		}
		return nil
	case st == stateShutdown:
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down"))
		}
		return nil
	}

	params := []byte(req.Params())
	badParams := func(err error) error {
		s.logf("%s: bad params: %v", method, err)
		if isCall {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error()))
		}
		return nil
	}
	switch method {
	case protocol.MethodInitialize:
		if st != stateNew {
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already sent"))
		}
		var p initializeParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		res, warning := s.initialize(&p)
		if err := reply(ctx, res, nil); err != nil {
			return err
		}
		if warning != "" {
			s.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: warning})
		}
		return nil
	case protocol.MethodInitialized:
		return nil
	case protocol.MethodShutdown:
		s.mu.Lock()
		s.state = stateShutdown
		for _, d := range s.docs {
			s.stopTimerLocked(d)
		}
		s.mu.Unlock()
		return reply(ctx, nil, nil)
	case protocol.MethodTextDocumentDidOpen:
		var p didOpenParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		s.didOpen(&p)
		return nil
	case protocol.MethodTextDocumentDidChange:
		var p didChangeParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		s.didChange(&p)
		return nil
	case protocol.MethodTextDocumentDidSave:
		var p docParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		s.didSave(&p)
		return nil
	case protocol.MethodTextDocumentDidClose:
		var p docParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		s.didClose(&p)
		return nil
	case protocol.MethodTextDocumentHover:
		var p hoverParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		return reply(ctx, s.hover(&p), nil)
	case protocol.MethodTextDocumentCodeAction:
		var p codeActionParams
		if err := decode(params, &p); err != nil {
			return badParams(err)
		}
		return reply(ctx, s.codeActions(&p), nil)
	}
	if isCall {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "lazylint does not serve "+method))
	}
	return nil // other notifications ($/cancelRequest, $/setTrace, ...) need nothing
}

// The params of the document methods are decoded with the document's URI
// as sent: go.lsp.dev/uri normalizes the URIs it decodes (file:///a+b.cu
// becomes file:///a%2Bb.cu), and diagnostics must name a document exactly
// as the client does.
type textDocumentID struct {
	URI string `json:"uri"`
}

func (t textDocumentID) uri() protocol.DocumentURI { return protocol.DocumentURI(t.URI) }

type didOpenParams struct {
	TextDocument struct {
		textDocumentID
		Version int32  `json:"version"`
		Text    string `json:"text"`
	} `json:"textDocument"`
}

// docParams are didSave's and didClose's.
type docParams struct {
	TextDocument textDocumentID `json:"textDocument"`
}

type hoverParams struct {
	TextDocument textDocumentID    `json:"textDocument"`
	Position     protocol.Position `json:"position"`
}

type codeActionParams struct {
	TextDocument textDocumentID `json:"textDocument"`
	Range        protocol.Range `json:"range"`
	Context      struct {
		Only []protocol.CodeActionKind `json:"only"`
	} `json:"context"`
}

func decode(params []byte, v any) error {
	if len(params) == 0 {
		return errors.New("no params")
	}
	return json.Unmarshal(params, v)
}

// initializeParams are the parts of initialize's params the server reads
// (protocol.InitializeParams would also decode the client's capabilities,
// and fail on any of them it does not model exactly).
type initializeParams struct {
	RootURI          string                     `json:"rootUri"`
	RootPath         string                     `json:"rootPath"`
	WorkspaceFolders []protocol.WorkspaceFolder `json:"workspaceFolders"`
}

// root returns the workspace's folder: the first workspace folder, else
// rootUri, else rootPath; "" when the client names none.
func (p *initializeParams) root() string {
	var uris []string
	for _, f := range p.WorkspaceFolders {
		uris = append(uris, f.URI)
	}
	uris = append(uris, p.RootURI)
	for _, s := range uris {
		if s == "" {
			continue
		}
		if u, err := uri.Parse(s); err == nil && u.Scheme() == "file" {
			return filepath.Clean(u.FsPath())
		}
	}
	if p.RootPath != "" {
		return filepath.Clean(p.RootPath)
	}
	return ""
}

// initialize answers the initialize request; warning, when set, is to be
// shown to the user after the answer.
func (s *server) initialize(p *initializeParams) (*protocol.InitializeResult, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = stateRunning
	warning := ""
	if root := p.root(); root != "" {
		warning = s.loadOptionsLocked(root)
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindFull,
				Save:      &protocol.SaveOptions{},
			},
			HoverProvider:      true,
			CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix}},
		},
		ServerInfo: &protocol.ServerInfo{Name: "lazylint", Version: s.cfg.Version},
	}, warning
}

// loadOptionsLocked sets the engine options for root once. It returns the
// message to show when the configured ones could not be had.
func (s *server) loadOptionsLocked(root string) string {
	if s.opts != nil {
		return ""
	}
	opts := engine.Options{Rules: s.cfg.Rules, Catalog: s.cfg.Rules, BaseDir: root}
	warning := ""
	if s.cfg.Options != nil {
		o, err := s.cfg.Options(root)
		if err != nil {
			warning = fmt.Sprintf("lazylint: cannot load the settings for %s: %v; checking with every rule at its defaults", root, err)
			s.logf("%s", warning)
		} else {
			opts = o
		}
	}
	if opts.BaseDir == "" {
		opts.BaseDir = root
	}
	s.logf("workspace root %s", root)
	s.opts = &opts
	s.buildProjectLocked()
	return warning
}

// notify sends a notification; a failure is logged (the connection is
// then ending).
func (s *server) notify(method string, params any) {
	if err := s.conn.Notify(context.Background(), method, params); err != nil {
		s.logf("%s: %v", method, err)
	}
}

func (s *server) logf(format string, args ...any) {
	if s.cfg.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "lazylint lsp: "+format+"\n", args...)
}

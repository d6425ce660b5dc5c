package lsp_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/lsp"
	"github.com/lazylint/lazylint/rules"
)

// inProcess is lsp.Serve running in the test's process over a net.Pipe,
// so that the race detector sees the server's goroutines.
type inProcess struct {
	*lspClient
	conn   net.Conn
	served chan error
}

func serveInProcess(t *testing.T, cfg lsp.Config) *inProcess {
	t.Helper()
	if cfg.Rules == nil {
		cfg.Rules = rules.All // what the CLI passes
	}
	server, client := net.Pipe()
	p := &inProcess{conn: client, served: make(chan error, 1)}
	go func() { p.served <- lsp.Serve(context.Background(), server, cfg) }()
	p.lspClient = newClient(t, client, client, nil)
	t.Cleanup(func() {
		_ = client.Close()
		select {
		case err := <-p.served:
			_ = err // a test that cares about it called end
		case <-time.After(10 * time.Second):
			t.Errorf("Serve did not return after the client closed the connection")
		}
	})
	return p
}

// end waits for Serve to return and returns its error.
func (p *inProcess) end(t *testing.T) error {
	t.Helper()
	select {
	case err := <-p.served:
		p.served <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return within 10s")
		return nil
	}
}

func allRules(root string) (engine.Options, error) {
	return engine.Options{Rules: rules.All, Catalog: rules.All, BaseDir: root}, nil
}

// goroutinesSettle waits for the number of goroutines to come back to at
// most n.
func goroutinesSettle(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines left, want at most %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServeLifecycle: shutdown then exit makes Serve return nil, exit alone
// ErrExitWithoutShutdown; no goroutine is left behind, even with checks
// pending and running.
func TestServeLifecycle(t *testing.T) {
	dir := workspace(t)
	for _, shutdown := range []bool{true, false} {
		t.Run(fmt.Sprintf("shutdown=%v", shutdown), func(t *testing.T) {
			before := runtime.NumGoroutine()
			p := serveInProcess(t, lsp.Config{Options: allRules, Debounce: time.Hour})
			p.initialize(dir)
			d := p.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", hazardCU)
			p.diagnostics(d)
			p.change(d, fixedCU) // a check waits for its hour
			p.open(filepath.Join(dir, "src", "timed.cu"), "cuda-cpp", timedCU)
			if shutdown {
				p.mustCall("shutdown", nil, nil)
			}
			p.notify("exit", nil)
			err := p.end(t)
			switch {
			case shutdown && err != nil:
				t.Errorf("Serve after shutdown and exit: %v", err)
			case !shutdown && !errors.Is(err, lsp.ErrExitWithoutShutdown):
				t.Errorf("Serve after exit alone: %v, want ErrExitWithoutShutdown", err)
			}
			_ = p.conn.Close()
			goroutinesSettle(t, before)
		})
	}
}

// TestServeDebounce: a burst of changes is checked once, for its last
// version.
func TestServeDebounce(t *testing.T) {
	dir := workspace(t)
	p := serveInProcess(t, lsp.Config{Options: allRules, Debounce: 100 * time.Millisecond})
	p.initialize(dir)
	d := p.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", fixedCU)
	wantVersion(t, p.diagnostics(d), 1)
	for i := range 5 {
		p.change(d, strings.Replace(hazardCU, "int main() {", fmt.Sprintf("int main() { // %d", i), 1))
	}
	first := p.diagnostics(d)
	if more := p.publications(d.uri, 500*time.Millisecond); len(more) != 0 {
		t.Fatalf("%d publications for a burst of 5 changes, want 1", 1+len(more))
	}
	wantVersion(t, first, 6)
	findDiag(t, first, "LL001")
}

// TestServeNoStaleResults: with checks running side by side (a debounce of
// 1ns), publications never go back to an older version, and the last one
// is for the last text.
func TestServeNoStaleResults(t *testing.T) {
	dir := workspace(t)
	p := serveInProcess(t, lsp.Config{Options: allRules, Debounce: time.Nanosecond})
	p.initialize(dir)
	d := p.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", hazardCU)
	for i := range 30 {
		if i%2 == 0 {
			p.change(d, fixedCU)
		} else {
			p.change(d, hazardCU)
		}
	}
	p.change(d, fixedCU)
	last := d.version
	seen := 0
	var lastPub *publishParams
	for {
		pub := p.await(waitLong, isPublish(d.uri))
		if pub == nil {
			t.Fatalf("no publication for version %d", last)
		}
		pp := decodePublish(t, pub)
		if pp.Version == nil || *pp.Version < seen {
			t.Fatalf("publication for version %v after one for %d", pp.Version, seen)
		}
		seen = *pp.Version
		lastPub = pp
		if seen == last {
			break
		}
	}
	if len(lastPub.Diagnostics) != 0 {
		t.Errorf("last version: %+v", lastPub.Diagnostics)
	}
	if more := p.publications(d.uri, 300*time.Millisecond); len(more) != 0 {
		t.Errorf("publications after the last version's: %d", len(more))
	}
}

// TestServeOptions: the options come from cfg.Options with the workspace
// root, or the first document's folder when the client names no root; a
// failure is shown to the user and every rule runs.
func TestServeOptions(t *testing.T) {
	dir := workspace(t)
	var mu sync.Mutex
	var roots []string
	record := func(fail bool) func(string) (engine.Options, error) {
		return func(root string) (engine.Options, error) {
			mu.Lock()
			defer mu.Unlock()
			roots = append(roots, root)
			if fail {
				return engine.Options{}, errors.New("bad config")
			}
			return engine.Options{Rules: rules.All[1:], BaseDir: root}, nil // no LL001
		}
	}

	t.Run("root", func(t *testing.T) {
		roots = nil
		p := serveInProcess(t, lsp.Config{Options: record(false)})
		p.initialize(dir)
		d := p.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", hazardCU)
		if got := p.diagnostics(d); len(got.Diagnostics) != 0 {
			t.Errorf("LL001 ran though the options leave it out: %+v", got.Diagnostics)
		}
		p.open(filepath.Join(dir, "src", "mode.c"), "c", modeC)
		mu.Lock()
		defer mu.Unlock()
		if len(roots) != 1 || roots[0] != dir {
			t.Errorf("Options called with %q, want once with %q", roots, dir)
		}
	})
	t.Run("no root", func(t *testing.T) {
		roots = nil
		p := serveInProcess(t, lsp.Config{Options: record(false)})
		p.initialize("")
		d := p.open(filepath.Join(dir, "src", "mode.c"), "c", modeC)
		p.diagnostics(d)
		mu.Lock()
		defer mu.Unlock()
		if len(roots) != 1 || roots[0] != filepath.Join(dir, "src") {
			t.Errorf("Options called with %q, want the document's folder", roots)
		}
	})
	t.Run("error", func(t *testing.T) {
		p := serveInProcess(t, lsp.Config{Options: record(true)})
		p.initialize(dir)
		m := p.await(waitLong, func(m *rpcMessage) bool { return m.Method == "window/showMessage" })
		if m == nil || !strings.Contains(string(m.Params), "bad config") || !strings.Contains(string(m.Params), `"type":1`) {
			t.Fatalf("showMessage: %+v", m)
		}
		d := p.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", hazardCU)
		findDiag(t, p.diagnostics(d), "LL001")
	})
}

// TestServeIncrementalChange: a client that sends ranged changes despite
// the full-text sync asked for still has them applied.
func TestServeIncrementalChange(t *testing.T) {
	dir := workspace(t)
	p := serveInProcess(t, lsp.Config{Options: allRules, Debounce: 10 * time.Millisecond})
	p.initialize(dir)
	d := p.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", hazardCU)
	findDiag(t, p.diagnostics(d), "LL001")
	// Replace "free_bytes - (4 << 20)" on line 6 (after µ and 🚀: UTF-16).
	p.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": d.uri, "version": 2},
		"contentChanges": []map[string]any{{
			"range": lspRange{Start: position{Line: 6, Character: 33}, End: position{Line: 6, Character: 55}},
			"text":  "free_bytes / 2",
		}},
	})
	pub := p.diagnostics(d)
	wantVersion(t, pub, 2)
	if len(pub.Diagnostics) != 0 {
		t.Errorf("after the ranged change: %+v", pub.Diagnostics)
	}
}

// TestServeMalformedMessage: a message that is not JSON-RPC is answered
// with a JSON-RPC error of null id, an unknown method with MethodNotFound,
// and the session goes on.
func TestServeMalformedMessage(t *testing.T) {
	p := serveInProcess(t, lsp.Config{Options: allRules})
	for _, tc := range []struct {
		body string
		code int
	}{{"hello", -32700}, {`{"jsonrpc":"2.0"}`, -32600}, {`[1,2]`, -32600}, {`{"jsonrpc":"2.0","method":`, -32700}} {
		if _, err := fmt.Fprintf(p.conn, "Content-Length: %d\r\n\r\n%s", len(tc.body), tc.body); err != nil {
			t.Fatal(err)
		}
		m := p.await(5*time.Second, func(m *rpcMessage) bool { return m.Error != nil && string(m.ID) == "null" })
		if m == nil || m.Error.Code != tc.code {
			t.Fatalf("%q: answer %+v, want error %d with id null", tc.body, m, tc.code)
		}
	}
	p.initialize(t.TempDir())
	if _, rpcErr := p.call("workspace/noSuchMethod", map[string]any{}); rpcErr == nil || rpcErr.Code != -32601 {
		t.Errorf("unknown method: %+v", rpcErr)
	}
	p.mustCall("shutdown", nil, nil)
	p.notify("exit", nil)
	if err := p.end(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// TestServeBrokenFraming: a message announced larger than the limit, or a
// header without a colon, ends the connection (there is no next message to
// find) without allocating what was announced.
func TestServeBrokenFraming(t *testing.T) {
	for _, frame := range []string{"Content-Length: 2000000000\r\n\r\n{}", "Garbage\r\n\r\n", "Content-Length: -1\r\n\r\n"} {
		p := serveInProcess(t, lsp.Config{Options: allRules})
		go fmt.Fprint(p.conn, frame)
		if err := p.end(t); err == nil || !strings.Contains(err.Error(), "broken LSP framing") {
			t.Errorf("%q: Serve returned %v", frame, err)
		}
	}
}

// TestServeExtensions: a file ending that only the configuration's
// extensions: make checkable gets diagnostics once the settings are loaded;
// without it, none.
func TestServeExtensions(t *testing.T) {
	dir := workspace(t)
	withExt := func(root string) (engine.Options, error) {
		return engine.Options{Rules: rules.All, BaseDir: root, Extensions: []string{".cuimpl"}}, nil
	}
	p := serveInProcess(t, lsp.Config{Options: withExt})
	p.initialize(dir)
	p.diagnostics(p.open(filepath.Join(dir, "src", "mode.c"), "c", modeC))
	d := p.open(filepath.Join(dir, "src", "arena.cuimpl"), "cuda-cpp", hazardCU)
	findDiag(t, p.diagnostics(d), "LL001")

	q := serveInProcess(t, lsp.Config{Options: allRules})
	q.initialize(dir)
	q.diagnostics(q.open(filepath.Join(dir, "src", "mode.c"), "c", modeC))
	e := q.open(filepath.Join(dir, "src", "arena.cuimpl"), "cuda-cpp", hazardCU)
	if got := q.publications(e.uri, 500*time.Millisecond); len(got) != 0 {
		t.Errorf("a .cuimpl file was checked without extensions: %+v", got)
	}
}

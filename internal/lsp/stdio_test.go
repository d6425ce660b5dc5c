package lsp_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lazylintBin is the lazylint binary TestMain builds: the stdio tests run
// `lazylint lsp` as an editor does.
var lazylintBin string

func TestMain(m *testing.M) { os.Exit(testMain(m)) }

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "lazylint-lsp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	lazylintBin = filepath.Join(dir, "lazylint")
	build := exec.Command("go", "build", "-o", lazylintBin, "./cmd/lazylint")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./cmd/lazylint: %v\n%s", err, out)
		return 1
	}
	if path := os.Getenv("LAZYLINT_LSP_TRANSCRIPT"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer f.Close()
		sessionTranscript = &transcript{w: f}
	}
	return m.Run()
}

// syncBuffer is a bytes.Buffer for a process's stderr, read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// serverProcess is `lazylint lsp` running under a test.
type serverProcess struct {
	*lspClient
	stdin  io.WriteCloser
	stderr *syncBuffer
	exited chan error
}

// startServer starts `lazylint lsp` with args, in dir, and a client on its
// stdin and stdout. The process is killed at the end of the test if it is
// still running.
func startServer(t *testing.T, dir string, args ...string) *serverProcess {
	t.Helper()
	cmd := exec.Command(lazylintBin, append([]string{"lsp"}, args...)...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serverProcess{stdin: stdin, stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sessionTranscript.section(t.Name())
	p.lspClient = newClient(t, stdout, stdin, sessionTranscript)
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		select {
		case err := <-p.exited:
			_ = err // a test that cares about it called waitExit
		default:
			_ = cmd.Process.Kill()
			err := <-p.exited
			_ = err // killed
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", p.stderr.String())
		}
	})
	return p
}

// waitExit waits for the process to end and returns its exit code.
func (p *serverProcess) waitExit(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case err := <-p.exited:
		p.exited <- err // for the cleanup
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			return ee.ExitCode()
		default:
			t.Fatalf("waiting for the server: %v", err)
		}
	case <-time.After(timeout):
		t.Fatalf("the server did not exit within %s", timeout)
	}
	return -1
}

// findDiag returns the diagnostic of rule code, failing the test if there
// is not exactly one.
func findDiag(t *testing.T, p *publishParams, code string) diagnostic {
	t.Helper()
	var found []diagnostic
	for _, d := range p.Diagnostics {
		if d.Code == code {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one %s diagnostic, got %d in %+v", code, len(found), p.Diagnostics)
	}
	return found[0]
}

// findAction returns the action whose title contains title.
func findAction(t *testing.T, actions []codeAction, title string) codeAction {
	t.Helper()
	for _, a := range actions {
		if strings.Contains(a.Title, title) {
			return a
		}
	}
	t.Fatalf("no code action titled %q among %+v", title, actions)
	return codeAction{}
}

// wantVersion fails unless p was published for version v.
func wantVersion(t *testing.T, p *publishParams, v int) {
	t.Helper()
	if p.Version == nil || *p.Version != v {
		t.Fatalf("diagnostics for version %v, want %d", p.Version, v)
	}
}

// TestStdioSession drives `lazylint lsp` over stdio as an editor does, in
// one session: initialize; diagnostics for a .cu file opened as cuda-cpp,
// with UTF-16 ranges; nothing for .txt and .py; hover; the suppression
// and the suggested fixes as code actions, applied and re-checked; a burst
// of changes checked once; a cgo Go file; save; close; shutdown and exit.
func TestStdioSession(t *testing.T) {
	dir := workspace(t)
	s := startServer(t, dir, "--debounce", "50ms")
	start := time.Now()

	var init struct {
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool            `json:"openClose"`
				Change    int             `json:"change"`
				Save      json.RawMessage `json:"save"`
			} `json:"textDocumentSync"`
			HoverProvider      bool `json:"hoverProvider"`
			CodeActionProvider struct {
				CodeActionKinds []string `json:"codeActionKinds"`
			} `json:"codeActionProvider"`
		} `json:"capabilities"`
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	raw, err := json.Marshal(s.initialize(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &init); err != nil {
		t.Fatal(err)
	}
	caps := init.Capabilities
	if !caps.TextDocumentSync.OpenClose || caps.TextDocumentSync.Change != 1 || caps.TextDocumentSync.Save == nil ||
		!caps.HoverProvider || len(caps.CodeActionProvider.CodeActionKinds) != 1 || caps.CodeActionProvider.CodeActionKinds[0] != "quickfix" {
		t.Fatalf("capabilities: %s", raw)
	}
	if init.ServerInfo.Name != "lazylint" || init.ServerInfo.Version == "" {
		t.Fatalf("serverInfo: %s", raw)
	}

	hazard := s.open(filepath.Join(dir, "src", "hazard.cu"), "cuda-cpp", hazardCU)
	var diag diagnostic
	t.Run("diagnostics", func(t *testing.T) {
		p := s.diagnostics(hazard)
		wantVersion(t, p, 1)
		diag = findDiag(t, p, "LL001")
		if len(p.Diagnostics) != 1 {
			t.Errorf("want 1 diagnostic, got %+v", p.Diagnostics)
		}
		if diag.Range != hazardRange {
			t.Errorf("range %+v, want %+v (UTF-16 code units)", diag.Range, hazardRange)
		}
		if diag.CodeDescription == nil || diag.CodeDescription.Href != "https://github.com/lazylint/lazylint/blob/main/docs/rules/LL001.md" {
			t.Errorf("codeDescription %+v", diag.CodeDescription)
		}
		if diag.Severity != 2 || diag.Source != "lazylint" || !strings.HasPrefix(diag.Message, "cudaMalloc takes all but 4 MiB of the free memory") {
			t.Errorf("diagnostic %+v", diag)
		}
		if len(diag.RelatedInformation) != 1 || diag.RelatedInformation[0].Location.URI != hazard.uri ||
			diag.RelatedInformation[0].Location.Range.Start != (position{Line: 4, Character: 2}) || diag.RelatedInformation[0].Message != "memory queried here" {
			t.Errorf("relatedInformation %+v", diag.RelatedInformation)
		}
	})

	t.Run("URI as sent", func(t *testing.T) {
		// go.lsp.dev/uri would write this file:///.../a%2Bb%20c.cu; the
		// diagnostics must name the document as the client did.
		path := filepath.Join(dir, "src", "a+b c.cu")
		if err := os.WriteFile(path, []byte(hazardCU), 0o644); err != nil {
			t.Fatal(err)
		}
		d := s.open(path, "cuda-cpp", hazardCU)
		if !strings.Contains(d.uri, "a+b%20c.cu") {
			t.Fatalf("test URI %s", d.uri)
		}
		findDiag(t, s.diagnostics(d), "LL001")
		s.close(d)
		s.diagnostics(d)
	})

	t.Run("other files get nothing", func(t *testing.T) {
		txt := s.open(filepath.Join(dir, "notes.txt"), "plaintext", hazardCU)
		py := s.open(filepath.Join(dir, "script.py"), "python", "# cudaMalloc(&arena, free_bytes)\n")
		s.change(txt, hazardCU+"\n")
		if got := s.publications(txt.uri, 500*time.Millisecond); len(got) != 0 {
			t.Errorf("diagnostics for a .txt file: %+v", got)
		}
		if got := s.publications(py.uri, 10*time.Millisecond); len(got) != 0 {
			t.Errorf("diagnostics for a .py file: %+v", got)
		}
		s.close(txt)
		s.close(py)
		if got := s.publications(txt.uri, 100*time.Millisecond); len(got) != 0 {
			t.Errorf("a closed .txt file was published: %+v", got)
		}
	})

	t.Run("hover", func(t *testing.T) {
		var h struct {
			Contents struct {
				Kind  string `json:"kind"`
				Value string `json:"value"`
			} `json:"contents"`
			Range *lspRange `json:"range"`
		}
		s.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": hazard.uri}, "position": position{Line: 6, Character: 17}}, &h)
		v := h.Contents.Value
		for _, want := range []string{"**LL001 whole-vram-allocation**", "cudaMalloc takes all but 4 MiB of the free memory", "## Why it fails under lazy loading", "(https://github.com/lazylint/lazylint/blob/main/docs/rules/LL001.md)"} {
			if !strings.Contains(v, want) {
				t.Errorf("hover lacks %q:\n%s", want, v)
			}
		}
		if h.Contents.Kind != "markdown" || h.Range == nil || *h.Range != hazardRange {
			t.Errorf("hover kind %q range %+v", h.Contents.Kind, h.Range)
		}
		// Off the finding (inside the comment before it): no hover.
		res := s.mustCall("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": hazard.uri}, "position": position{Line: 6, Character: 6}}, nil)
		if string(res) != "null" {
			t.Errorf("hover off the finding: %s", res)
		}
	})

	t.Run("suppress action", func(t *testing.T) {
		actions := s.codeActions(hazard, []diagnostic{diag}, diag.Range)
		a := findAction(t, actions, "Suppress LL001 on this line")
		if a.Kind != "quickfix" || len(a.Diagnostics) != 1 || a.Diagnostics[0].Code != "LL001" {
			t.Errorf("action %+v", a)
		}
		s.apply(a)
		if line := strings.Split(hazard.text, "\n")[6]; !strings.HasSuffix(line, "(4 << 20)); // NOLINT(lazylint-LL001)") {
			t.Errorf("suppressed line: %q", line)
		}
		p := s.diagnostics(hazard)
		wantVersion(t, p, hazard.version)
		if len(p.Diagnostics) != 0 {
			t.Errorf("the suppressed finding is still reported: %+v", p.Diagnostics)
		}
	})

	t.Run("burst of changes", func(t *testing.T) {
		// Five changes in a row, the last one the hazard again: one check,
		// of the last version.
		for i := range 4 {
			s.change(hazard, strings.Replace(hazardCU, "int main() {", fmt.Sprintf("int main() { // edit %d", i), 1))
		}
		s.change(hazard, hazardCU)
		last := hazard.version
		first := s.diagnostics(hazard)
		rest := s.publications(hazard.uri, 600*time.Millisecond)
		if len(rest) != 0 {
			t.Errorf("a burst of 5 changes gave %d publications", 1+len(rest))
		}
		wantVersion(t, first, last)
		findDiag(t, first, "LL001")

		s.change(hazard, fixedCU)
		p := s.diagnostics(hazard)
		wantVersion(t, p, hazard.version)
		if len(p.Diagnostics) != 0 {
			t.Errorf("fixed text: %+v", p.Diagnostics)
		}
		if !bytes.Contains(p.Raw, []byte(`"diagnostics":[]`)) {
			t.Errorf("an empty list must be sent as []: %s", p.Raw)
		}
	})

	quickFix := func(t *testing.T, path, languageID, text, code, title string) {
		t.Helper()
		d := s.open(filepath.Join(dir, path), languageID, text)
		p := s.diagnostics(d)
		dg := findDiag(t, p, code)
		a := findAction(t, s.codeActions(d, []diagnostic{dg}, dg.Range), title)
		if !a.IsPreferred || a.Kind != "quickfix" {
			t.Errorf("fix %+v: want a preferred quickfix", a)
		}
		s.apply(a)
		p = s.diagnostics(d)
		wantVersion(t, p, 2)
		if len(p.Diagnostics) != 0 {
			t.Errorf("after the fix: %+v\n%s", p.Diagnostics, d.text)
		}
		s.close(d)
		s.diagnostics(d) // the empty list of didClose
	}
	t.Run("quickfix LL006", func(t *testing.T) {
		quickFix(t, "src/mode.c", "c", modeC, "LL006", "initialize CUDA with cuInit(0) before the query")
	})
	t.Run("quickfix LL002", func(t *testing.T) {
		quickFix(t, "src/timed.cu", "cuda-cpp", timedCU, "LL002", "cudaFuncGetAttributes")
	})

	t.Run("cgo", func(t *testing.T) {
		g := s.open(filepath.Join(dir, "gopkg", "mode.go"), "go", modeGo)
		p := s.diagnostics(g)
		ll001, ll006 := findDiag(t, p, "LL001"), findDiag(t, p, "LL006")
		if ll001.Range.Start != (position{Line: 12, Character: 14}) || ll006.Range.Start != (position{Line: 19, Character: 1}) {
			t.Errorf("ranges: LL001 %+v, LL006 %+v", ll001.Range, ll006.Range)
		}
		// Go code: golangci-lint's //nolint:lazylint.
		a := findAction(t, s.codeActions(g, []diagnostic{ll006}, ll006.Range), "//nolint:lazylint")
		s.apply(a)
		if line := strings.Split(g.text, "\n")[19]; line != "\tC.cuModuleGetLoadingMode(&mode) //nolint:lazylint" {
			t.Errorf("suppressed Go line: %q", line)
		}
		p = s.diagnostics(g)
		findDiag(t, p, "LL001")
		if len(p.Diagnostics) != 1 {
			t.Errorf("after //nolint: %+v", p.Diagnostics)
		}
		// The C of the preamble: the C form, inside the // comment.
		ll001 = p.Diagnostics[0]
		s.apply(findAction(t, s.codeActions(g, []diagnostic{ll001}, ll001.Range), "Suppress LL001 on this line"))
		if line := strings.Split(g.text, "\n")[12]; line != "//   void *p; cudaMalloc(&p, free_b); // NOLINT(lazylint-LL001)" {
			t.Errorf("suppressed preamble line: %q", line)
		}
		if p = s.diagnostics(g); len(p.Diagnostics) != 0 {
			t.Errorf("after NOLINT in the preamble: %+v", p.Diagnostics)
		}
		// The analyzer's suggested fix.
		s.change(g, modeGo)
		p = s.diagnostics(g)
		ll006 = findDiag(t, p, "LL006")
		fix := findAction(t, s.codeActions(g, nil, ll006.Range), "initialize CUDA")
		if !fix.IsPreferred {
			t.Errorf("fix %+v: want preferred", fix)
		}
		s.apply(fix)
		p = s.diagnostics(g)
		findDiag(t, p, "LL001")
		if len(p.Diagnostics) != 1 {
			t.Errorf("after the Go fix: %+v\n%s", p.Diagnostics, g.text)
		}
		s.close(g)
		s.diagnostics(g)
	})

	t.Run("save", func(t *testing.T) {
		s.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": hazard.uri}})
		p := s.diagnostics(hazard)
		wantVersion(t, p, hazard.version)
	})

	t.Run("close", func(t *testing.T) {
		s.close(hazard)
		p := s.diagnostics(hazard)
		if len(p.Diagnostics) != 0 || !bytes.Contains(p.Raw, []byte(`"diagnostics":[]`)) {
			t.Errorf("didClose published %s", p.Raw)
		}
		// Requests on a closed document answer empty.
		var actions []codeAction
		s.mustCall("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": hazard.uri}, "range": hazardRange, "context": map[string]any{"diagnostics": []any{}}}, &actions)
		if len(actions) != 0 {
			t.Errorf("actions on a closed document: %+v", actions)
		}
	})

	t.Run("shutdown and exit", func(t *testing.T) {
		if res := s.mustCall("shutdown", nil, nil); string(res) != "null" {
			t.Errorf("shutdown result %s", res)
		}
		// After shutdown, requests fail.
		if _, rerr := s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": hazard.uri}, "position": position{}}); rerr == nil {
			t.Errorf("a request after shutdown succeeded")
		}
		s.notify("exit", nil)
		if code := s.waitExit(t, 10*time.Second); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	})
	t.Logf("session took %s", time.Since(start).Round(time.Millisecond))
}

// TestStdioExitWithoutShutdown: requests before initialize fail with
// ServerNotInitialized, and an exit without shutdown exits 1.
func TestStdioExitWithoutShutdown(t *testing.T) {
	s := startServer(t, t.TempDir())
	_, rerr := s.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x.cu"}, "position": position{}})
	if rerr == nil || rerr.Code != -32002 {
		t.Errorf("request before initialize: %+v, want error -32002", rerr)
	}
	s.initialize("")
	s.notify("exit", nil)
	if code := s.waitExit(t, 10*time.Second); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if !strings.Contains(s.stderr.String(), "exit notification without a shutdown request first") {
		t.Errorf("stderr: %s", s.stderr.String())
	}
}

// TestStdioClientGone: a client that closes the server's stdin without
// shutdown makes it exit 1.
func TestStdioClientGone(t *testing.T) {
	s := startServer(t, t.TempDir())
	s.initialize("")
	_ = s.stdin.Close()
	if code := s.waitExit(t, 10*time.Second); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
}

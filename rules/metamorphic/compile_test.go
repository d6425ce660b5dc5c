package metamorphic

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lazylint/lazylint/internal/cgoheaders"
)

var compileCheck = flag.Bool("compile-check", false, "compile every variant of the C and C++ fixtures that compile (with lazylint's CUDA stub headers, $CC and $CXX -fsyntax-only): a variant that does not compile is a transformation that changed the code's meaning")

// compileVariants compiles the variants of fixtures that compile and
// fails for each that does not.
func compileVariants(t *testing.T, jobs []*job) {
	t.Helper()
	c := newCompiler(t)
	tmp := t.TempDir()
	var wg sync.WaitGroup
	var compiled atomic.Int64
	work := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				j := jobs[i]
				if j.built == nil {
					continue
				}
				out, checked := c.check(j, filepath.Join(tmp, strconv.Itoa(i)))
				if out != "" {
					t.Errorf("%s does not compile:\n%s\n%s", j.name(), out, j.fullDiff())
				}
				if checked {
					compiled.Add(1)
				}
			}
		}()
	}
	for i := range jobs {
		work <- i
	}
	close(work)
	wg.Wait()
	var names []string
	for f, ok := range c.ok {
		if ok {
			names = append(names, f.name)
		}
	}
	sort.Strings(names)
	t.Logf("compiled %d variants of the %d fixtures that compile: %s", compiled.Load(), len(names), strings.Join(names, ", "))
}

// compiler compiles fixtures and variants with the stub headers.
type compiler struct {
	stubs string
	mu    sync.Mutex
	ok    map[*fixture]bool // whether the original compiles
}

func newCompiler(t *testing.T) *compiler {
	t.Helper()
	dir := t.TempDir()
	if _, err := cgoheaders.Write(dir); err != nil {
		t.Fatal(err)
	}
	return &compiler{stubs: dir, ok: map[*fixture]bool{}}
}

// compiles reports whether the files compile, and the compiler's output.
func (c *compiler) compiles(files map[string][]byte, dir string) (bool, string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err.Error()
	}
	defer os.RemoveAll(dir)
	var sources []string
	for p, src := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return false, err.Error()
		}
		if err := os.WriteFile(full, src, 0o644); err != nil {
			return false, err.Error()
		}
		switch filepath.Ext(p) {
		case ".c", ".cpp", ".cc", ".cxx":
			sources = append(sources, full)
		}
	}
	if len(sources) == 0 {
		return false, "nothing to compile"
	}
	for _, s := range sources {
		cc, args := envOr("CXX", "g++"), []string{"-std=c++20"}
		if filepath.Ext(s) == ".c" {
			cc, args = envOr("CC", "gcc"), []string{"-std=gnu11"}
		}
		args = append(args, "-fsyntax-only", "-w", "-I"+c.stubs, "-I"+filepath.Dir(s), s)
		out, err := exec.Command(cc, args...).CombinedOutput()
		if err != nil {
			return false, string(out)
		}
	}
	return true, ""
}

// check compiles a variant whose original compiles; it returns the
// compiler's complaint, or "", and whether it compiled the variant.
func (c *compiler) check(j *job, dir string) (string, bool) {
	c.mu.Lock()
	ok, seen := c.ok[j.fx]
	c.mu.Unlock()
	if !seen {
		ok, _ = c.compiles(j.fx.files, dir+"-orig")
		c.mu.Lock()
		c.ok[j.fx] = ok
		c.mu.Unlock()
	}
	if !ok {
		return "", false
	}
	if good, out := c.compiles(j.built.files, dir); !good {
		return strings.TrimSpace(out), true
	}
	return "", true
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

package integration

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/repotest"
)

// requirePreCommitEnv, set to 1 (as .ci/run does), turns the skip of the
// end-to-end test when pre-commit or go is missing into a failure.
const requirePreCommitEnv = "LAZYLINT_REQUIRE_PRECOMMIT"

// hook is the part of a .pre-commit-hooks.yaml entry the tests look at.
type hook struct {
	ID            string `yaml:"id"`
	Name          string `yaml:"name"`
	Language      string `yaml:"language"`
	Entry         string `yaml:"entry"`
	Files         string `yaml:"files"`
	RequireSerial *bool  `yaml:"require_serial"`
}

// repoRoot is the root of the lazylint module: go test runs in the
// package's directory, two levels below it.
func repoRoot(t *testing.T) string { return repotest.Root(t) }

func loadHook(t *testing.T, root string) hook {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []hook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	var found []hook
	for _, h := range hooks {
		if h.ID == "lazylint" {
			found = append(found, h)
		}
	}
	if len(found) != 1 {
		t.Fatalf(".pre-commit-hooks.yaml: want exactly one hook with id lazylint, got %d", len(found))
	}
	return found[0]
}

func TestHookFileEndingsMatchExtensions(t *testing.T) {
	h := loadHook(t, repoRoot(t))
	if h.Language != "golang" || h.Entry != "lazylint check" {
		t.Errorf("hook: language %q, entry %q; want golang, %q", h.Language, h.Entry, "lazylint check")
	}
	if h.RequireSerial == nil || *h.RequireSerial {
		t.Errorf("hook: want require_serial: false")
	}
	if h.Files == "" {
		t.Fatal("hook has no files regex")
	}
	rx, err := regexp.Compile(h.Files)
	if err != nil {
		t.Fatalf("files regex %q does not compile with Go's regexp: %v", h.Files, err)
	}

	for _, ext := range cudaparse.Extensions {
		for _, name := range []string{
			"kernel" + ext,
			"src/deep/dir/Kernel" + strings.ToUpper(ext),
			"x.y" + mixedCase(ext),
		} {
			if !rx.MatchString(name) {
				t.Errorf("files regex %q does not match %q", h.Files, name)
			}
		}
	}
	for _, name := range []string{
		"setup.py", "main.go", "kernel.cu.txt", "README.md", "kernel.cuda",
		"kernel.cuhh", "kernel.c++", "kernel.hip", "kernel.ptx", "kernel.cubin",
		"kernel.C.orig", "cu", "Makefile", "dir.cu/notes", "kernel.cu~",
	} {
		if rx.MatchString(name) {
			t.Errorf("files regex %q matches %q", h.Files, name)
		}
	}

	// Exhaustively over endings of one to three letters, in lower and upper
	// case, the hook selects exactly the files lazylint itself treats as
	// sources.
	var mismatches []string
	forEachEnding(3, func(ending string) {
		for _, name := range []string{"f." + ending, "F." + strings.ToUpper(ending)} {
			if got, want := rx.MatchString(name), cudaparse.IsSource(name); got != want {
				mismatches = append(mismatches, name)
			}
		}
	})
	if len(mismatches) > 0 {
		if len(mismatches) > 20 {
			mismatches = append(mismatches[:20], "...")
		}
		t.Errorf("files regex %q disagrees with cudaparse.IsSource on %v", h.Files, mismatches)
	}

	t.Run("python", func(t *testing.T) {
		// pre-commit matches with Python's re.search: the regex must mean
		// the same there.
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("python3 not on PATH")
		}
		names := []string{"a.py", "a.cu.txt", "a.md", "a.go", "a.c++", "a.cuhh"}
		for _, ext := range cudaparse.Extensions {
			names = append(names, "a"+ext, "B"+strings.ToUpper(ext))
		}
		const script = "import re, sys\n" +
			"rx = re.compile(sys.argv[1])\n" +
			"print(''.join('1' if rx.search(n) else '0' for n in sys.argv[2:]))\n"
		out, err := exec.Command(py, append([]string{"-c", script, h.Files}, names...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("python3: %v\n%s", err, out)
		}
		got := strings.TrimSpace(string(out))
		var want strings.Builder
		for _, n := range names {
			if rx.MatchString(n) {
				want.WriteByte('1')
			} else {
				want.WriteByte('0')
			}
		}
		if got != want.String() {
			t.Errorf("Python and Go disagree on %q over %v: python %s, go %s", h.Files, names, got, want.String())
		}
	})
}

// mixedCase upper-cases every other letter of s.
func mixedCase(s string) string {
	b := []byte(s)
	for i := range b {
		if i%2 == 1 && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

// forEachEnding calls f with every string of 1 to n lower-case letters.
func forEachEnding(n int, f func(string)) {
	buf := make([]byte, 0, n)
	var rec func()
	rec = func() {
		if len(buf) > 0 {
			f(string(buf))
		}
		if len(buf) == n {
			return
		}
		for c := byte('a'); c <= 'z'; c++ {
			buf = append(buf, c)
			rec()
			buf = buf[:len(buf)-1]
		}
	}
	rec()
}

// hazardCU has one LL001 finding: it allocates all the free memory that
// cudaMemGetInfo reports, then launches a kernel that would load lazily.
const hazardCU = `#include <cuda_runtime.h>
__global__ void k(float *p) { p[0] = 1; }
int main() { size_t free_b, total; cudaMemGetInfo(&free_b, &total); void *buf; cudaMalloc(&buf, free_b); k<<<1,1>>>((float*)buf); return 0; }
`

// cleanCU has no findings.
const cleanCU = `#include <cuda_runtime.h>
__global__ void k(float *p) { p[0] = 1; }
int main() { void *buf; cudaMalloc(&buf, 1024); k<<<1,1>>>((float*)buf); cudaDeviceSynchronize(); cudaFree(buf); return 0; }
`

// TestPreCommitTryRepo runs the hook end to end the way a user trying it
// would: `pre-commit try-repo <lazylint> lazylint --files F` in a git repo,
// which makes pre-commit clone lazylint, `go install ./...` it and run
// `lazylint check F`.
//
// pre-commit is not pointed at the work tree itself: for a dirty tree it
// commits only tracked files (git add -u) into its shadow repo, so an
// untracked new file, .pre-commit-hooks.yaml included, would be left out.
// The test commits a snapshot of the work tree (tracked and untracked files
// that are not ignored, as they are on disk) into a temporary repo and tries
// that instead, so it tests what `go test` builds, on a clean clone and on a
// dirty tree alike.
func TestPreCommitTryRepo(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the pre-commit end-to-end test")
	}
	preCommit := lookTool(t, "pre-commit")
	goTool := lookTool(t, "go")
	lookTool(t, "git")
	root := repoRoot(t)
	tmp := t.TempDir()

	// The go install inside pre-commit runs with GOPATH set to the hook's
	// environment, which would put a fresh module cache there and download
	// every module again; point it at the one this go uses. The build cache
	// (GOCACHE) does not depend on GOPATH, but pin it too.
	goenv, err := exec.Command(goTool, "env", "GOMODCACHE", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	vals := strings.Split(strings.TrimSpace(string(goenv)), "\n")
	if len(vals) != 2 || vals[0] == "" || vals[1] == "" {
		t.Fatalf("go env GOMODCACHE GOCACHE: unexpected output %q", goenv)
	}
	env := withEnv(cleanEnv(),
		"GOMODCACHE="+vals[0],
		"GOCACHE="+vals[1],
		"PRE_COMMIT_HOME="+filepath.Join(tmp, "pre-commit-home"),
	)

	snap := filepath.Join(tmp, "lazylint")
	snapshotWorkTree(t, root, snap)
	git(t, snap, "init", "-q")
	git(t, snap, "add", "-A")
	git(t, snap, "-c", "user.name=lazylint test", "-c", "user.email=test@lazylint.invalid",
		"-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", "snapshot of the work tree")

	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"hazard.cu": hazardCU, "clean.cu": cleanCU} {
		if err := os.WriteFile(filepath.Join(work, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, work, "init", "-q")
	git(t, work, "config", "user.name", "lazylint test")
	git(t, work, "config", "user.email", "test@lazylint.invalid")
	git(t, work, "config", "commit.gpgsign", "false")
	git(t, work, "add", "hazard.cu", "clean.cu")
	git(t, work, "commit", "-q", "--no-verify", "-m", "sources")

	tryRepo := func(file string) (int, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), runLimit(t))
		defer cancel()
		cmd := exec.CommandContext(ctx, preCommit, "try-repo", snap, "lazylint",
			"--files", file, "--verbose", "--color=never")
		cmd.Dir = work
		cmd.Env = env
		cmd.WaitDelay = 5 * time.Second
		start := time.Now()
		out, err := cmd.CombinedOutput()
		t.Logf("pre-commit try-repo ... --files %s: %s\n%s", file, time.Since(start).Round(time.Millisecond), out)
		if ctx.Err() != nil {
			t.Fatalf("pre-commit try-repo --files %s: timed out", file)
		}
		var exitErr *exec.ExitError
		switch {
		case err == nil:
			return 0, string(out)
		case errors.As(err, &exitErr):
			return exitErr.ExitCode(), string(out)
		default:
			t.Fatalf("pre-commit: %v", err)
			return -1, ""
		}
	}

	// pre-commit exits 1 when a hook fails, 3 when it could not run one
	// (a failed install, say).
	installFailed := func(code int) {
		if code == 3 {
			t.Fatal("pre-commit could not install the hook: its `go install ./...` must build every main package " +
				"of the work tree, untracked files that are not ignored included (output above)")
		}
	}
	code, out := tryRepo("hazard.cu")
	installFailed(code)
	if code != 1 || !strings.Contains(out, "LL001") || !strings.Contains(out, "Failed") {
		t.Errorf("hazard.cu: want exit 1 with a Failed hook and an LL001 finding, got exit %d (output above)", code)
	}
	code, out = tryRepo("clean.cu")
	installFailed(code)
	if code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("clean.cu: want exit 0 and Passed, got exit %d (output above)", code)
	}
}

// lookTool finds name on PATH; without it the test is skipped, or fails
// when LAZYLINT_REQUIRE_PRECOMMIT=1.
func lookTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	msg := name + " not on PATH: skipping the pre-commit end-to-end test (install Debian's pre-commit; set " +
		requirePreCommitEnv + "=1 to make this a failure)"
	if os.Getenv(requirePreCommitEnv) == "1" {
		t.Fatal(name + " not on PATH and " + requirePreCommitEnv + "=1")
	}
	t.Skip(msg)
	return ""
}

// runLimit is how long one pre-commit run may take: 10 minutes, less if the
// test's own deadline comes sooner.
func runLimit(t *testing.T) time.Duration {
	limit := 10 * time.Minute
	if dl, ok := t.Deadline(); ok {
		if left := time.Until(dl) - 30*time.Second; left < limit {
			limit = max(left, time.Second)
		}
	}
	return limit
}

// cleanEnv is the environment less git's own variables (GIT_DIR,
// GIT_INDEX_FILE, ... as set when tests run inside a git hook), which would
// point the test's git commands at the wrong repository.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return env
}

// withEnv returns env with each KEY=VALUE of set replacing any KEY there.
func withEnv(env []string, set ...string) []string {
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		key, _, _ := strings.Cut(kv, "=")
		replaced := false
		for _, s := range set {
			if strings.HasPrefix(s, key+"=") {
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s (in %s): %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

// snapshotWorkTree copies into dst the files of root's work tree that git
// tracks or would add (untracked files that are not ignored), as they are
// on disk; tracked files deleted there are left out.
func snapshotWorkTree(t *testing.T, root, dst string) {
	t.Helper()
	list := git(t, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	for _, rel := range strings.Split(list, "\x00") {
		if rel == "" {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(rel))
		to := filepath.Join(dst, filepath.FromSlash(rel))
		fi, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		switch {
		case fi.Mode().IsRegular():
			if err := copyFile(src, to, fi.Mode().Perm()); err != nil {
				t.Fatal(err)
			}
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, to); err != nil && !errors.Is(err, fs.ErrExist) {
				t.Fatal(err)
			}
		}
		// Anything else (a submodule's directory) is not part of the build.
	}
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

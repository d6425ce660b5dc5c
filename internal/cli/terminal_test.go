package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// pretendTerminal makes every writer look like a terminal for one test.
func pretendTerminal(t *testing.T) {
	t.Helper()
	saved := isTerminal
	isTerminal = func(io.Writer) bool { return true }
	t.Cleanup(func() { isTerminal = saved })
}

func TestColors(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard})
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	_, plain, _ := run(t, dir, "check", "bad.cu")
	if strings.Contains(plain, "\x1b[") {
		t.Errorf("colors on a pipe:\n%q", plain)
	}
	_, colored, _ := run(t, dir, "check", "--color", "always", "bad.cu")
	if !strings.Contains(colored, "\x1b[1mbad.cu:4:3:\x1b[0m \x1b[1;33mwarning:\x1b[0m cudaMalloc") {
		t.Errorf("--color always:\n%q", colored)
	}
	pretendTerminal(t)
	if _, out, _ := run(t, dir, "check", "bad.cu"); out != colored {
		t.Errorf("auto on a terminal:\n%q", out)
	}
	t.Setenv("NO_COLOR", "1")
	if _, out, _ := run(t, dir, "check", "bad.cu"); out != plain {
		t.Errorf("NO_COLOR on a terminal:\n%q", out)
	}
	if _, out, _ := run(t, dir, "check", "--format", "json", "--color", "always", "bad.cu"); strings.Contains(out, "\x1b[") {
		t.Error("colors in JSON")
	}
	if code, _, errs := run(t, dir, "check", "--color", "sometimes", "bad.cu"); code != ExitFailure || !strings.Contains(errs, "bad --color") {
		t.Errorf("bad --color: exit %d %q", code, errs)
	}
}

func TestProgressBarWaitsThrottlesAndErases(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	p := &progressBar{w: &buf, now: func() time.Time { return now }, delay: time.Second, interval: 100 * time.Millisecond, start: now}
	p.update(1, 10)
	p.finish()
	if buf.Len() != 0 {
		t.Fatalf("a short run drew %q", buf.String())
	}
	now = now.Add(2 * time.Second)
	p.update(5, 10)
	p.update(6, 10) // within the interval: not drawn
	now = now.Add(200 * time.Millisecond)
	p.update(10, 10)
	p.finish()
	want := "\r\x1b[K[" + strings.Repeat("=", 15) + strings.Repeat(" ", 15) + "] 5/10 files" +
		"\r\x1b[K[" + strings.Repeat("=", 30) + "] 10/10 files" + "\r\x1b[K"
	if buf.String() != want {
		t.Errorf("drew %q\nwant %q", buf.String(), want)
	}
}

func TestProgressOnlyOnATerminalOutsideCI(t *testing.T) {
	dir := writeFiles(t, map[string]string{"bad.cu": hazard, "good.cu": safe})
	for _, v := range []string{"CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD", "TEAMCITY_VERSION"} {
		t.Setenv(v, "")
	}
	saved := progressDelay
	progressDelay = 0
	t.Cleanup(func() { progressDelay = saved })

	if _, _, errs := run(t, dir, "check", "."); strings.Contains(errs, "files") {
		t.Errorf("progress on a pipe: %q", errs)
	}
	pretendTerminal(t)
	_, out, errs := run(t, dir, "check", ".")
	if !strings.Contains(errs, "/2 files") || !strings.HasSuffix(errs, "\r\x1b[K") || strings.Contains(out, "files]") {
		t.Errorf("progress on a terminal: stderr %q stdout %q", errs, out)
	}
	if _, _, errs := run(t, dir, "check", "--no-progress", "."); errs != "" {
		t.Errorf("--no-progress: %q", errs)
	}
	t.Setenv("CI", "true")
	if _, _, errs := run(t, dir, "check", "."); errs != "" {
		t.Errorf("progress in CI: %q", errs)
	}
	t.Setenv("CI", "false")
	if inCI() {
		t.Error("CI=false taken for CI")
	}
}

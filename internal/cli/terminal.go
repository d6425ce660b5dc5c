package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal. Tests replace it.
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// colorModes are the values of --color.
var colorModes = []string{"auto", "always", "never"}

// useColor decides --color: "always", "never", or "auto": only on a
// terminal, never with NO_COLOR set to anything (no-color.org) or
// TERM=dumb.
func useColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "auto":
		return os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && isTerminal(w)
	}
	return false
}

// inCI reports whether a CI system runs us: they set CI (GitHub Actions,
// GitLab, CircleCI, Travis, Buildkite...) or a name of their own.
func inCI() bool {
	for _, v := range []string{"CI", "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "JENKINS_URL", "TF_BUILD", "TEAMCITY_VERSION"} {
		if s := os.Getenv(v); s != "" && !strings.EqualFold(s, "false") && s != "0" {
			return true
		}
	}
	return false
}

// progressBar draws "checked N/M files" on a terminal's line for runs that
// last: it waits before the first draw, redraws at most every interval, and
// erases itself at the end. Engine workers call update concurrently.
type progressBar struct {
	w        io.Writer
	now      func() time.Time
	delay    time.Duration // nothing is drawn before this much time
	interval time.Duration // between two draws

	mu    sync.Mutex
	start time.Time
	last  time.Time
	drawn bool
}

const progressWidth = 30

// progressDelay is how long a run goes before its bar appears; tests set
// it to 0.
var progressDelay = 500 * time.Millisecond

func newProgressBar(w io.Writer) *progressBar {
	return &progressBar{w: w, now: time.Now, delay: progressDelay, interval: 100 * time.Millisecond, start: time.Now()}
}

func (p *progressBar) update(done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if now.Sub(p.start) < p.delay || p.drawn && now.Sub(p.last) < p.interval || total <= 0 {
		return
	}
	p.last, p.drawn = now, true
	filled := progressWidth * done / total
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", progressWidth-filled)
	fmt.Fprintf(p.w, "\r\x1b[K[%s] %d/%d files", bar, done, total)
}

// finish erases the bar, if it was drawn.
func (p *progressBar) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// terminalWidth is the width that long report lines wrap to: the
// terminal's, or 0 (no wrapping) when w is not a terminal.
func terminalWidth(w io.Writer) int {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(w) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width < 40 {
		return 0
	}
	return width
}

package cli

import (
	"os"
	"strings"
	"testing"
)

// TestMain keeps the tests' result cache out of the user's cache folder.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "lazylint-cli-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("LAZYLINT_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// reported reports whether the text report out has a finding line at
// place ("path:line:col:") of rule id whose message starts with msg: the
// line `place severity: message [marks] [id]`.
func reported(out, place, id, msg string) bool {
	for _, line := range strings.Split(out, "\n") {
		rest, ok := strings.CutPrefix(line, place+" ")
		if !ok || !strings.HasSuffix(line, "["+id+"]") {
			continue
		}
		if _, message, ok := strings.Cut(rest, ": "); ok && strings.HasPrefix(message, msg) {
			return true
		}
	}
	return false
}

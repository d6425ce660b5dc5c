package bench

import (
	"os"
	"testing"
)

// TestMain removes the generated corpus when the benchmarks are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if corpusDir != "" {
		os.RemoveAll(corpusDir)
	}
	os.Exit(code)
}

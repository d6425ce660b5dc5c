package cli

import (
	"os"
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

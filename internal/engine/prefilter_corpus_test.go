package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/rules"
)

// TestPrefiltersOnCorpus checks FuzzRules's prefilter property on every
// C/C++/CUDA file under $LAZYLINT_CORPUS (a folder of checked-out
// projects; docs/accuracy.md): with each rule's prefilter, a file gives the
// same findings as with none. Skipped when the variable is unset; it parses
// every file, about a minute per 50 MB on two cores.
func TestPrefiltersOnCorpus(t *testing.T) {
	root := os.Getenv("LAZYLINT_CORPUS")
	if root == "" {
		t.Skip("LAZYLINT_CORPUS is not set")
	}
	checker := &engine.Checker{Rules: rules.All}
	unfiltered := &engine.Checker{Rules: withoutPrefilters(rules.All)}
	files, differ := 0, 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, walkErr error) error {
		if walkErr != nil || d.IsDir() || !cudaparse.IsSource(p) || strings.HasSuffix(p, ".go") {
			return nil //nolint:nilerr // an unreadable entry is skipped, not fatal
		}
		src, readErr := os.ReadFile(p)
		if readErr != nil {
			return nil //nolint:nilerr // as above
		}
		files++
		with, err1 := checker.Check(p, src)
		without, err2 := unfiltered.Check(p, src)
		if err1 != nil || err2 != nil {
			return nil //nolint:nilerr // a file neither check can read proves nothing
		}
		if got, want := show(with), show(without); got != want {
			differ++
			t.Errorf("%s: a prefilter hides findings:\nwith prefilters:\n%s\nwithout:\n%s", p, got, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d differ", files, differ)
}

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

func TestDbgCounts(t *testing.T) {
	dir := os.Getenv("PROF_DIR")
	if dir == "" {
		t.Skip()
	}
	var loader, clockDef, loadCand, clockCand, scanned, n int
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		src, _ := os.ReadFile(p)
		var ff fileFacts
		noteProjectFacts(&ff, rule.NewText(src), Settings{Rules: rules.All}, nil, skipped, newInterner())
		n++
		if ff.loader {
			loader++
		}
		if ff.clockDefiner {
			clockDef++
		}
		if ff.loadCandidate {
			loadCand++
		}
		if ff.clockCandidate {
			clockCand++
		}
		if ff.scanned {
			scanned++
		}
		return nil
	})
	fmt.Println("files", n, "loader", loader, "clockDefiner", clockDef, "loadCandidate", loadCand, "clockCandidate", clockCand, "scanned", scanned)
}

// Command cmd writes the files generated from the rules' metadata. Run it
// with `go generate ./...` from the repository root.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/lazylint/lazylint/internal/gen"
	"github.com/lazylint/lazylint/rules"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	files, err := gen.Files(root, rules.All)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	for path, data := range files {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

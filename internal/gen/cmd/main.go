// Command cmd writes the files generated from the rules' metadata. Run it
// with `go generate ./...` from the repository root.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lazylint/lazylint/internal/gen"
	"github.com/lazylint/lazylint/rules"
)

func main() {
	registryOnly := flag.Bool("registry", false, "write only rules/all.go (run first: the docs need the new registry compiled in)")
	flag.Parse()
	root := "."
	if flag.NArg() > 0 {
		root = flag.Arg(0)
	}
	files, err := gen.Files(root, rules.All)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if *registryOnly {
		files = map[string][]byte{"rules/all.go": files["rules/all.go"]}
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

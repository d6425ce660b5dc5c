package rules_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Rules are pure functions of parsed facts: no I/O, no tree-sitter, no cgo.
// And tree-sitter is imported by cudaparse alone.
func TestLayering(t *testing.T) {
	forbiddenInRules := []string{"os", "io/fs", "io/ioutil", "net", "net/http", "os/exec", "C", "syscall", "unsafe"}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		inRules := strings.HasPrefix(rel, "rules/") && !strings.HasPrefix(rel, "rules/ruletest/") || strings.HasPrefix(rel, "rule/")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, "go-tree-sitter") && !strings.HasPrefix(rel, "cudaparse/") {
				t.Errorf("%s imports %s: only cudaparse may use tree-sitter", rel, p)
			}
			if inRules {
				for _, bad := range forbiddenInRules {
					if p == bad {
						t.Errorf("%s imports %s: rules do no I/O", rel, p)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

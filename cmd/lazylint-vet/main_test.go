package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoVet builds the vet tool and runs go vet with it on a cgo package
// that declares its own C prototypes (no CUDA headers needed).
func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go vet")
	}
	dir, tool := buildVetTool(t)
	mod := writeModule(t, dir, map[string]string{
		"m.go": `package m

/*
typedef int CUmoduleLoadingMode;
static int cuModuleGetLoadingMode(CUmoduleLoadingMode *m) { return 0; }
*/
import "C"

func Mode() C.CUmoduleLoadingMode {
	var m C.CUmoduleLoadingMode
	C.cuModuleGetLoadingMode(&m)
	return m
}
`,
	})
	cmd := exec.Command("go", "vet", "-vettool="+tool, "./...")
	cmd.Dir = mod
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("go vet found nothing:\n%s", out)
	}
	if !strings.Contains(string(out), "m.go:11:2: LL006 cuModuleGetLoadingMode before cuInit") {
		t.Errorf("go vet output:\n%s", out)
	}
}

// buildVetTool builds lazylint-vet into a new temporary folder and returns
// the folder and the tool's path.
func buildVetTool(t *testing.T) (dir, tool string) {
	t.Helper()
	dir = t.TempDir()
	tool = filepath.Join(dir, "lazylint-vet")
	if out, err := exec.Command("go", "build", "-o", tool, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return dir, tool
}

// writeModule writes a Go module example.com/m of the files under dir/mod
// and returns its folder.
func writeModule(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	mod := filepath.Join(dir, "mod")
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = "module example.com/m\n\ngo 1.26\n"
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}

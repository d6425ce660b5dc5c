package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lazylint/lazylint/internal/lsp"
)

const launcherCU = `__global__ void scale(float *p, int n) {}
void launch_scale(float *p, int n) { scale<<<1, 1>>>(p, n); }
`

const benchCPP = `#include <chrono>
void launch_scale(float *p, int n);
double bench(float *p, int n) {
  auto t0 = std::chrono::steady_clock::now();
  launch_scale(p, n);
  auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}
`

// TestServeProjectFacts: a diagnostic in one file rests on a launcher in
// another. The facts are built in the background at initialize; once they
// are, the open document is checked again and the finding appears.
func TestServeProjectFacts(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "scale.cu"), []byte(launcherCU), 0o644); err != nil {
		t.Fatal(err)
	}
	bench := filepath.Join(dir, "bench.cpp")
	if err := os.WriteFile(bench, []byte(benchCPP), 0o644); err != nil {
		t.Fatal(err)
	}
	p := serveInProcess(t, lsp.Config{Options: allRules, Debounce: time.Millisecond})
	p.initialize(dir)
	d := p.open(bench, "cpp", benchCPP)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		pub := p.diagnostics(d)
		for _, diag := range pub.Diagnostics {
			if diag.Code == "LL002" && strings.Contains(diag.Message, "launch_scale (scale.cu:2)") {
				return
			}
		}
	}
	t.Fatal("no LL002 diagnostic resting on scale.cu's launcher")
}

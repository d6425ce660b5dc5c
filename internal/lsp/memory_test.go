package lsp_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lazylint/lazylint/internal/lsp"
)

// rssBytes reads the process's resident set size: Go heap and the C memory
// of tree-sitter together.
func rssBytes(t *testing.T) int64 {
	t.Helper()
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm here")
	}
	fields := strings.Fields(string(data))
	pages, _ := strconv.ParseInt(fields[1], 10, 64)
	return pages * int64(os.Getpagesize())
}

// TestManyEditsKeepMemoryFlat opens, edits and closes a file 1,000 times:
// the Go heap, the RSS (which holds tree-sitter's C memory) and the number
// of goroutines must not grow with the number of rounds.
func TestManyEditsKeepMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 LSP rounds")
	}
	dir := workspace(t)
	p := serveInProcess(t, lsp.Config{Options: allRules, Debounce: time.Millisecond})
	p.initialize(dir)
	path := filepath.Join(dir, "src", "hazard.cu")
	measure := func() (heap uint64, rss int64, goroutines int) {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc, rssBytes(t), runtime.NumGoroutine()
	}
	round := func(i int) {
		d := p.open(path, "cuda-cpp", hazardCU)
		if got := p.diagnostics(d); len(got.Diagnostics) != 1 {
			t.Fatalf("round %d: open gave %d diagnostics", i, len(got.Diagnostics))
		}
		p.change(d, fixedCU+"// round "+strconv.Itoa(i)+"\n")
		if got := p.diagnostics(d); len(got.Diagnostics) != 0 {
			t.Fatalf("round %d: the fixed text gave %d diagnostics", i, len(got.Diagnostics))
		}
		p.close(d)
		if got := p.diagnostics(d); len(got.Diagnostics) != 0 {
			t.Fatalf("round %d: close did not clear", i)
		}
	}
	const warmup, rounds = 100, 1000
	for i := range warmup {
		round(i)
	}
	heap0, rss0, g0 := measure()
	for i := range rounds - warmup {
		round(warmup + i)
	}
	heap1, rss1, g1 := measure()
	t.Logf("after %d rounds: heap %d -> %d KiB, RSS %d -> %d KiB, goroutines %d -> %d", warmup, heap0>>10, heap1>>10, rss0>>10, rss1>>10, g0, g1)
	// 900 more rounds may not add more than a few MiB: a leak of even one
	// parse tree (tens of KiB) per round would add tens of MiB.
	if heap1 > heap0+4<<20 {
		t.Errorf("Go heap grew from %d to %d KiB", heap0>>10, heap1>>10)
	}
	if rss1 > rss0+16<<20 {
		t.Errorf("RSS grew from %d to %d KiB", rss0>>10, rss1>>10)
	}
	if g1 > g0+2 {
		t.Errorf("goroutines grew from %d to %d", g0, g1)
	}
}

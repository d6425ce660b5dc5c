package knowledge_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/knowledge"
)

// TestStandardLibraryOnly: every layer may read this package, the cgo
// analyzers (built into go vet's tool) included, so it imports nothing but
// the standard library, and no cgo.
func TestStandardLibraryOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "C" || strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
				t.Errorf("%s imports %q: knowledge must import only the standard library", name, path)
			}
		}
	}
}

// TestPreloadsMeasured: the runtime calls measured to load the kernel they
// name (shared/hazards.md, H100, 2026-11-25) are all preloads.
func TestPreloadsMeasured(t *testing.T) {
	for _, name := range []string{
		"cudaFuncGetAttributes", "cudaFuncSetAttribute", "cudaFuncSetCacheConfig",
		"cudaFuncSetSharedMemConfig", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
		"cudaOccupancyMaxPotentialBlockSize", "cudaOccupancyAvailableDynamicSMemPerBlock",
		"cudaGetFuncBySymbol", "cuModuleGetFunction", "cuKernelGetFunction",
	} {
		found := false
		for _, p := range knowledge.PreloadAPINames() {
			found = found || p == name
		}
		if !found {
			t.Errorf("%s loads the kernel it names but is not a preload", name)
		}
	}
	// cuLibraryGetKernel does not load (measured): a CUkernel loads at its
	// first launch.
	if knowledge.KernelResolvers["cuLibraryGetKernel"] || knowledge.HandleAPIs["cuLibraryGetKernel"] {
		t.Error("cuLibraryGetKernel is taken to load a kernel; it does not")
	}
}

// TestSpellingsCoverNames: prefilters skip files by the spellings; a name a
// rule matches must contain one of them, or a file calling it is skipped.
func TestSpellingsCoverNames(t *testing.T) {
	for name := range knowledge.Allocators {
		if !containsAny(name, knowledge.AllocatorSpellings) {
			t.Errorf("allocator %s contains none of AllocatorSpellings", name)
		}
	}
	for name := range knowledge.HostClockCalls {
		if !containsAny(name+"(", knowledge.HostClockSpellings()) {
			t.Errorf("clock %s( contains none of HostClockSpellings", name)
		}
	}
	for _, name := range knowledge.PreloadAPINames() {
		if !containsAny(name, knowledge.KernelLoadSpellings()) {
			t.Errorf("preload %s contains none of KernelLoadSpellings", name)
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestTimerFunctionSpellings: every name TimerFunction matches contains one
// of the spellings (the project step's candidate test relies on it).
func TestTimerFunctionSpellings(t *testing.T) {
	for _, name := range []string{"startTimer", "StopTimer", "start_timer", "stop_timer", "timer_start", "timerStop", "TimerBegin", "END_TIMER", "timer_end", "beginTimer"} {
		if !knowledge.TimerFunction.MatchString(name) {
			t.Fatalf("%s is no timer function", name)
		}
		if !containsAny(name+"(", knowledge.TimerFunctionSpellings()) {
			t.Errorf("%s( contains none of TimerFunctionSpellings", name)
		}
	}
}

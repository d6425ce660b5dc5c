package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProbeTraceWithoutCUPTI(t *testing.T) {
	if _, err := os.Stat("/usr/local/cuda"); err == nil {
		t.Skip("a CUDA toolkit is installed here")
	}
	t.Setenv("CUDA_HOME", t.TempDir())
	t.Setenv("CUDA_PATH", "")
	t.Setenv("PATH", t.TempDir()) // no nvcc
	code, _, errs := run(t, t.TempDir(), "probe", "trace", "--", "true")
	if code != ExitNoDriver || !strings.Contains(errs, "no CUPTI found") || !strings.Contains(errs, "probe run needs no CUPTI") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestProbeTraceReadsTraces stands in for the driver: the program writes
// the trace that the injection library would, into $LAZYLINT_TRACE_DIR.
func TestProbeTraceReadsTraces(t *testing.T) {
	rec, err := filepath.Abs("../../runtime-probe/cupti/testdata/demo_lazy.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.sh")
	body := "#!/bin/sh\n[ -n \"$CUDA_INJECTION64_PATH\" ] && [ \"$CUDA_MODULE_LOADING\" = LAZY ] && cp " + rec + " \"$LAZYLINT_TRACE_DIR/trace.$$.jsonl\"\n"
	if err := os.WriteFile(prog, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	svg, chrome := filepath.Join(dir, "t.svg"), filepath.Join(dir, "t.json")
	code, out, errs := run(t, dir, "probe", "trace", "--injection-lib", "/nonexistent/inject.so", "--svg", svg, "--trace", chrome, "--", prog)
	if code != 0 || !strings.Contains(out, "loading mode lazy, 5 launches") || !strings.Contains(out, "when waitFor(int volatile*, long long, int*) ended") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, p := range []string{svg, chrome} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
}

package ll002_test

import (
	"strings"
	"testing"

	"github.com/lazylint/lazylint/rules/ll002"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll002.Rule) }

// The suggested fix inserts a preload before the statement that starts the
// timer; the fixed code is no longer reported.
func TestPreloadFix(t *testing.T) {
	src := `__global__ void k(int *p) {}
float bench(int *p) {
  cudaEvent_t a, b;
  float ms;
  cudaEventRecord(a);
  k<<<1, 32>>>(p);
  cudaEventRecord(b);
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}
`
	got, err := ruletest.Check(ll002.Rule, "fix.cu", []byte(src))
	if err != nil || len(got) != 1 || len(got[0].Fixes) != 1 {
		t.Fatalf("findings %+v, err %v", got, err)
	}
	fixed := ruletest.ApplyFix([]byte(src), got[0].Fixes[0])
	want := "  { cudaFuncAttributes preload; cudaFuncGetAttributes(&preload, k); }  // load before timing\n  cudaEventRecord(a);"
	if !strings.Contains(string(fixed), want) {
		t.Errorf("fixed text:\n%s", fixed)
	}
	if again, _ := ruletest.Check(ll002.Rule, "fix.cu", fixed); len(again) != 0 {
		t.Errorf("still reported after the fix: %s", again[0].Message)
	}
}

// Projects of several files: launchers in a .cu timed from a .cpp, warm-ups
// in callers, a program-wide preload.
func TestProjects(t *testing.T) {
	positives, negatives := ruletest.RunProjects(t, ll002.Rule, "testdata/project")
	if positives < 5 || negatives < 5 {
		t.Errorf("%d positive and %d negative cases; want at least 5 of each", positives, negatives)
	}
}

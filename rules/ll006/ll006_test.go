package ll006_test

import (
	"strings"
	"testing"

	"github.com/lazylint/lazylint/rules/ll006"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll006.Rule) }

// The suggested fix inserts cuInit(0) on its own line before the statement
// holding the query, with that statement's indentation, and the fixed code
// is no longer reported.
func TestFixInsertsCuInit(t *testing.T) {
	const src = `#include <cuda.h>

int loading_mode(void) {
    CUmoduleLoadingMode mode;
    if (cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS)
        return -1;
    return (int)mode;
}

int main(void) {
	return loading_mode();
}
`
	const want = `#include <cuda.h>

int loading_mode(void) {
    CUmoduleLoadingMode mode;
    cuInit(0);
    if (cuModuleGetLoadingMode(&mode) != CUDA_SUCCESS)
        return -1;
    return (int)mode;
}

int main(void) {
	return loading_mode();
}
`
	got, err := ruletest.Check(ll006.Rule, "fix.c", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || len(got[0].Fixes) != 1 {
		t.Fatalf("want one finding with one fix, got %+v", got)
	}
	fixed := string(ruletest.ApplyFix([]byte(src), got[0].Fixes[0]))
	if fixed != want {
		t.Errorf("fixed text:\n%s\nwant:\n%s", fixed, want)
	}
	again, err := ruletest.Check(ll006.Rule, "fix.c", []byte(fixed))
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 0 {
		t.Errorf("the fixed text is still reported: %s", again[0].Message)
	}
	if !strings.Contains(got[0].Fixes[0].Message, "cuInit(0)") {
		t.Errorf("fix message %q does not name cuInit(0)", got[0].Fixes[0].Message)
	}
}

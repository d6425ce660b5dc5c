package engine

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/ll003"
)

// A waiter's translation unit parses the other device code it includes,
// but not a generated header of device functions past maxUnitStageBytes
// that spells neither a release nor what the waiter reads: a stage between
// a kernel and its release is not a table of thousands of wrappers.
func TestUnitSkipsLargeStageHeaders(t *testing.T) {
	unitFiles := func(stageBytes int) int {
		t.Helper()
		dir := t.TempDir()
		var stage strings.Builder
		stage.WriteString("#pragma once\n")
		for i := 0; stage.Len() < stageBytes; i++ {
			fmt.Fprintf(&stage, "__device__ __forceinline__ int wrap_%d(int x) { return x * %d + 1; }\n", i, i)
		}
		writeFiles(t, dir, map[string]string{
			"stages/spec.cuh": "#pragma once\nstruct Spec { unsigned *doorbell; };\n",
			"stages/wait.cuh": `#pragma once
#include "spec.cuh"
__device__ void wait_doorbell(Spec *s) {
  while (atomicAdd(s->doorbell, 0u) == 0u) {
  }
}
`,
			"stages/wrappers.cuh": stage.String(),
			"fused.cu": `#include "stages/wait.cuh"
#include "stages/wrappers.cuh"
__global__ void fused(Spec *s, int *out) {
  wait_doorbell(s);
  out[threadIdx.x] = wrap_1(threadIdx.x);
}
void run_fused(Spec *s, int *out, cudaStream_t stream) { fused<<<1, 32, 0, stream>>>(s, out); }
`,
		})
		var trace bytes.Buffer
		res := Run(Options{Paths: []string{dir}, Rules: []*rule.Rule{ll003.Rule}, BaseDir: dir, Trace: &trace})
		if len(res.Errors) > 0 {
			t.Fatalf("errors: %v", res.Errors)
		}
		if len(res.Findings) != 1 {
			t.Fatalf("%d findings, want the doorbell's wait", len(res.Findings))
		}
		m := regexp.MustCompile(`(?m)^unit +stages/wait\.cuh: (\d+) files$`).FindStringSubmatch(trace.String())
		if m == nil {
			t.Fatalf("no unit line for stages/wait.cuh in the trace:\n%s", trace.String())
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	small, large := unitFiles(4<<10), unitFiles(maxUnitStageBytes+1)
	if large != small-1 {
		t.Errorf("the unit has %d files with a %d-byte stage header and %d with one past %d bytes; want one fewer", small, 4<<10, large, maxUnitStageBytes)
	}
}

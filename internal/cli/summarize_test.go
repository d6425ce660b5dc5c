package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A launcher in one file, timed from another (the project step's work),
// and a file timing its own first launch.
var summarizeTree = map[string]string{
	"src/launch.cu": `__global__ void scale(float *x, int n) { x[threadIdx.x] *= 2; }
void launch_scale(float *x, int n) { scale<<<1, 32>>>(x, n); }
`,
	"src/bench.cpp": `#include <cuda_runtime.h>
void launch_scale(float *x, int n);
float bench(float *x, int n) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  launch_scale(x, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}
`,
	"tools/alone.cu": `#include <chrono>
#include <cstdio>
__global__ void fill(int *p) { p[threadIdx.x] = 1; }
int main() {
  int *p;
  cudaMalloc(&p, 128);
  auto t0 = std::chrono::steady_clock::now();
  fill<<<1, 32>>>(p);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::steady_clock::now();
  printf("%f\n", std::chrono::duration<double>(t1 - t0).count());
}
`,
}

type statsDoc struct {
	Stats struct {
		Parsed, Cached int
	} `json:"stats"`
}

// A check that reads the summaries `lazylint summarize` wrote gives the
// findings of a check without them, parsing less; and the summaries are
// only read, never written to.
func TestSummarizeThenCheck(t *testing.T) {
	dir := writeFiles(t, summarizeTree)
	summaries := filepath.Join(t.TempDir(), "summaries")
	code, cold, errs := run(t, dir, "check", "--format", "json", "--no-cache", "--no-config", "--exit-zero", ".")
	if code != 0 {
		t.Fatalf("check: exit %d\n%s", code, errs)
	}
	code, out, errs := run(t, dir, "summarize", "--no-config", "-o", summaries, ".")
	if code != 0 || !strings.Contains(out, "summarized 3 files") {
		t.Fatalf("summarize: exit %d\n%s\n%s", code, out, errs)
	}
	code, warm, errs := run(t, dir, "check", "--format", "json", "--no-cache", "--no-config", "--exit-zero", "--summaries", summaries, ".")
	if code != 0 {
		t.Fatalf("check --summaries: exit %d\n%s", code, errs)
	}
	var coldDoc, warmDoc jsonDoc
	var coldStats, warmStats statsDoc
	for _, d := range []struct {
		text string
		into any
	}{{cold, &coldDoc}, {warm, &warmDoc}, {cold, &coldStats}, {warm, &warmStats}} {
		if err := json.Unmarshal([]byte(d.text), d.into); err != nil {
			t.Fatal(err)
		}
	}
	if len(coldDoc.Findings) != 2 {
		t.Fatalf("the tree has 2 findings (one through the project), got %d: %+v", len(coldDoc.Findings), coldDoc.Findings)
	}
	if !reflect.DeepEqual(coldDoc.Findings, warmDoc.Findings) {
		t.Errorf("findings differ with summaries:\nwithout %+v\nwith    %+v", coldDoc.Findings, warmDoc.Findings)
	}
	if warmStats.Stats.Cached == 0 || warmStats.Stats.Parsed >= coldStats.Stats.Parsed {
		t.Errorf("with summaries: %d results read, %d parsed (without: %d parsed)", warmStats.Stats.Cached, warmStats.Stats.Parsed, coldStats.Stats.Parsed)
	}
	// Another configuration's settings do not match the summaries' keys:
	// nothing is read, and the findings are still right.
	code, other, _ := run(t, dir, "check", "--format", "json", "--no-cache", "--no-config", "--exit-zero", "--rule-option", "LL001.threshold=0.8", "--summaries", summaries, ".")
	var otherStats statsDoc
	if err := json.Unmarshal([]byte(other), &otherStats); err != nil || code != 0 {
		t.Fatalf("exit %d, %v", code, err)
	}
	if otherStats.Stats.Cached != 0 {
		t.Errorf("results of other settings were read: %d", otherStats.Stats.Cached)
	}
}

func TestSummarizeNeedsAFolder(t *testing.T) {
	dir := writeFiles(t, summarizeTree)
	code, _, errs := run(t, dir, "summarize", ".")
	if code != ExitFailure || !strings.Contains(errs, "-o DIR") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

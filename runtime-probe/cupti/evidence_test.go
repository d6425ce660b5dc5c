package cupti

import (
	"strings"
	"testing"
)

func TestJudge(t *testing.T) {
	lazy := parseFile(t, "testdata/demo_lazy.jsonl")
	eager := parseFile(t, "testdata/demo_eager.jsonl")
	for _, tc := range []struct {
		name, rule, text string
		declared         []string
		trace            *Trace
		want             string
		wantReason       string
	}{
		{"timed template launch", "LL002", "cudaEventRecord times the first launch of scale<float>\nscale<float><<<g, b, 0, a>>>(v, 2.0f, n);", []string{"scale"}, lazy, Confirmed, "lazily loaded it"},
		{"timed launch, eager", "LL002", "scale<<<g, b>>>(v, 2.0f, n);", []string{"scale"}, eager, NotConfirmed, "no lazy load"},
		{"spin wait, waiter named", "LL003", "waitFor spins on flag (*flag) until another kernel releases it", []string{"waitFor"}, lazy, Confirmed, "release(int volatile*) started"},
		{"spin wait, eager", "LL003", "waitFor spins on flag", []string{"waitFor"}, eager, NotConfirmed, "no kernel waited"},
		{"kernel never launched", "LL002", "unusedKernel<<<1, 1>>>(v);", []string{"unusedKernel"}, lazy, NotExercised, "never launched"},
		{"no kernel named", "LL004", "cuModuleLoad measured", nil, lazy, "", ""},
		{"all launches succeeded", "LL001", "cudaMalloc of free memory before scale", nil, lazy, NotConfirmed, "all 5 launches succeeded"},
	} {
		ev, ok := Judge(tc.rule, tc.text, tc.trace, nil, tc.declared)
		if tc.want == "" {
			if ok {
				t.Errorf("%s: got %+v, want no evidence", tc.name, ev)
			}
			continue
		}
		if !ok || ev.Status != tc.want || !strings.Contains(ev.Reason, tc.wantReason) {
			t.Errorf("%s: %+v (ok %v), want %s with %q", tc.name, ev, ok, tc.want, tc.wantReason)
		}
	}
}

func TestBaseName(t *testing.T) {
	for in, want := range map[string]string{
		"void ns::scale<float>(float*, float, int)": "scale",
		"waitFor(int volatile*, long long, int*)":   "waitFor",
		"_Z1kv": "_Z1kv",
	} {
		if got := baseName(in); got != want {
			t.Errorf("baseName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJudgeCutShortTraceSaysNothingOfKernelsNotSeen(t *testing.T) {
	tr := parseFile(t, "testdata/demo_lazy.jsonl")
	tr.Complete = false // killed at the timeout: later launches were lost
	if ev, ok := Judge("LL003", "kernel setFlag spins", tr, nil, []string{"setFlag"}); ok {
		t.Errorf("got %+v, want no evidence", ev)
	}
}

package cupti

import (
	"bytes"
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
		{"all launches succeeded", "LL001", "cudaMalloc of free memory before scale", nil, lazy, NotConfirmed, "4 launch(es) loaded their kernels lazily and all succeeded"},
	} {
		ev, ok := Judge(tc.rule, tc.text, tc.trace, nil, tc.declared, Options{})
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
	if ev, ok := Judge("LL003", "kernel setFlag spins", tr, nil, []string{"setFlag"}, Options{}); ok {
		t.Errorf("got %+v, want no evidence", ev)
	}
}

// traceOf parses JSON lines written the way inject.c writes them; times
// are in ns from 1,000,000,000 so that the base is the first line.
func traceOf(t *testing.T, lines ...string) *Trace {
	t.Helper()
	tr, err := Parse(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil || len(tr.Errors) > 0 {
		t.Fatalf("parse: %v %v", err, tr.Errors)
	}
	return tr
}

const (
	traceStart = `{"ev":"start","t0":1000000000,"pid":7,"cupti_version":26}`
	traceEnd   = `{"ev":"end","t0":1900000000}`
)

func TestJudgeWholeMemory(t *testing.T) {
	// An arena sized from free memory after two allocations that failed
	// (the program backing off), then a first launch that cannot load.
	failing := traceOf(t, traceStart,
		`{"ev":"alloc","api":"cuMemAlloc_v2","t0":1000100000,"t1":1000200000,"bytes":85000000000,"free_before":-1,"free_after":84000000000,"result":2}`,
		`{"ev":"alloc","api":"cuMemAlloc_v2","t0":1000300000,"t1":1000400000,"bytes":83900000000,"free_before":-1,"free_after":100000000,"result":0}`,
		`{"ev":"launch","api":"cuLaunchKernel","t0":1000500000,"t1":1000600000,"loaded":0,"free_before":100000000,"free_after":100000000,"result":2,"corr":5,"name":"_Z4fillPfi"}`,
		traceEnd)
	eager := traceOf(t, traceStart,
		`{"ev":"alloc","api":"cuMemAlloc_v2","t0":1000300000,"t1":1000400000,"bytes":83600000000,"free_before":-1,"free_after":100000000,"result":0}`,
		`{"ev":"launch","api":"cuLaunchKernel","t0":1000500000,"t1":1000510000,"loaded":1,"free_before":-1,"free_after":-1,"result":0,"corr":5,"name":"_Z4fillPfi"}`,
		traceEnd)
	ev, ok := Judge("LL001", "cudaMalloc takes 99% of the free memory", failing, eager, nil, Options{})
	if !ok || ev.Status != Confirmed || !strings.Contains(ev.Reason, "fill(float*, int) had to load it and failed (out of memory)") ||
		!strings.Contains(ev.Reason, "under EAGER it succeeded") || !strings.Contains(ev.Reason, "leaving 95.4 MiB free") {
		t.Errorf("failing first launch: %+v (ok %v)", ev, ok)
	}

	// cudart loads the kernel before the driver's launch: a load that fails
	// shows only as the runtime launch's error.
	runtimeOnly := traceOf(t, traceStart,
		`{"ev":"alloc","api":"cuMemAlloc_v2","t0":1000300000,"t1":1000400000,"bytes":83900000000,"free_before":-1,"free_after":4194304,"result":0}`,
		`{"ev":"launch_error","api":"cudaLaunchKernel","t0":1000500000,"tid":3,"free_after":4194304,"result":2,"name":"_Z4fillPfi"}`,
		traceEnd)
	ev, ok = Judge("LL001", "cudaMalloc takes 99% of the free memory", runtimeOnly, eager, nil, Options{})
	if !ok || ev.Status != Confirmed || !strings.Contains(ev.Reason, "cudaLaunchKernel of fill(float*, int), its first, failed (out of memory)") {
		t.Errorf("runtime launch error: %+v (ok %v)", ev, ok)
	}
	var chrome bytes.Buffer
	if err := WriteChromeTrace(&chrome, []*Trace{failing, runtimeOnly}); err != nil {
		t.Fatal(err)
	}
	if cats := checkTraceEventFormat(t, chrome.Bytes()); cats["alloc"] != 3 || cats["launch-error"] != 1 {
		t.Errorf("chrome trace categories %v", cats)
	}

	// The same arena, but every kernel was preloaded before it: the
	// launches after it do not load, and say nothing.
	preloaded := traceOf(t, traceStart,
		`{"ev":"alloc","api":"cuMemAlloc_v2","t0":1000300000,"t1":1000400000,"bytes":83900000000,"free_before":-1,"free_after":100000000,"result":0}`,
		`{"ev":"launch","api":"cuLaunchKernel","t0":1000500000,"t1":1000510000,"loaded":1,"free_before":-1,"free_after":-1,"result":0,"corr":5,"name":"_Z4fillPfi"}`,
		traceEnd)
	if ev, ok := Judge("LL001", "cudaMalloc takes 99% of the free memory", preloaded, nil, nil, Options{}); !ok || ev.Status != NotExercised {
		t.Errorf("preloaded: %+v (ok %v), want not-exercised", ev, ok)
	}
	// No allocation recorded (e.g. a trace of another process): nothing.
	noAlloc := traceOf(t, traceStart, traceEnd)
	if ev, ok := Judge("LL001", "cudaMalloc takes 99%", noAlloc, nil, nil, Options{}); ok {
		t.Errorf("no allocation: %+v, want no evidence", ev)
	}
}

func TestJudgeModuleFigure(t *testing.T) {
	lazy := traceOf(t, traceStart,
		`{"ev":"module_call","api":"cuModuleLoad","t0":1000100000,"t1":1000150000,"free_before":5000000000,"free_after":5000000000,"result":0}`,
		`{"ev":"overhead","overhead_kind":327680,"t0":1000300000,"t1":1000500000,"corr":9}`,
		`{"ev":"launch","api":"cuLaunchKernel","t0":1000300000,"t1":1000510000,"loaded":0,"free_before":5000000000,"free_after":4997902848,"result":0,"corr":9,"name":"_Z3addPf"}`,
		traceEnd)
	eager := traceOf(t, traceStart,
		`{"ev":"module_call","api":"cuModuleLoad","t0":1000100000,"t1":1003100000,"free_before":5000000000,"free_after":4995805696,"result":0}`,
		traceEnd)
	text := "device memory is measured around cuModuleLoad as if the load put the module on the device"
	ev, ok := Judge("LL004", text, lazy, eager, nil, Options{})
	if !ok || ev.Status != Confirmed || !strings.Contains(ev.Reason, "cuModuleLoad took 50.0 µs and 0 B under LAZY, 3.00 ms and 4.0 MiB under EAGER") ||
		!strings.Contains(ev.Reason, "1 kernel(s) loaded later") {
		t.Errorf("with EAGER: %+v (ok %v)", ev, ok)
	}
	ev, ok = Judge("LL004", text, lazy, nil, nil, Options{})
	if !ok || ev.Status != Confirmed || !strings.Contains(ev.Reason, "taking 2.0 MiB more") {
		t.Errorf("LAZY alone: %+v (ok %v)", ev, ok)
	}
	// EAGER figures that agree: a module whose kernels were loaded by the
	// call in both modes (e.g. cuModuleLoad followed by cuFuncLoad).
	if ev, ok := Judge("LL004", text, eager, eager, nil, Options{}); !ok || ev.Status != NotConfirmed || !strings.Contains(ev.Reason, "the figures agree") {
		t.Errorf("agreeing figures: %+v (ok %v)", ev, ok)
	}
	// The text names another loader than the trace holds: nothing.
	if ev, ok := Judge("LL004", "cuLibraryLoadData measured", lazy, eager, nil, Options{}); ok {
		t.Errorf("other loader: %+v, want no evidence", ev)
	}
}

func TestJudgeTimedFirstLaunchWithoutLoadRecord(t *testing.T) {
	launches := func(first string) *Trace {
		return traceOf(t, traceStart,
			`{"ev":"launch","api":"cuLaunchKernel","t0":1000100000,"t1":`+first+`,"loaded":1,"free_before":-1,"free_after":-1,"result":0,"corr":1,"name":"_Z5scalePf"}`,
			`{"ev":"launch","api":"cuLaunchKernel","t0":1002000000,"t1":1002008000,"loaded":1,"free_before":-1,"free_after":-1,"result":0,"corr":2,"name":"_Z5scalePf"}`,
			`{"ev":"launch","api":"cuLaunchKernel","t0":1003000000,"t1":1003008000,"loaded":1,"free_before":-1,"free_after":-1,"result":0,"corr":3,"name":"_Z5scalePf"}`,
			traceEnd)
	}
	lazy, eager := launches("1001100000"), launches("1000147000") // 1 ms vs 47 µs
	if ev, ok := Judge("LL002", "scale<<<g, b>>>(v);", lazy, eager, []string{"scale"}, Options{Slowdown: 2}); !ok || ev.Status != Confirmed {
		t.Errorf("1 ms first launch vs 47 µs under EAGER: %+v (ok %v)", ev, ok)
	}
	// Without the EAGER run a slow first launch is no evidence: first
	// launches are slower in both modes.
	if ev, ok := Judge("LL002", "scale<<<g, b>>>(v);", lazy, nil, []string{"scale"}, Options{Slowdown: 2}); !ok || ev.Status != NotConfirmed {
		t.Errorf("LAZY alone: %+v (ok %v)", ev, ok)
	}
	if ev, ok := Judge("LL002", "scale<<<g, b>>>(v);", eager, eager, []string{"scale"}, Options{Slowdown: 2}); !ok || ev.Status != NotConfirmed {
		t.Errorf("same in both modes: %+v (ok %v)", ev, ok)
	}
}

// testdata/arena_*.jsonl and module_*.jsonl were recorded on an H100
// (driver 580, CUDA 13.0) with inject.c on testdata/gpu/real_arena.cu and
// real_module.cu (with ll004_module.cubin), by gpu-check.sh's runs.
func TestJudgeRecordedMemoryTraces(t *testing.T) {
	arenaLazy, arenaEager := parseFile(t, "testdata/arena_lazy.jsonl"), parseFile(t, "testdata/arena_eager.jsonl")
	ev, ok := Judge("LL001", "cudaMalloc takes all of the free memory", arenaLazy, arenaEager, nil, Options{})
	if !ok || ev.Status != Confirmed || !strings.Contains(ev.Reason, "normalize(float*, unsigned long) had to load it and failed (out of memory)") ||
		!strings.Contains(ev.Reason, "under EAGER it succeeded") {
		t.Errorf("arena: %+v (ok %v)", ev, ok)
	}
	// The EAGER run taken for a LAZY one: the kernel was loaded before the
	// arena, its launch succeeded, and nothing confirms.
	if ev, ok := Judge("LL001", "cudaMalloc takes all of the free memory", arenaEager, nil, nil, Options{}); !ok || ev.Status == Confirmed {
		t.Errorf("arena under EAGER: %+v (ok %v), want no confirmation", ev, ok)
	}

	moduleLazy, moduleEager := parseFile(t, "testdata/module_lazy.jsonl"), parseFile(t, "testdata/module_eager.jsonl")
	text := "device memory is measured around cuModuleLoad as if the load put the module on the device"
	ev, ok = Judge("LL004", text, moduleLazy, moduleEager, nil, Options{})
	if !ok || ev.Status != Confirmed || !strings.Contains(ev.Reason, "and 0 B under LAZY") || !strings.Contains(ev.Reason, "and 4.0 MiB under EAGER") {
		t.Errorf("module: %+v (ok %v)", ev, ok)
	}
	if ev, ok := Judge("LL004", text, moduleEager, moduleEager, nil, Options{}); !ok || ev.Status != NotConfirmed {
		t.Errorf("module, EAGER against itself: %+v (ok %v), want not-confirmed", ev, ok)
	}
}

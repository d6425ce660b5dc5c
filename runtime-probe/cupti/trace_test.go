package cupti

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, path string) *Trace {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// testdata/demo_*.jsonl were recorded on an H100 (driver 580, CUDA 13.0)
// with inject.c on testdata/gpu/trace/trace_demo.cu, run with "never".
func TestParseLazyDemo(t *testing.T) {
	tr := parseFile(t, "testdata/demo_lazy.jsonl")
	if tr.LoadingMode != "lazy" || !tr.Complete || len(tr.Errors) > 0 || len(tr.Launches) != 5 {
		t.Fatalf("trace = mode %q complete %v errors %v, %d launches", tr.LoadingMode, tr.Complete, tr.Errors, len(tr.Launches))
	}
	byName := map[string][]Launch{}
	for _, l := range tr.Launches {
		byName[shortName(l.Kernel)] = append(byName[shortName(l.Kernel)], l)
	}
	// Template arguments survive demangling.
	sc := byName["void scale<float>"]
	if len(sc) != 2 || sc[0].Load == nil || sc[1].Load != nil || !sc[0].First || sc[1].First {
		t.Fatalf("scale<float> launches = %+v", sc)
	}
	for _, k := range []string{"waitFor", "release", "neverRuns"} {
		ls := byName[k]
		if len(ls) != 1 || ls[0].Load == nil || ls[0].Run == nil {
			t.Errorf("%s: %+v", k, ls)
		}
	}
	// The releaser's kernel waited for the waiter (its watchdog ended it).
	rel := byName["release"][0]
	if !strings.HasPrefix(rel.WaitedOn, "waitFor") || rel.WaitNS < 900_000_000 {
		t.Errorf("release waited on %q for %d ns, want waitFor, about 1 s", rel.WaitedOn, rel.WaitNS)
	}
	if w := byName["waitFor"][0].WaitedOn; w != "" {
		t.Errorf("waitFor waited on %q", w)
	}
	ks := tr.Kernels()
	if len(ks) != 4 || ks[0].Launches != 2 || ks[0].LaterRunNS == 0 {
		t.Errorf("kernels = %+v", ks)
	}
}

func TestParseEagerDemo(t *testing.T) {
	tr := parseFile(t, "testdata/demo_eager.jsonl")
	if tr.LoadingMode != "eager" || len(tr.Modules) != 1 || tr.Modules[0].CubinBytes == 0 {
		t.Fatalf("mode %q modules %+v", tr.LoadingMode, tr.Modules)
	}
	for _, l := range tr.Launches {
		if l.Load != nil || l.WaitedOn != "" {
			t.Errorf("%s: load %v, waited on %q under eager loading", l.Kernel, l.Load, l.WaitedOn)
		}
	}
}

func TestParseBadLinesAndCutShort(t *testing.T) {
	in := `{"ev":"start","t0":100,"pid":7,"cupti_version":130001}
not json
{"ev":"launch","api":"cuLaunchKernel","t0":200,"t1":300,"tid":7,"ctx":1,"stream":3,"corr":2,"loaded":1,"result":2,"name":"_Z1kv"}
{"ev":"launch","api":"cuLaunchKernel","t0":400,"t1":`
	tr, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Complete || len(tr.Launches) != 1 || tr.Launches[0].Result != 2 || len(tr.Errors) != 2 {
		t.Fatalf("trace = %+v", tr)
	}
	var table bytes.Buffer
	WriteTable(&table, tr)
	if !strings.Contains(table.String(), "1 launch(es) failed") || !strings.Contains(table.String(), "did not end normally") {
		t.Errorf("table:\n%s", table.String())
	}
}

func TestWriters(t *testing.T) {
	tr := parseFile(t, "testdata/demo_lazy.jsonl")
	var table, chrome, svg bytes.Buffer
	WriteTable(&table, tr)
	for _, want := range []string{"void scale<float>(float*, float, int)", "when waitFor(int volatile*, long long, int*) ended"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	if err := WriteChromeTrace(&chrome, []*Trace{tr}); err != nil {
		t.Fatal(err)
	}
	cats := checkTraceEventFormat(t, chrome.Bytes())
	if cats["launch"] != 5 || cats["lazy-load"] != 4 || cats["kernel"] != 5 {
		t.Errorf("chrome trace categories = %v", cats)
	}
	if err := WriteSVG(&svg, tr); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	if !strings.HasPrefix(s, "<svg") || strings.Count(s, "#e04040") != 2 || !strings.Contains(s, "stream") {
		t.Errorf("svg: %d red bars, want the release kernel and the legend", strings.Count(s, "#e04040"))
	}
	if os.Getenv("LAZYLINT_WRITE_SVG") != "" {
		_ = os.WriteFile(os.Getenv("LAZYLINT_WRITE_SVG"), svg.Bytes(), 0o644)
	}
}

// checkTraceEventFormat checks the JSON against the Trace Event Format as
// its documentation states it and Perfetto's JSON importer reads it: an
// object with a traceEvents array; each event with a name, a phase, a
// numeric ts and integer pid and tid; complete events (X) with a
// non-negative dur; instant events (i) with a scope; metadata events (M)
// naming processes and threads, and every lane that holds events named. It
// returns the count of events per category.
func checkTraceEventFormat(t *testing.T, data []byte) map[string]int {
	t.Helper()
	var doc struct {
		TraceEvents []map[string]any `json:"traceEvents"`
		Unit        string           `json:"displayTimeUnit"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Unit != "ns" && doc.Unit != "ms" {
		t.Errorf("displayTimeUnit %q", doc.Unit)
	}
	integer := func(v any) bool { f, ok := v.(float64); return ok && f == float64(int64(f)) && f >= 0 }
	named := map[[2]float64]bool{}
	used := map[[2]float64]bool{}
	cats := map[string]int{}
	for i, e := range doc.TraceEvents {
		name, _ := e["name"].(string)
		ph, _ := e["ph"].(string)
		_, tsOK := e["ts"].(float64)
		if name == "" || !tsOK || !integer(e["pid"]) || !integer(e["tid"]) {
			t.Errorf("event %d lacks a name, a numeric ts or integer pid/tid: %v", i, e)
			continue
		}
		pid, _ := e["pid"].(float64)
		tid, _ := e["tid"].(float64)
		lane := [2]float64{pid, tid}
		switch ph {
		case "X":
			if d, ok := e["dur"].(float64); !ok || d < 0 {
				t.Errorf("complete event %d without a duration: %v", i, e)
			}
			used[lane] = true
		case "i":
			if s, _ := e["s"].(string); s != "t" && s != "p" && s != "g" {
				t.Errorf("instant event %d without a scope: %v", i, e)
			}
			used[lane] = true
		case "M":
			args, _ := e["args"].(map[string]any)
			switch name {
			case "thread_name", "process_name":
				if n, _ := args["name"].(string); n == "" {
					t.Errorf("metadata event %d without a name: %v", i, e)
				}
				if name == "thread_name" {
					named[lane] = true
				}
			case "thread_sort_index":
				if !integer(args["sort_index"]) {
					t.Errorf("sort index %d is not an integer: %v", i, e)
				}
			default:
				t.Errorf("unknown metadata event %d: %v", i, e)
			}
		default:
			t.Errorf("event %d: phase %q", i, ph)
		}
		if c, _ := e["cat"].(string); c != "" {
			cats[c]++
		}
	}
	for lane := range used {
		if !named[lane] {
			t.Errorf("lane pid %v tid %v has events but no thread_name", lane[0], lane[1])
		}
	}
	return cats
}

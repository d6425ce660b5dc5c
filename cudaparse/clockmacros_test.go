package cudaparse

import (
	"slices"
	"testing"
)

func TestAnalyzeClockMacro(t *testing.T) {
	table := MacroTable{}
	defs := map[string]string{
		"MEASURE(stmt, ms)": "do { cudaEventRecord(a, 0); stmt; cudaEventRecord(b, 0); cudaEventElapsedTime(&(ms), a, b); } while (0)",
		"BEGIN()":           "cudaEventRecord(a, 0)",
		"ELAPSED(p)":        "cudaEventElapsedTime((p), a, b);",
		"STAMP(t)":          "auto t = std::chrono::steady_clock::now()",
		"TIMEIT(x)":         "MEASURE(x, g_ms)",
		"WALL()":            "omp_get_wtime()",
		"LOG(m)":            "fprintf(stderr, \"%s\", m)",
		"SPAN(a, b)":        "((b) - (a))",
	}
	for head, body := range defs {
		m, ok := parseDefine([]byte(head + " " + body))
		if !ok {
			t.Fatalf("parseDefine(%q) failed", head)
		}
		table.Add(m)
	}
	for _, tc := range []struct {
		name                  string
		ok, records, host, el bool
		timedParam            int
		events                []string
	}{
		{"MEASURE", true, true, false, true, 0, []string{"a", "b"}},
		{"BEGIN", true, true, false, false, -1, nil},
		{"ELAPSED", true, false, false, true, -1, []string{"a", "b"}},
		{"STAMP", true, false, true, false, -1, nil},
		{"TIMEIT", true, true, false, true, -1, []string{"a", "b"}}, // one read (MEASURE): times nothing around x by itself
		{"WALL", true, false, true, false, -1, nil},
		{"LOG", false, false, false, false, -1, nil},
		{"SPAN", false, false, false, false, -1, nil},
	} {
		cm, ok := analyzeClockMacro(table[tc.name][0], table)
		if ok != tc.ok || cm.records != tc.records || cm.host != tc.host || cm.elapsed != tc.el || cm.timedParam != tc.timedParam || !slices.Equal(cm.elapsedEvents, tc.events) {
			t.Errorf("%s: got ok=%v %+v, want ok=%v records=%v host=%v elapsed=%v timedParam=%d events=%v",
				tc.name, ok, cm, tc.ok, tc.records, tc.host, tc.el, tc.timedParam, tc.events)
		}
	}
}

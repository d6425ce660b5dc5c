package cupti

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

func usText(ns int64) string {
	switch {
	case ns >= 1_000_000_000:
		return fmt.Sprintf("%.2f s", float64(ns)/1e9)
	case ns >= 1_000_000:
		return fmt.Sprintf("%.2f ms", float64(ns)/1e6)
	}
	return fmt.Sprintf("%.1f µs", float64(ns)/1e3)
}

// maxFailedAllocs is how many failed allocations the table lists: a
// back-off loop can fail thousands of times.
const maxFailedAllocs = 5

// WriteTable writes one row per kernel: launches, the lazy load, the first
// and later GPU times, and what the kernel waited on.
func WriteTable(w io.Writer, t *Trace) {
	fmt.Fprintf(w, "pid %d, loading mode %s, %d launches", t.PID, t.LoadingMode, len(t.Launches))
	if !t.Complete {
		fmt.Fprint(w, " (the process did not end normally: the trace may be cut short)")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "first at\tlaunches\tlazy load\tfirst run\tlater runs\tnote\tkernel")
	for _, k := range t.Kernels() {
		load, first, later := "-", "-", "-"
		if k.Load != nil {
			load = usText(k.Load.Dur())
		}
		if k.FirstRunNS > 0 {
			first = usText(k.FirstRunNS)
		}
		if k.LaterRunNS > 0 {
			later = usText(k.LaterRunNS)
		}
		var notes []string
		if k.WaitedOn != "" {
			notes = append(notes, fmt.Sprintf("started %s after its launch, when %s ended", usText(k.WaitNS), k.WaitedOn))
		}
		if k.Failed > 0 {
			notes = append(notes, fmt.Sprintf("%d launch(es) failed", k.Failed))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", usText(k.FirstAt), k.Launches, load, first, later, strings.Join(notes, "; "), k.Kernel)
	}
	_ = tw.Flush()
	for _, m := range t.Modules {
		fmt.Fprintf(w, "module %d loaded at %s (%d bytes of cubin)\n", m.ID, usText(m.At), m.CubinBytes)
	}
	for _, e := range t.LaunchErrors {
		fmt.Fprintf(w, "%s of %s failed at %s (cudaError %d)\n", e.API, e.Kernel, usText(e.At), e.Result)
	}
	for _, m := range t.ModuleCalls {
		fmt.Fprintf(w, "%s at %s took %s", m.API, usText(m.Call.Start), usText(m.Call.Dur()))
		if m.FreeBefore >= 0 && m.FreeAfter >= 0 {
			fmt.Fprintf(w, " and %s of device memory", BytesText(m.Taken()))
		}
		if m.Result != 0 {
			fmt.Fprintf(w, " and failed (CUresult %d)", m.Result)
		}
		fmt.Fprintln(w)
	}
	// The allocation that left the least free memory (the one a
	// whole-memory hazard is about) and the failed ones.
	least := -1
	for i, a := range t.Allocs {
		if a.Result == 0 && a.FreeAfter >= 0 && (least < 0 || a.FreeAfter < t.Allocs[least].FreeAfter) {
			least = i
		}
	}
	failed := 0
	for i, a := range t.Allocs {
		switch {
		case a.Result != 0:
			if failed++; failed > maxFailedAllocs {
				continue
			}
			fmt.Fprintf(w, "%s of %s failed at %s (CUresult %d)\n", orAlloc(a.API), BytesText(int64(a.Bytes)), usText(a.Call.Start), a.Result)
		case i == least:
			fmt.Fprintf(w, "%s of %s at %s left the least free memory: %s\n", orAlloc(a.API), BytesText(int64(a.Bytes)), usText(a.Call.Start), BytesText(a.FreeAfter))
		}
	}
	if failed > maxFailedAllocs {
		fmt.Fprintf(w, "(%d more allocations failed)\n", failed-maxFailedAllocs)
	}
	if t.Dropped > 0 {
		fmt.Fprintf(w, "warning: CUPTI dropped %d activity records\n", t.Dropped)
	}
	for _, e := range t.Errors {
		fmt.Fprintf(w, "trace error: %s\n", e)
	}
}

// chromeEvent is one event of the Trace Event Format (the JSON that
// Perfetto and chrome://tracing open); times in µs. pid and tid are
// numbers, as the format's documentation and Perfetto's importer expect;
// lanes get their names from thread_name metadata events.
type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	TS   float64        `json:"ts"`
	Dur  *float64       `json:"dur,omitempty"`
	PID  int            `json:"pid"`
	TID  int            `json:"tid"`
	S    string         `json:"s,omitempty"` // scope of an instant event
	Args map[string]any `json:"args,omitempty"`
}

// WriteChromeTrace writes the traces as Trace Event Format events: host
// threads carry the launch calls, lazy loads, allocations and module
// loads; streams carry the kernels' GPU runs. Each lane is a numbered
// thread of its process, named by a metadata event.
func WriteChromeTrace(w io.Writer, traces []*Trace) error {
	var evs, meta []chromeEvent
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	span := func(iv Interval) *float64 { d := us(iv.Dur()); return &d }
	for _, t := range traces {
		lanes := map[string]int{}
		lane := func(name string, order int) int {
			if id, ok := lanes[name]; ok {
				return id
			}
			id := len(lanes) + 1
			lanes[name] = id
			meta = append(meta,
				chromeEvent{Name: "thread_name", Ph: "M", PID: t.PID, TID: id, Args: map[string]any{"name": name}},
				chromeEvent{Name: "thread_sort_index", Ph: "M", PID: t.PID, TID: id, Args: map[string]any{"sort_index": order*1000 + id}})
			return id
		}
		host := func(thread int64) int { return lane(fmt.Sprintf("host thread %d", thread), 0) }
		meta = append(meta, chromeEvent{Name: "process_name", Ph: "M", PID: t.PID, Args: map[string]any{"name": fmt.Sprintf("pid %d (%s loading)", t.PID, t.LoadingMode)}})
		for _, l := range t.Launches {
			args := map[string]any{"stream": l.Stream, "correlation": l.Correlation}
			if l.Result != 0 {
				args["result"] = l.Result
			}
			if l.WaitedOn != "" {
				args["waited_on"] = l.WaitedOn
			}
			tid := host(l.Thread)
			evs = append(evs, chromeEvent{Name: l.API + " " + l.Kernel, Cat: "launch", Ph: "X", TS: us(l.Call.Start), Dur: span(l.Call), PID: t.PID, TID: tid, Args: args})
			if l.Load != nil {
				evs = append(evs, chromeEvent{Name: "lazy load " + l.Kernel, Cat: "lazy-load", Ph: "X", TS: us(l.Load.Start), Dur: span(*l.Load), PID: t.PID, TID: tid})
			}
			if l.Run != nil {
				evs = append(evs, chromeEvent{Name: l.Kernel, Cat: "kernel", Ph: "X", TS: us(l.Run.Start), Dur: span(*l.Run), PID: t.PID, TID: lane(fmt.Sprintf("stream %d", l.Stream), 1), Args: args})
			}
		}
		for _, m := range t.ModuleCalls {
			args := map[string]any{"result": m.Result}
			if m.FreeBefore >= 0 && m.FreeAfter >= 0 {
				args["device_memory_taken"] = BytesText(m.Taken())
			}
			evs = append(evs, chromeEvent{Name: m.API, Cat: "module", Ph: "X", TS: us(m.Call.Start), Dur: span(m.Call), PID: t.PID, TID: host(m.Thread), Args: args})
		}
		for _, a := range t.Allocs {
			args := map[string]any{"bytes": a.Bytes, "result": a.Result}
			if a.FreeAfter >= 0 {
				args["free_after"] = BytesText(a.FreeAfter)
			}
			evs = append(evs, chromeEvent{Name: orAlloc(a.API) + " " + BytesText(int64(a.Bytes)), Cat: "alloc", Ph: "X", TS: us(a.Call.Start), Dur: span(a.Call), PID: t.PID, TID: lane("allocations", 2), Args: args})
		}
		for _, e := range t.LaunchErrors {
			evs = append(evs, chromeEvent{Name: e.API + " failed: " + e.Kernel, Cat: "launch-error", Ph: "i", S: "t", TS: us(e.At), PID: t.PID, TID: host(e.Thread), Args: map[string]any{"result": e.Result}})
		}
		for _, m := range t.Modules {
			evs = append(evs, chromeEvent{Name: fmt.Sprintf("module %d loaded", m.ID), Cat: "module", Ph: "i", S: "t", TS: us(m.At), PID: t.PID, TID: lane("modules", 3)})
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].TS < evs[j].TS })
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(struct {
		TraceEvents     []chromeEvent `json:"traceEvents"`
		DisplayTimeUnit string        `json:"displayTimeUnit"`
	}{append(meta, evs...), "ns"})
}

// timeAxis maps trace times to x positions, not to scale: the stretch
// between two consecutive event boundaries gets a width that grows with the
// log of its length, so a 20 µs lazy load stays visible next to a
// one-second spin wait, and order is kept.
type timeAxis struct {
	bounds []int64   // sorted distinct event boundaries
	xs     []float64 // x of each boundary
}

func newTimeAxis(ivs []Interval, width float64) *timeAxis {
	set := map[int64]bool{}
	for _, iv := range ivs {
		set[iv.Start], set[iv.End] = true, true
	}
	a := &timeAxis{}
	for t := range set {
		a.bounds = append(a.bounds, t)
	}
	sort.Slice(a.bounds, func(i, j int) bool { return a.bounds[i] < a.bounds[j] })
	weights := make([]float64, len(a.bounds))
	total := 0.0
	for i := 1; i < len(a.bounds); i++ {
		weights[i] = 1 + math.Log2(1+float64(a.bounds[i]-a.bounds[i-1])/1000)
		total += weights[i]
	}
	x := 0.0
	for i := range a.bounds {
		if total > 0 {
			x += weights[i] / total * width
		}
		a.xs = append(a.xs, x)
	}
	return a
}

// x returns the position of time ns.
func (a *timeAxis) x(ns int64) float64 {
	i := sort.Search(len(a.bounds), func(i int) bool { return a.bounds[i] >= ns })
	switch {
	case len(a.bounds) == 0:
		return 0
	case i == len(a.bounds):
		return a.xs[len(a.xs)-1]
	case a.bounds[i] == ns || i == 0:
		return a.xs[i]
	}
	f := float64(ns-a.bounds[i-1]) / float64(a.bounds[i]-a.bounds[i-1])
	return a.xs[i-1] + f*(a.xs[i]-a.xs[i-1])
}

// WriteSVG draws a timeline: one row per host thread (launch calls, lazy
// loads in orange) and one per stream (kernel runs); a kernel that waited
// for a kernel on another stream is red, with an arrow from that kernel's
// end, and its load is outlined in red.
func WriteSVG(w io.Writer, t *Trace) error {
	const left, width, rowH, top = 170.0, 1000.0, 34.0, 40.0
	type row struct {
		label string
		key   string
	}
	var rows []row
	rowOf := map[string]int{}
	addRow := func(key, label string) int {
		if i, ok := rowOf[key]; ok {
			return i
		}
		rowOf[key] = len(rows)
		rows = append(rows, row{label, key})
		return len(rows) - 1
	}
	var ivs []Interval
	for _, l := range t.Launches {
		addRow(fmt.Sprint("h", l.Thread), fmt.Sprintf("host thread %d", l.Thread))
		ivs = append(ivs, l.Call)
		if l.Load != nil {
			ivs = append(ivs, *l.Load)
		}
	}
	for _, l := range t.Launches {
		if l.Run != nil {
			addRow(fmt.Sprint("s", l.Stream), fmt.Sprintf("stream %d (GPU)", l.Stream))
			ivs = append(ivs, *l.Run)
		}
	}
	allocs, modules := svgMemoryCalls(t)
	if len(allocs)+len(modules) > 0 {
		addRow("m", "memory, modules")
	}
	for _, a := range allocs {
		ivs = append(ivs, a.Call)
	}
	for _, m := range modules {
		ivs = append(ivs, m.Call)
	}
	for _, e := range t.LaunchErrors {
		ivs = append(ivs, Interval{e.At, e.At})
	}
	if len(ivs) == 0 {
		ivs = []Interval{{0, 1}}
	}
	ax := newTimeAxis(ivs, width)
	height := top + rowH*float64(len(rows)) + 80
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", left+width+120, height)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(w, `<text x="10" y="18" font-size="13">lazylint probe trace: pid %d, loading mode %s, %d launches (time axis not to scale: each stretch between events is as wide as the log of its length)</text>`+"\n", t.PID, html.EscapeString(t.LoadingMode), len(t.Launches))
	for i, r := range rows {
		y := top + rowH*float64(i)
		fmt.Fprintf(w, `<rect x="%.0f" y="%.1f" width="%.0f" height="%.1f" fill="%s"/>`+"\n", left, y, width, rowH, []string{"#f4f4f4", "#ffffff"}[i%2])
		fmt.Fprintf(w, `<text x="10" y="%.1f">%s</text>`+"\n", y+rowH/2+4, html.EscapeString(r.label))
	}
	// Time ticks at event boundaries, at least 70 px apart.
	lastX := -1e9
	for i, b := range ax.bounds {
		x := left + ax.xs[i]
		if x-lastX < 70 {
			continue
		}
		lastX = x
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ccc" stroke-dasharray="2,3"/>`+"\n", x, top, x, top+rowH*float64(len(rows)))
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="#777" text-anchor="middle" font-size="9">%.3f ms</text>`+"\n", x, top+rowH*float64(len(rows))+12, float64(b)/1e6)
	}
	bar := func(iv Interval, rowIdx int, inset float64, fill, stroke, title string) {
		x0, x1 := left+ax.x(iv.Start), left+ax.x(iv.End)
		y := top + rowH*float64(rowIdx) + inset
		fmt.Fprintf(w, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s" stroke="%s"><title>%s</title></rect>`+"\n",
			x0, y, max(x1-x0, 2), rowH-2*inset, fill, stroke, html.EscapeString(title))
	}
	labelled := map[string]bool{}
	for _, l := range t.Launches {
		h := rowOf[fmt.Sprint("h", l.Thread)]
		fill := "#7aa6da"
		if l.Result != 0 {
			fill = "#000"
		}
		title := fmt.Sprintf("%s %s: %s", l.API, l.Kernel, usText(l.Call.Dur()))
		if l.Result != 0 {
			title += fmt.Sprintf(", failed (CUresult %d)", l.Result)
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="10">%s failed</text>`+"\n", left+ax.x(l.Call.Start)+2, top+rowH*float64(h)+rowH-1, html.EscapeString(shortName(l.Kernel)))
		}
		bar(l.Call, h, 8, fill, "none", title)
		if l.Load != nil {
			stroke := "none"
			if l.WaitedOn != "" {
				stroke = "#d00"
			}
			bar(*l.Load, h, 4, "#f0a030", stroke, fmt.Sprintf("lazy load of %s: %s", l.Kernel, usText(l.Load.Dur())))
		}
		if l.Run == nil {
			continue
		}
		s := rowOf[fmt.Sprint("s", l.Stream)]
		fill = "#6cbf6c"
		title = fmt.Sprintf("%s ran %s", l.Kernel, usText(l.Run.Dur()))
		if l.WaitedOn != "" {
			fill = "#e04040"
			title += fmt.Sprintf("; started %s after its launch, when %s ended", usText(l.WaitNS), l.WaitedOn)
			// An arrow from the launch's end to the kernel's start.
			fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#d00" stroke-width="1.5" stroke-dasharray="4,2"/>`+"\n",
				left+ax.x(l.Call.End), top+rowH*float64(h)+rowH/2, left+ax.x(l.Run.Start), top+rowH*float64(s)+rowH/2)
		}
		bar(*l.Run, s, 6, fill, "none", title)
		name := shortName(l.Kernel)
		if !labelled[fmt.Sprint(l.Stream, name)] {
			labelled[fmt.Sprint(l.Stream, name)] = true
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="10">%s</text>`+"\n", left+ax.x(l.Run.Start)+2, top+rowH*float64(s)+rowH-1, html.EscapeString(name))
		}
	}
	if mrow, ok := rowOf["m"]; ok {
		least := -1
		for i, a := range allocs {
			if a.Result == 0 && a.FreeAfter >= 0 && (least < 0 || a.FreeAfter < allocs[least].FreeAfter) {
				least = i
			}
		}
		if least >= 0 {
			a := allocs[least]
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="10">%s, %s left</text>`+"\n", left+ax.x(a.Call.Start)+2, top+rowH*float64(mrow)+rowH-1, BytesText(int64(a.Bytes)), BytesText(a.FreeAfter))
		}
		for _, a := range allocs {
			fill, title := "#9b7fd0", fmt.Sprintf("%s of %s: %s, left %s free", orAlloc(a.API), BytesText(int64(a.Bytes)), usText(a.Call.Dur()), BytesText(a.FreeAfter))
			if a.Result != 0 {
				fill, title = "#bbbbbb", fmt.Sprintf("%s of %s failed (CUresult %d)", orAlloc(a.API), BytesText(int64(a.Bytes)), a.Result)
			}
			bar(a.Call, mrow, 8, fill, "none", title)
		}
		for _, m := range modules {
			bar(m.Call, mrow, 5, "#3fb0b0", "none", fmt.Sprintf("%s: %s, %s of device memory", m.API, usText(m.Call.Dur()), BytesText(m.Taken())))
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" font-size="10">%s</text>`+"\n", left+ax.x(m.Call.Start)+2, top+rowH*float64(mrow)+rowH-1, html.EscapeString(fmt.Sprintf("%s %s, %s", m.API, usText(m.Call.Dur()), BytesText(m.Taken()))))
		}
	}
	for _, e := range t.LaunchErrors {
		h, ok := rowOf[fmt.Sprint("h", e.Thread)]
		if !ok {
			continue
		}
		x := left + ax.x(e.At)
		y := top + rowH*float64(h)
		fmt.Fprintf(w, `<path d="M%.1f %.1f l5 9 l-10 0 z" fill="#d00"><title>%s</title></path>`+"\n", x, y+1, html.EscapeString(fmt.Sprintf("%s of %s failed (cudaError %d)", e.API, e.Kernel, e.Result)))
	}
	ly := top + rowH*float64(len(rows)) + 32
	legend := []struct{ fill, text string }{{"#7aa6da", "launch call (host)"}, {"#f0a030", "lazy load"}, {"#6cbf6c", "kernel run (GPU)"}, {"#e04040", "kernel that waited for another stream's kernel (load blocked)"}}
	if len(allocs)+len(modules)+len(t.LaunchErrors) > 0 {
		legend = append(legend, []struct{ fill, text string }{{"#000", "failed launch"}, {"#9b7fd0", "allocation"}, {"#bbbbbb", "failed allocation"}, {"#3fb0b0", "module load"}}...)
	}
	for i, it := range legend {
		x := left + float64(i%4)*190
		y := ly + float64(i/4)*18
		fmt.Fprintf(w, `<rect x="%.0f" y="%.0f" width="12" height="12" fill="%s"/><text x="%.0f" y="%.0f">%s</text>`+"\n", x, y, it.fill, x+16, y+10, it.text)
	}
	_, err := fmt.Fprintln(w, "</svg>")
	return err
}

// svgMemoryCalls picks what the timeline shows of a trace's memory:
// allocations of at least 64 MiB or that failed, and module loads, the
// first svgMaxCalls of each (a back-off loop can fail thousands of times).
func svgMemoryCalls(t *Trace) (allocs []Alloc, modules []ModuleCall) {
	const svgMaxCalls = 20
	for _, a := range t.Allocs {
		if len(allocs) < svgMaxCalls && (a.Bytes >= 64<<20 || a.Result != 0) {
			allocs = append(allocs, a)
		}
	}
	if len(t.ModuleCalls) > svgMaxCalls {
		return allocs, t.ModuleCalls[:svgMaxCalls]
	}
	return allocs, t.ModuleCalls
}

// shortName is a kernel's name without its parameter list, for labels.
func shortName(k string) string {
	if i := strings.IndexByte(k, '('); i > 0 {
		return k[:i]
	}
	return k
}

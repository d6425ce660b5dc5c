package cupti

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// Overhead kinds of CUPTI activity OVERHEAD records (cupti_activity.h,
// CUDA 13.0). LAZY_FUNCTION_LOADING records carry the correlation id of
// the launch that triggered the load: measured on an H100 with cudart 13,
// where the load happens before the driver's cuLaunchKernel callback (so
// cuFuncIsLoaded at ENTER already says loaded) and no MODULE_LOADED
// resource callback fires under lazy loading at all.
const (
	OverheadRuntimeModuleLoading = 4 << 16
	OverheadLazyFunctionLoading  = 5 << 16
)

// record is one JSON line of inject.c.
type record struct {
	Ev           string `json:"ev"`
	T0           uint64 `json:"t0"`
	T1           uint64 `json:"t1"`
	PID          int    `json:"pid"`
	TID          int64  `json:"tid"`
	Ctx          uint32 `json:"ctx"`
	Stream       uint64 `json:"stream"`
	Corr         uint32 `json:"corr"`
	API          string `json:"api"`
	Name         string `json:"name"`
	Loaded       int    `json:"loaded"`
	FreeBefore   int64  `json:"free_before"`
	FreeAfter    int64  `json:"free_after"`
	Result       int    `json:"result"`
	Bytes        uint64 `json:"bytes"`
	Module       uint32 `json:"module"`
	CubinBytes   uint64 `json:"cubin_bytes"`
	OverheadKind uint32 `json:"overhead_kind"`
	LoadingMode  string `json:"loading_mode"`
	Records      int    `json:"records"`
	What         string `json:"what"`
	Message      string `json:"message"`
	CUPTIVersion int    `json:"cupti_version"`
}

// Interval is a span of time in ns since the trace's start.
type Interval struct {
	Start int64 `json:"start_ns"`
	End   int64 `json:"end_ns"`
}

// Dur is the interval's length in ns.
func (i Interval) Dur() int64 { return i.End - i.Start }

// Launch is one kernel launch: the host call, the lazy load it triggered
// (if any) and the kernel's run on the GPU (if recorded).
type Launch struct {
	Kernel  string   `json:"kernel"` // demangled, with parameters
	Mangled string   `json:"mangled"`
	API     string   `json:"api"`
	Call    Interval `json:"call"` // host ENTER to EXIT
	Thread  int64    `json:"thread"`
	Context uint32   `json:"context"`
	// Stream is the stream the kernel ran on (CUPTI's activity id), or
	// the launch's own stream id when no kernel record came.
	Stream      uint64    `json:"stream"`
	Correlation uint32    `json:"correlation"`
	Result      int       `json:"result"` // CUresult of the launch call
	Load        *Interval `json:"load,omitempty"`
	Run         *Interval `json:"run,omitempty"` // on the GPU
	// FreeBefore/FreeAfter: free device memory around a launch whose
	// kernel was not loaded at ENTER (-1: not measured). Hints only: it
	// covers the whole device, other processes included.
	FreeBefore int64 `json:"free_before"`
	FreeAfter  int64 `json:"free_after"`
	// WaitedOn names the kernel, on another stream, that ran while this
	// launch's kernel waited to start and ended just before it started:
	// the sign that a lazy load waited for a running kernel (LL003).
	WaitedOn string `json:"waited_on,omitempty"`
	WaitNS   int64  `json:"wait_ns,omitempty"`
	First    bool   `json:"first"` // first launch of this kernel in its context
	// LoadedAtCall: the driver said the kernel was loaded when the launch
	// was called (cuFuncIsLoaded); false when it was not or could not say.
	LoadedAtCall bool `json:"loaded_at_call"`
}

// Alloc is one device allocation (cuMemAlloc, the stream-ordered and pool
// allocators, cuMemCreate).
type Alloc struct {
	API       string   `json:"api,omitempty"`
	Bytes     uint64   `json:"bytes"`
	Call      Interval `json:"call"`
	FreeAfter int64    `json:"free_after"`
	Result    int      `json:"result"`
}

// LaunchError is a runtime launch (cudaLaunchKernel, <<<>>>) that
// returned an error. Under lazy loading cudart loads the kernel before it
// calls the driver's launch, so a load that fails for memory shows only
// here, with no driver launch record.
type LaunchError struct {
	API       string `json:"api"`
	Kernel    string `json:"kernel"`
	At        int64  `json:"at_ns"`
	Thread    int64  `json:"thread"`
	Result    int    `json:"result"` // cudaError_t
	FreeAfter int64  `json:"free_after"`
}

// ModuleCall is one call that loads a module or library (cuModuleLoad*,
// cuLibraryLoad*), with the free device memory around it (-1: not
// measured, e.g. no context was current).
type ModuleCall struct {
	API        string   `json:"api"`
	Call       Interval `json:"call"`
	Thread     int64    `json:"thread"`
	Context    uint32   `json:"context"`
	FreeBefore int64    `json:"free_before"`
	FreeAfter  int64    `json:"free_after"`
	Result     int      `json:"result"`
}

// Taken is the device memory the call took (0 when not measured).
func (m ModuleCall) Taken() int64 {
	if m.FreeBefore < 0 || m.FreeAfter < 0 {
		return 0
	}
	return m.FreeBefore - m.FreeAfter
}

// Module is one module load the driver reported.
type Module struct {
	ID         uint32 `json:"id"`
	Context    uint32 `json:"context"`
	At         int64  `json:"at_ns"`
	CubinBytes uint64 `json:"cubin_bytes"`
	FreeAfter  int64  `json:"free_after"`
}

// Trace is one process's record.
type Trace struct {
	PID          int           `json:"pid"`
	LoadingMode  string        `json:"loading_mode"`
	CUPTIVersion int           `json:"cupti_version"`
	Base         uint64        `json:"base_ns"` // CUPTI timestamp that times count from
	EndNS        int64         `json:"end_ns"`
	Complete     bool          `json:"complete"` // the process ended normally (atexit ran)
	Launches     []Launch      `json:"launches"`
	Allocs       []Alloc       `json:"allocs,omitempty"`
	Modules      []Module      `json:"modules,omitempty"`
	LaunchErrors []LaunchError `json:"launch_errors,omitempty"`
	// ModuleCalls are the program's module and library loads, in order.
	ModuleCalls []ModuleCall `json:"module_calls,omitempty"`
	// Loads are lazy loads that no launch claimed (by correlation id).
	Loads   []Interval `json:"unmatched_loads,omitempty"`
	Dropped int        `json:"dropped_records,omitempty"`
	Errors  []string   `json:"errors,omitempty"`
}

// Demangle returns the readable name of a kernel, with its template
// arguments and parameters; names that are not mangled come back as they
// are.
func Demangle(name string) string {
	return demangle.Filter(name)
}

// Parse reads one process's JSON lines. A line that cannot be read is
// reported in Errors (with its number) and skipped; a trace cut short by a
// crash is read as far as it goes.
func Parse(r io.Reader) (*Trace, error) {
	t := &Trace{}
	var recs []record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errors = append(t.Errors, fmt.Sprintf("line %d: %v", n, err))
			continue
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		return t, err
	}
	t.build(recs)
	return t, nil
}

func (t *Trace) build(recs []record) {
	// The base is the earliest timestamp (activity records can precede
	// the start line: they come from CUPTI's own clock).
	for _, r := range recs {
		for _, v := range []uint64{r.T0, r.T1} {
			if v != 0 && (t.Base == 0 || v < t.Base) {
				t.Base = v
			}
		}
	}
	rel := func(v uint64) int64 {
		if v == 0 {
			return 0
		}
		return int64(v - t.Base)
	}
	loads := map[uint32]Interval{}
	runs := map[uint32]record{}
	var loadOrder []uint32
	for _, r := range recs {
		switch r.Ev {
		case "overhead":
			if r.OverheadKind == OverheadLazyFunctionLoading && r.Corr != 0 {
				if _, ok := loads[r.Corr]; !ok {
					loadOrder = append(loadOrder, r.Corr)
				}
				loads[r.Corr] = Interval{rel(r.T0), rel(r.T1)}
			}
		case "kernel":
			runs[r.Corr] = r
		}
	}
	claimed := map[uint32]bool{}
	seen := map[string]bool{}
	for _, r := range recs {
		switch r.Ev {
		case "start":
			t.PID, t.CUPTIVersion = r.PID, r.CUPTIVersion
		case "context":
			if t.LoadingMode == "" {
				t.LoadingMode = r.LoadingMode
			}
		case "end":
			t.Complete = true
		case "dropped":
			t.Dropped += r.Records
		case "error":
			t.Errors = append(t.Errors, fmt.Sprintf("%s: %s (%d)", r.What, r.Message, r.Result))
		case "alloc":
			t.Allocs = append(t.Allocs, Alloc{API: r.API, Bytes: r.Bytes, Call: Interval{rel(r.T0), rel(r.T1)}, FreeAfter: r.FreeAfter, Result: r.Result})
		case "launch_error":
			t.LaunchErrors = append(t.LaunchErrors, LaunchError{API: r.API, Kernel: Demangle(r.Name), At: rel(r.T0),
				Thread: r.TID, Result: r.Result, FreeAfter: r.FreeAfter})
		case "module_call":
			t.ModuleCalls = append(t.ModuleCalls, ModuleCall{API: r.API, Call: Interval{rel(r.T0), rel(r.T1)},
				Thread: r.TID, Context: r.Ctx, FreeBefore: r.FreeBefore, FreeAfter: r.FreeAfter, Result: r.Result})
		case "module_loaded":
			t.Modules = append(t.Modules, Module{ID: r.Module, Context: r.Ctx, At: rel(r.T0), CubinBytes: r.CubinBytes, FreeAfter: r.FreeAfter})
		case "launch":
			l := Launch{Kernel: Demangle(r.Name), Mangled: r.Name, API: r.API, Call: Interval{rel(r.T0), rel(r.T1)},
				Thread: r.TID, Context: r.Ctx, Stream: r.Stream, Correlation: r.Corr, Result: r.Result,
				FreeBefore: r.FreeBefore, FreeAfter: r.FreeAfter, LoadedAtCall: r.Loaded == 1}
			if ld, ok := loads[r.Corr]; ok {
				l.Load = &ld
				claimed[r.Corr] = true
			}
			if k, ok := runs[r.Corr]; ok {
				run := Interval{rel(k.T0), rel(k.T1)}
				l.Run = &run
				l.Stream = k.Stream
			}
			key := fmt.Sprint(r.Ctx, "/", r.Name)
			l.First = !seen[key]
			seen[key] = true
			t.Launches = append(t.Launches, l)
		}
		if v := rel(max(r.T0, r.T1)); v > t.EndNS {
			t.EndNS = v
		}
	}
	for _, c := range loadOrder {
		if !claimed[c] {
			t.Loads = append(t.Loads, loads[c])
		}
	}
	t.findWaits()
}

// minWait is how long a kernel must wait past its launch, behind a kernel
// on another stream, to count as blocked; launches queue for microseconds.
const minWait = 1_000_000 // 1 ms

// findWaits marks launches whose kernel started only when a kernel on
// another stream ended, long after the launch returned: under lazy
// loading, a kernel loaded while another runs can wait for it to finish
// (measured on an H100: the releaser of a spin wait started 1.01 s after
// its launch, 3.5 µs after the waiter's watchdog ended the waiter).
func (t *Trace) findWaits() {
	for i := range t.Launches {
		l := &t.Launches[i]
		if l.Run == nil || l.Run.Start-l.Call.End < minWait {
			continue
		}
		best := -1
		for j := range t.Launches {
			o := &t.Launches[j]
			if j == i || o.Run == nil || o.Stream == l.Stream || o.Context != l.Context {
				continue
			}
			// o ran when l was launched and ended shortly before l started.
			if o.Run.Start <= l.Call.End && o.Run.End <= l.Run.Start && l.Run.Start-o.Run.End < minWait/10 {
				if best < 0 || o.Run.End > t.Launches[best].Run.End {
					best = j
				}
			}
		}
		if best >= 0 {
			l.WaitedOn = t.Launches[best].Kernel
			l.WaitNS = l.Run.Start - l.Call.End
		}
	}
}

// KernelSummary sums up one kernel's launches in a context.
type KernelSummary struct {
	Kernel   string    `json:"kernel"`
	Context  uint32    `json:"context"`
	Launches int       `json:"launches"`
	Failed   int       `json:"failed"`
	FirstAt  int64     `json:"first_at_ns"`
	Load     *Interval `json:"load,omitempty"`
	// FirstRunNS and LaterRunNS are the first launch's GPU time and the
	// median of the later ones (0: none recorded).
	FirstRunNS int64 `json:"first_run_ns"`
	LaterRunNS int64 `json:"later_run_ns"`
	// FirstCallNS and LaterCallNS are the same for the host's launch call
	// (ENTER to EXIT), where a lazy load lands.
	FirstCallNS int64  `json:"first_call_ns"`
	LaterCallNS int64  `json:"later_call_ns"`
	WaitedOn    string `json:"waited_on,omitempty"`
	WaitNS      int64  `json:"wait_ns,omitempty"`
}

// Kernels sums up the launches per kernel, in order of first launch.
func (t *Trace) Kernels() []KernelSummary {
	var out []KernelSummary
	idx := map[string]int{}
	later := map[int][]int64{}
	laterCalls := map[int][]int64{}
	for _, l := range t.Launches {
		key := fmt.Sprint(l.Context, "/", l.Mangled)
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, KernelSummary{Kernel: l.Kernel, Context: l.Context, FirstAt: l.Call.Start})
		}
		k := &out[i]
		k.Launches++
		if l.Result != 0 {
			k.Failed++
		}
		if l.Load != nil && k.Load == nil {
			k.Load = l.Load
		}
		if l.First {
			k.FirstCallNS = l.Call.Dur()
		} else {
			laterCalls[i] = append(laterCalls[i], l.Call.Dur())
		}
		if l.Run != nil {
			if l.First {
				k.FirstRunNS = l.Run.Dur()
			} else {
				later[i] = append(later[i], l.Run.Dur())
			}
		}
		if l.WaitedOn != "" && k.WaitedOn == "" {
			k.WaitedOn, k.WaitNS = l.WaitedOn, l.WaitNS
		}
	}
	for i, ds := range later {
		out[i].LaterRunNS = median(ds)
	}
	for i, ds := range laterCalls {
		out[i].LaterCallNS = median(ds)
	}
	return out
}

// median of ds (sorted in place); the lower middle of an even count.
func median(ds []int64) int64 {
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	return ds[(len(ds)-1)/2]
}

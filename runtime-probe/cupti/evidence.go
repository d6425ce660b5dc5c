package cupti

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// Statuses of a finding's evidence.
const (
	Confirmed    = "confirmed"
	NotConfirmed = "not-confirmed"
	NotExercised = "not-exercised"
)

// Evidence is what a trace says about one finding.
type Evidence struct {
	Status string `json:"status"`
	Kernel string `json:"kernel,omitempty"`
	Reason string `json:"reason"`
}

var identRE = regexp.MustCompile(`[A-Za-z_]\w*`)

// baseName is a demangled kernel's bare name: "void ns::scale<float>(float*)"
// gives "scale".
func baseName(k string) string {
	k = shortName(k)
	if i := strings.IndexByte(k, '<'); i > 0 {
		k = k[:i]
	}
	if i := strings.LastIndex(k, "::"); i >= 0 {
		k = k[i+2:]
	}
	if i := strings.LastIndexByte(k, ' '); i >= 0 {
		k = k[i+1:]
	}
	return k
}

// Mentioned returns the kernels of the trace whose bare names appear as
// words in text (a finding's message, its line and related messages), in
// trace order; templates match by their name ("scale<float>" in the
// trace matches "scale<T>" or "scale" in the source).
func Mentioned(t *Trace, text string) []KernelSummary {
	words := map[string]bool{}
	for _, w := range identRE.FindAllString(text, -1) {
		words[w] = true
	}
	var out []KernelSummary
	for _, k := range t.Kernels() {
		if words[baseName(k.Kernel)] {
			out = append(out, k)
		}
	}
	return out
}

// KernelNames returns the bare names of the kernels that text names among
// names (from the static side): used to tell "not exercised" from "no
// kernel named".
func KernelNames(text string, names []string) []string {
	var out []string
	words := map[string]bool{}
	for _, w := range identRE.FindAllString(text, -1) {
		words[w] = true
	}
	for _, n := range names {
		if words[n] {
			out = append(out, n)
		}
	}
	return out
}

// Options tune Judge.
type Options struct {
	// Slowdown is how many times slower than the later launches a first
	// launch must be to count as loading (the probe's --slowdown).
	Slowdown float64
}

// Judge weighs the traces of a LAZY and an EAGER run (eager may be nil)
// for a finding of rule. text is the finding's message, line and related
// messages; declared are the kernels the static side names in it. ok is
// false when the trace has nothing to say: the caller falls back to the
// program-level verdict.
//
// LL002 and LL003 findings are about kernels the text names; LL001 and
// LL004 findings are about the program's memory (an allocation, a module
// load) and are judged from the allocations, module loads and launches
// around them.
func Judge(rule, text string, lazy, eager *Trace, declared []string, o Options) (Evidence, bool) {
	if lazy == nil {
		return Evidence{}, false
	}
	if o.Slowdown <= 1 {
		o.Slowdown = diffrun.DefaultSlowdown
	}
	switch rule {
	case "LL001":
		return judgeWholeMemory(lazy, eager)
	case "LL004":
		return judgeModuleFigure(text, lazy, eager)
	}
	ks := Mentioned(lazy, text)
	if len(ks) == 0 {
		// Only a trace of a run that ended normally can say a kernel never
		// ran: a killed run (a hang) loses the launches not yet written.
		if names := KernelNames(text, declared); len(names) > 0 && lazy.Complete {
			return Evidence{Status: NotExercised, Kernel: names[0],
				Reason: fmt.Sprintf("kernel %s was never launched in the traced LAZY run", strings.Join(names, ", "))}, true
		}
		return Evidence{}, false
	}
	switch rule {
	case "LL002":
		return judgeTimedFirstLaunch(ks, eager, o)
	case "LL003":
		return judgeCrossKernelWait(ks, lazy)
	}
	return Evidence{}, false
}

func judgeTimedFirstLaunch(ks []KernelSummary, eager *Trace, o Options) (Evidence, bool) {
	for _, k := range ks {
		if k.Load != nil {
			return Evidence{Status: Confirmed, Kernel: k.Kernel,
				Reason: fmt.Sprintf("the first launch of %s lazily loaded it (%s) inside the launch it times", k.Kernel, usText(k.Load.Dur()))}, true
		}
	}
	// No load record came (CUPTI can drop overhead records): a first
	// launch call slower than the later ones by much more than under EAGER
	// shows the load too. The EAGER run is needed: a first launch is slower
	// in both modes (on an H100, 47 µs against 8 µs later under EAGER).
	for _, k := range ks {
		e := eagerKernel(eager, k.Kernel)
		if e == nil || k.Launches < 2 || e.Launches < 2 {
			continue
		}
		lazyExcess, eagerExcess := k.FirstCallNS-k.LaterCallNS, max(e.FirstCallNS-e.LaterCallNS, 0)
		if lazyExcess-eagerExcess >= minLoadNS && float64(lazyExcess) >= o.Slowdown*float64(max(eagerExcess, 1)) {
			return Evidence{Status: Confirmed, Kernel: k.Kernel,
				Reason: fmt.Sprintf("the first launch of %s took %s more than the later ones under LAZY, %s more under EAGER", k.Kernel, usText(lazyExcess), usText(eagerExcess))}, true
		}
	}
	return Evidence{Status: NotConfirmed, Kernel: ks[0].Kernel,
		Reason: fmt.Sprintf("the first launch of %s triggered no lazy load (loaded before it, e.g. preloaded)", ks[0].Kernel)}, true
}

// minLoadNS is the least extra time a first launch or module load must
// show to be read as a load: the smallest lazy loads measured on an H100
// took tens of microseconds.
const minLoadNS = 20_000

func eagerKernel(eager *Trace, kernel string) *KernelSummary {
	if eager == nil {
		return nil
	}
	for _, k := range eager.Kernels() {
		if k.Kernel == kernel {
			return &k
		}
	}
	return nil
}

func judgeCrossKernelWait(ks []KernelSummary, lazy *Trace) (Evidence, bool) {
	for _, k := range ks {
		if k.WaitedOn != "" {
			return Evidence{Status: Confirmed, Kernel: k.Kernel,
				Reason: fmt.Sprintf("%s started %s after its launch, only when %s ended", k.Kernel, usText(k.WaitNS), k.WaitedOn)}, true
		}
	}
	for _, l := range lazy.Launches {
		for _, k := range ks {
			if l.WaitedOn == k.Kernel {
				return Evidence{Status: Confirmed, Kernel: l.Kernel,
					Reason: fmt.Sprintf("%s started %s after its launch, only when %s ended", l.Kernel, usText(l.WaitNS), k.Kernel)}, true
			}
		}
	}
	return Evidence{Status: NotConfirmed, Kernel: ks[0].Kernel,
		Reason: fmt.Sprintf("no kernel waited for %s: every launch started within 1 ms of its call or behind no other stream's kernel", ks[0].Kernel)}, true
}

// outOfMemory is CUDA_ERROR_OUT_OF_MEMORY.
const outOfMemory = 2

// judgeWholeMemory weighs an LL001 finding: after the allocation that
// left the least free memory, did a launch that had to load its kernel
// fail? Launches of kernels already loaded, and allocations that failed
// (the program's own backing off), say nothing of lazy loading.
func judgeWholeMemory(lazy, eager *Trace) (Evidence, bool) {
	big := -1
	for i, a := range lazy.Allocs {
		if a.Result == 0 && a.FreeAfter >= 0 && (big < 0 || a.FreeAfter < lazy.Allocs[big].FreeAfter) {
			big = i
		}
	}
	if big < 0 {
		return Evidence{}, false
	}
	a := lazy.Allocs[big]
	took := fmt.Sprintf("%s took %s, leaving %s free", orAlloc(a.API), BytesText(int64(a.Bytes)), BytesText(a.FreeAfter))
	if big > 0 {
		var total int64
		n := 0
		for _, b := range lazy.Allocs[:big+1] {
			if b.Result == 0 {
				total += int64(b.Bytes)
				n++
			}
		}
		if n > 1 {
			took = fmt.Sprintf("%d allocations took %s, leaving %s free", n, BytesText(total), BytesText(a.FreeAfter))
		}
	}
	// Launches that loaded their kernel: a lazy-load record names them;
	// a first launch the driver called unloaded at its call did too (a load
	// that fails may leave no record).
	var loading []Launch
	for _, l := range lazy.Launches {
		if l.Call.Start >= a.Call.End && (l.Load != nil || l.First && !l.LoadedAtCall) {
			loading = append(loading, l)
		}
	}
	for _, l := range loading {
		if l.Result != 0 {
			what := fmt.Sprintf("CUresult %d", l.Result)
			if l.Result == outOfMemory {
				what = "out of memory"
			}
			reason := fmt.Sprintf("after %s, the first launch of %s had to load it and failed (%s) under LAZY", took, l.Kernel, what)
			if eager != nil && eagerLaunchesSucceeded(eager, l.Kernel) {
				reason += "; under EAGER it succeeded"
			}
			return Evidence{Status: Confirmed, Kernel: l.Kernel, Reason: reason}, true
		}
	}
	// A runtime launch that failed, of a kernel with no successful launch
	// before it: cudart's load of the kernel failed before any driver
	// launch.
	for _, e := range lazy.LaunchErrors {
		if e.At < a.Call.End || launchedBefore(lazy, e.Kernel, e.At) {
			continue
		}
		what := fmt.Sprintf("cudaError %d", e.Result)
		if e.Result == outOfMemory {
			what = "out of memory"
		}
		reason := fmt.Sprintf("after %s, %s of %s, its first, failed (%s) under LAZY", took, e.API, e.Kernel, what)
		if eager != nil && eagerLaunchesSucceeded(eager, e.Kernel) {
			reason += "; under EAGER it succeeded"
		}
		return Evidence{Status: Confirmed, Kernel: e.Kernel, Reason: reason}, true
	}
	if len(loading) == 0 {
		if !lazy.Complete {
			return Evidence{}, false
		}
		return Evidence{Status: NotExercised,
			Reason: fmt.Sprintf("after %s, no launch had to load its kernel in the traced LAZY run", took)}, true
	}
	return Evidence{Status: NotConfirmed, Kernel: loading[0].Kernel,
		Reason: fmt.Sprintf("after %s, %d launch(es) loaded their kernels lazily and all succeeded", took, len(loading))}, true
}

// launchedBefore says whether kernel had a successful launch before at.
func launchedBefore(t *Trace, kernel string, at int64) bool {
	for _, l := range t.Launches {
		if l.Kernel == kernel && l.Result == 0 && l.Call.Start < at {
			return true
		}
	}
	return false
}

func orAlloc(api string) string {
	if api == "" {
		return "an allocation"
	}
	return api
}

func eagerLaunchesSucceeded(eager *Trace, kernel string) bool {
	seen := false
	for _, l := range eager.Launches {
		if l.Kernel == kernel {
			if l.Result != 0 {
				return false
			}
			seen = true
		}
	}
	return seen
}

// judgeModuleFigure weighs an LL004 finding: a figure measured around a
// module load that the text names. Under LAZY the load takes (almost) no
// device memory and time; the kernels load later, at first launch. With an
// EAGER trace the same call's figures are compared; without one, lazy
// loads after the call show where the module's kernels went.
func judgeModuleFigure(text string, lazy, eager *Trace) (Evidence, bool) {
	words := map[string]bool{}
	for _, w := range identRE.FindAllString(text, -1) {
		words[w] = true
	}
	named := func(t *Trace) []ModuleCall {
		var out []ModuleCall
		if t == nil {
			return nil
		}
		for _, m := range t.ModuleCalls {
			if m.Result == 0 && words[strings.TrimSuffix(m.API, "_v2")] {
				out = append(out, m)
			}
		}
		return out
	}
	lazyCalls := named(lazy)
	if len(lazyCalls) == 0 {
		return Evidence{}, false
	}
	m := lazyCalls[0]
	var later []Launch
	var laterTaken int64
	for _, l := range lazy.Launches {
		if l.Call.Start >= m.Call.End && l.Load != nil {
			later = append(later, l)
			if l.FreeBefore >= 0 && l.FreeAfter >= 0 {
				laterTaken += l.FreeBefore - l.FreeAfter
			}
		}
	}
	lazyFig := fmt.Sprintf("%s took %s and %s under LAZY", m.API, usText(m.Call.Dur()), BytesText(m.Taken()))
	if eagerCalls := named(eager); len(eagerCalls) > 0 {
		e := eagerCalls[0]
		eagerFig := fmt.Sprintf("%s and %s under EAGER", usText(e.Call.Dur()), BytesText(e.Taken()))
		memDiffers := e.Taken()-m.Taken() >= 1<<20
		timeDiffers := e.Call.Dur() >= 2*m.Call.Dur() && e.Call.Dur()-m.Call.Dur() >= minLoadNS
		if memDiffers || timeDiffers {
			reason := lazyFig + ", " + eagerFig
			if len(later) > 0 {
				reason += fmt.Sprintf("; under LAZY %d kernel(s) loaded later, at first launch", len(later))
			}
			return Evidence{Status: Confirmed, Reason: reason}, true
		}
		return Evidence{Status: NotConfirmed, Reason: lazyFig + ", " + eagerFig + ": the figures agree"}, true
	}
	if len(later) > 0 {
		reason := fmt.Sprintf("%s; %d kernel(s) loaded after it, at first launch", lazyFig, len(later))
		if laterTaken > 0 {
			reason += fmt.Sprintf(", taking %s more", BytesText(laterTaken))
		}
		return Evidence{Status: Confirmed, Kernel: later[0].Kernel, Reason: reason}, true
	}
	return Evidence{}, false
}

// BytesText is a byte count for people: "78.6 GiB", "2.2 MiB", "-4.0 MiB".
func BytesText(b int64) string {
	abs := b
	if abs < 0 {
		abs = -abs
	}
	switch {
	case abs >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case abs >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case abs >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

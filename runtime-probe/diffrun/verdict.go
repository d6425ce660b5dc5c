package diffrun

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Verdict sums up how the runs under LAZY and EAGER differ.
type Verdict string

// Verdicts, in the order they are tried: the first that applies is given.
const (
	HangUnderLazy   Verdict = "hang-under-lazy"   // only LAZY runs passed the timeout
	HangUnderEager  Verdict = "hang-under-eager"  // only EAGER runs did
	HangInBoth      Verdict = "hang-in-both"      // both did: not a lazy-loading effect
	FailsUnderLazy  Verdict = "fails-under-lazy"  // only LAZY runs failed (exit, signal, OOM or load error)
	FailsUnderEager Verdict = "fails-under-eager" // only EAGER runs failed
	FailsInBoth     Verdict = "fails-in-both"     // both failed
	NoCUDA          Verdict = "no-cuda"           // both failed without CUDA: no usable driver or device
	SlowerUnderLazy Verdict = "slower-under-lazy" // a timing the program prints is Slowdown times larger under LAZY
	FiguresDiffer   Verdict = "figures-differ"    // a size, or a timing that is smaller under LAZY, differs as much
	Same            Verdict = "same"              // no difference found
)

// Verdicts lists them all, for documentation and flag help.
var Verdicts = []Verdict{NoCUDA, HangUnderLazy, HangUnderEager, HangInBoth, FailsUnderLazy, FailsUnderEager, FailsInBoth, SlowerUnderLazy, FiguresDiffer, Same}

// LazyOnly reports whether the verdict is a difference that only lazy
// loading shows: what a lazylint finding predicts.
func (v Verdict) LazyOnly() bool {
	switch v {
	case HangUnderLazy, FailsUnderLazy, SlowerUnderLazy, FiguresDiffer:
		return true
	}
	return false
}

func judge(runs []Run, o Options) (Verdict, string, []string) {
	by := map[string][]Run{}
	for _, r := range runs {
		by[r.Mode] = append(by[r.Mode], r)
	}
	lazy, eager := by[ModeLazy], by[ModeEager]
	timedOut := func(r *Run) bool { return r.TimedOut }
	lazyHang, eagerHang := anyRun(lazy, timedOut), anyRun(eager, timedOut)
	// Errors are compared line by line: a program that prints and
	// tolerates an out-of-memory line in both modes gives no evidence with
	// it; a line printed only under one mode does.
	lazyOnly, eagerOnly := onlyIn(lazy, eager, errorLines), onlyIn(eager, lazy, errorLines)
	exitFail := func(r *Run) bool { return !r.TimedOut && (r.ExitCode != 0 || r.Signal != "") }
	lazyExit, eagerExit := anyRun(lazy, exitFail), anyRun(eager, exitFail)
	lazyFail, eagerFail := lazyExit || len(lazyOnly) > 0, eagerExit || len(eagerOnly) > 0
	if lazyFail && eagerFail && len(eagerOnly) == 0 && len(lazyOnly) > 0 && sameEndings(lazy, eager) {
		eagerFail = false // both exit alike; only LAZY printed an error
	}
	if lazyFail && eagerFail && len(lazyOnly) == 0 && len(eagerOnly) > 0 && sameEndings(lazy, eager) {
		lazyFail = false
	}
	timeout := o.Timeout.String()
	if v, reason, ok := noCUDA(lazy, eager, o); ok {
		return v, reason, errorEvidence(runs)
	}
	switch {
	case lazyHang && eagerHang:
		return HangInBoth, "both modes ran past the " + timeout + " timeout", nil
	case lazyHang:
		return HangUnderLazy, fmt.Sprintf("under LAZY the program ran past the %s timeout and its process group was killed; under EAGER %s", timeout, summary(eager)), nil
	case eagerHang:
		return HangUnderEager, fmt.Sprintf("under EAGER the program ran past the %s timeout; under LAZY %s", timeout, summary(lazy)), nil
	case lazyFail && eagerFail:
		return FailsInBoth, fmt.Sprintf("under LAZY %s; under EAGER %s", summary(lazy), summary(eager)), errorEvidence(runs)
	case lazyFail:
		return FailsUnderLazy, fmt.Sprintf("under LAZY %s; under EAGER %s", summary(lazy), summary(eager)), prefixed(ModeLazy, lazyOnly, errorEvidence(lazy))
	case eagerFail:
		return FailsUnderEager, fmt.Sprintf("under EAGER %s; under LAZY %s", summary(eager), summary(lazy)), prefixed(ModeEager, eagerOnly, errorEvidence(eager))
	}
	// A watchdog line printed only under LAZY: the program gave up waiting
	// on something that EAGER did not wait for.
	if hangs := onlyIn(lazy, eager, hangLines); len(hangs) > 0 {
		return HangUnderLazy, fmt.Sprintf("under LAZY the program printed a line saying it gave up waiting, which EAGER did not print; under LAZY %s; under EAGER %s", summary(lazy), summary(eager)), prefixed(ModeLazy, hangs, nil)
	}
	slower, differ := compareFigures(lazy, eager, o)
	if w, ok := wallSlowdown(lazy, eager, o); ok {
		slower = append(slower, w)
	}
	switch {
	case len(slower) > 0:
		return SlowerUnderLazy, fmt.Sprintf("a timing the program prints, or its wall time, is at least %gx larger under LAZY", o.Slowdown), slower
	case len(differ) > 0:
		return FiguresDiffer, fmt.Sprintf("a figure the program prints differs at least %gx between LAZY and EAGER", o.Slowdown), differ
	}
	return Same, fmt.Sprintf("both modes %s; no printed timing or size, nor the wall time, differs %gx", summary(lazy), o.Slowdown), nil
}

// Exercised reports whether the runs can say something about lazy
// loading: not when CUDA never started, nor when both modes failed or hung
// alike (a program that crashes either way proves nothing of its
// findings: measured on an H100, a persistent-kernel program that died of
// an illegal address under LAZY and EAGER).
func (v Verdict) Exercised() bool {
	switch v {
	case NoCUDA, FailsInBoth, HangInBoth:
		return false
	}
	return true
}

// noCUDA reports runs that all failed in both modes because CUDA could
// not start: this machine has no usable driver (o.NoDriver), or every run
// printed that it found no driver or device.
func noCUDA(lazy, eager []Run, o Options) (Verdict, string, bool) {
	if len(lazy) == 0 || len(eager) == 0 {
		return "", "", false
	}
	all := append(append([]Run(nil), lazy...), eager...)
	printed := true
	for _, r := range all {
		if r.TimedOut || r.ExitCode == 0 && r.Signal == "" {
			return "", "", false
		}
		printed = printed && r.NoCUDA
	}
	switch {
	case o.NoDriver != "":
		return NoCUDA, fmt.Sprintf("no usable CUDA driver on this machine (%s) and the program failed under both modes (under LAZY %s; under EAGER %s): no kernel was exercised", o.NoDriver, summary(lazy), summary(eager)), true
	case printed:
		return NoCUDA, fmt.Sprintf("the program could not start CUDA under either mode (no driver or no device, as its output says; under LAZY %s; under EAGER %s): no kernel was exercised", summary(lazy), summary(eager)), true
	}
	return "", "", false
}

// minWallDelta is the smallest wall-time difference that counts: process
// start, context creation and module loads vary by tens of milliseconds
// from run to run.
const minWallDelta = 250 * time.Millisecond

// wallSlowdown compares the median wall times of runs that all exited 0: a
// waiter with a watchdog turns a lazy-loading deadlock into a slow success
// (2.3 s under LAZY against 0.31 s under EAGER, measured on an H100).
func wallSlowdown(lazy, eager []Run, o Options) (string, bool) {
	ok := func(r *Run) bool { return r.TimedOut || r.ExitCode != 0 || r.Signal != "" }
	if len(lazy) == 0 || len(eager) == 0 || anyRun(lazy, ok) || anyRun(eager, ok) {
		return "", false
	}
	l, e := medianWall(lazy), medianWall(eager)
	if l < o.Slowdown*e || l-e < float64(minWallDelta.Milliseconds()) {
		return "", false
	}
	return fmt.Sprintf("wall time: %s under LAZY, %s under EAGER (%.1fx), both exit 0", msText(l), msText(e), l/max(e, 1e-3)), true
}

func medianWall(runs []Run) float64 {
	w := make([]float64, len(runs))
	for i, r := range runs {
		w[i] = r.WallMS
	}
	sort.Float64s(w)
	return w[(len(w)-1)/2]
}

// errorLines are a run's out-of-memory and load error lines: a line that
// says CUDA could not start is no lazy-loading effect, even when only one
// mode printed it.
func errorLines(r *Run) []string {
	var out []string
	for _, l := range r.ErrorLines {
		if !containsFold(l, noCUDAPatterns) {
			out = append(out, l)
		}
	}
	return out
}
func hangLines(r *Run) []string { return r.HangLines }

// onlyIn returns the lines of runs a (as lines returns them) whose shape
// (numbers replaced by '#', so addresses, sizes and times do not matter)
// appears in no run of b, each once.
func onlyIn(a, b []Run, lines func(*Run) []string) []string {
	inB := map[string]bool{}
	for i := range b {
		for _, l := range lines(&b[i]) {
			inB[lineShape(l)] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for i := range a {
		for _, l := range lines(&a[i]) {
			sh := lineShape(l)
			if !inB[sh] && !seen[sh] {
				seen[sh] = true
				out = append(out, l)
			}
		}
	}
	return out
}

func lineShape(l string) string {
	return numberRE.ReplaceAllString(hexRE.ReplaceAllString(strings.TrimSpace(l), "#"), "#")
}

var hexRE = regexp.MustCompile(`0x[0-9a-fA-F]+`)

// sameEndings reports whether every run of both modes ended the same way
// (exit code and signal).
func sameEndings(a, b []Run) bool {
	var first *Run
	for _, rs := range [][]Run{a, b} {
		for i := range rs {
			if first == nil {
				first = &rs[i]
			} else if rs[i].ExitCode != first.ExitCode || rs[i].Signal != first.Signal {
				return false
			}
		}
	}
	return true
}

// prefixed labels lines with their mode; when there are none it falls back
// to the given evidence.
func prefixed(mode string, lines, fallback []string) []string {
	if len(lines) == 0 {
		return fallback
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = mode + ": " + l + " (not printed under the other mode)"
	}
	return out
}

func anyRun(runs []Run, pred func(*Run) bool) bool {
	for i := range runs {
		if pred(&runs[i]) {
			return true
		}
	}
	return false
}

// summary describes how runs of one mode ended, runs with the same ending
// together: "exited 0 in 0.41 s", "3 runs exited 1 in 393.0-438.4 ms,
// reporting out of memory".
func summary(runs []Run) string {
	type group struct {
		ending           string
		count            int
		fastest, slowest float64
	}
	var groups []*group
	byEnding := map[string]*group{}
	for _, r := range runs {
		var s string
		switch {
		case r.TimedOut:
			s = "timed out"
		case r.Signal != "":
			s = "was killed by " + r.Signal
		default:
			s = fmt.Sprintf("exited %d", r.ExitCode)
		}
		switch {
		case r.OutOfMemory && r.LoadError:
			s += ", reporting out of memory and a load error"
		case r.OutOfMemory:
			s += ", reporting out of memory"
		case r.LoadError:
			s += ", reporting a load error"
		}
		g := byEnding[s]
		if g == nil {
			g = &group{ending: s, fastest: r.WallMS, slowest: r.WallMS}
			byEnding[s] = g
			groups = append(groups, g)
		}
		g.count++
		g.fastest, g.slowest = min(g.fastest, r.WallMS), max(g.slowest, r.WallMS)
	}
	if len(groups) == 0 {
		return "did not run"
	}
	parts := make([]string, 0, len(groups))
	for _, g := range groups {
		verb, rest, _ := strings.Cut(g.ending, ",")
		if rest != "" {
			rest = "," + rest
		}
		when := " in " + msText(g.fastest)
		if g.count > 1 {
			when = fmt.Sprintf(" in %s-%s", msText(g.fastest), msText(g.slowest))
			verb = fmt.Sprintf("%d runs %s", g.count, verb)
		}
		parts = append(parts, verb+when+rest)
	}
	return strings.Join(parts, "; ")
}

// msText writes a wall time in ms, or in s from one second on.
func msText(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.2f s", ms/1000)
}

func errorEvidence(runs []Run) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		for _, l := range r.ErrorLines {
			e := r.Mode + ": " + l
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// compareFigures pairs the figures of both modes by key and compares their
// medians.
func compareFigures(lazy, eager []Run, o Options) (slower, differ []string) {
	lazyFigs, eagerFigs := medians(lazy), medians(eager)
	keys := make([]string, 0, len(lazyFigs))
	for k := range lazyFigs {
		if _, ok := eagerFigs[k]; ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		l, e := lazyFigs[k], eagerFigs[k]
		if l.Kind != e.Kind {
			continue
		}
		lo, hi := min(l.Value, e.Value), max(l.Value, e.Value)
		delta := hi - lo
		large := hi >= o.Slowdown*lo
		desc := fmt.Sprintf("%q: %s under LAZY, %s under EAGER", l.Line, l.Text, e.Text)
		if lo > 0 {
			desc += fmt.Sprintf(" (%.1fx)", hi/lo)
		}
		switch l.Kind {
		case KindTime:
			if !large || delta < o.MinTimeDelta.Seconds() {
				continue
			}
			if l.Value > e.Value {
				slower = append(slower, desc)
			} else {
				differ = append(differ, desc)
			}
		case KindMemory:
			if large && delta >= minMemoryDelta {
				differ = append(differ, desc)
			}
		}
	}
	return slower, differ
}

// medians maps each figure key to the figure with the median value over
// the runs (the lower middle one for an even count).
func medians(runs []Run) map[string]Figure {
	all := map[string][]Figure{}
	for _, r := range runs {
		for _, f := range r.Figures {
			all[f.Key] = append(all[f.Key], f)
		}
	}
	out := make(map[string]Figure, len(all))
	for k, figs := range all {
		sort.Slice(figs, func(i, j int) bool { return figs[i].Value < figs[j].Value })
		out[k] = figs[(len(figs)-1)/2]
	}
	return out
}

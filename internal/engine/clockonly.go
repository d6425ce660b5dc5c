package engine

import (
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/knowledge"
)

// Files that spell neither a clock read nor a launch may still time a
// launch: both behind calls into other files, as darknet's detector.c does
// (`time = what_time_is_it_now(); train_network(net, train); ...
// what_time_is_it_now() - time`, the clock helper in utils.c, the kernels
// in the layers' .cu files). So may a file that defines its clock helpers
// itself and calls another file's launcher between them (Rodinia's
// `stopwatch_start(&sw); lud_cuda(m, n); stopwatch_stop(&sw);`): its text
// spells a clock read, but no call between two of them. No prefilter
// admits such a file by its text, and asking every file whether it calls
// both would scan the calls of the whole tree. So they are looked for once the clock helpers are known:
// files whose name filter may name one, read, and kept when they call a
// helper twice with calls in between; those calls are what the link step
// then follows, as for any file timing with another file's clock.

// maxClockDefiners is how many files may define a clock helper's name for
// it to be looked for: a helper is defined once or in a few variants; a
// name many files define (main, run, test) says nothing.
const maxClockDefiners = 4

// addClockOnlyCandidates marks as clock candidates the checked files, not
// clock candidates yet (none at all, or load candidates: a file spelling
// what looks like its own clock read), that time calls between two calls
// of a clock helper (pr.clockDefinedBy, of another file or their own),
// and adds those calls to the ones it noted.
func (pr *projectRun) addClockOnlyCandidates() {
	start := time.Now() // the trace line says how long this step took
	names := pr.clockHelpers()
	if len(names) == 0 {
		return
	}

	probes := make([]rule.NameProbe, len(names))
	for k, name := range names {
		probes[k] = rule.NewNameProbe(name)
	}
	type candidate struct {
		i      int
		clocks []string
	}
	var cands []candidate
	var filterBuf []byte // the filters read from disk, one at a time
	for i := 0; i < pr.checked && i < len(pr.facts); i++ {
		ff := &pr.facts[i]
		// A load candidate (it spells a clock read, or what looks like
		// one: `solver_timer_()` has a timer function's spelling) may
		// time with a helper too.
		if ff.is(factClockCandidate) || ff.summary() != nil || !ff.hasFilter() {
			continue
		}
		nf := ff.scanFilter(pr.spill, &filterBuf)
		var clocks []string
		for k, name := range names {
			if nf.MayContainProbe(probes[k]) {
				clocks = append(clocks, name)
			}
		}
		if len(clocks) > 0 {
			cands = append(cands, candidate{i, clocks})
		}
	}
	var marked atomic.Int64
	defer func() {
		pr.opts.trace(start, "clockonly", "%d helpers, %d files read, %d taken", len(names), len(cands), marked.Load())
	}()
	onPool(len(cands), pr.workers, func(w *worker, k int) {
		c := cands[k]
		src, err := ReadSource(pr.sources.abs(c.i))
		if err != nil || binaryError(src) != nil {
			return
		}
		lits := make([][]byte, len(c.clocks))
		for j, name := range c.clocks {
			lits[j] = []byte(name + "(")
		}
		timed := cudaparse.TimedCalls(src, lits)
		if len(timed) == 0 {
			return
		}
		w.text.Reset(src)
		s := pr.settings(pr.sources.abs(c.i))
		w.text.SetAdditions(s.Additions.LoadSpellings(), s.Additions.ClockSpellings())
		if !askPrefilters(s.Rules, &w.text).firesWith(&w.text, true, true) {
			return
		}
		// Only what is called between two of the helper's calls can be
		// timed by them (as for a load candidate, noteProjectFacts): the
		// link summarizes the definers of these names alone.
		ff := &pr.facts[c.i] // this worker's alone
		// The helpers' names too: the link finds the timed calls again
		// between two calls of them (timedByProjectClock).
		ff.foundNow().set(callsList, unionIDs(ff.found().calls(), pr.names.intern(append(timed, c.clocks...))))
		ff.set(factScanned|factClockCandidate|factCandidate, true)
		marked.Add(1)
	})
}

// maxClockHelperLines is the longest definition taken for a clock helper:
// what_time_is_it_now() and its kind are a few lines; a test or benchmark
// function that reads a clock once is not one.
const maxClockHelperLines = 20

// clockHelpers returns the names that the files spelling a clock read
// define as clock helpers: at most maxClockDefiners files define the
// name, and every definition, read from the text, is a short free
// function that reads a host clock once (cudaparse.LexicalSummary's
// ReadsClock) and measures nothing itself.
func (pr *projectRun) clockHelpers() []string {
	var names []string
	definers := map[int][]string{}
	for _, name := range slices.Sorted(maps.Keys(pr.clockDefinedBy)) {
		// A name of one or two letters (ms(), s()) is no helper's: the
		// name filters cannot tell the files that call it.
		if len(pr.clockDefinedBy[name]) <= maxClockDefiners && !knowledge.IsClockName(name) && len(name) >= 3 {
			names = append(names, name)
			for _, i := range pr.clockDefinedBy[name] {
				definers[i] = append(definers[i], name)
			}
		}
	}
	files := slices.Sorted(maps.Keys(definers))
	helper := make([]map[string]bool, len(files)) // per definer: name -> a helper there
	onPool(len(files), pr.workers, func(_ *worker, k int) {
		i := files[k]
		src, err := ReadSource(pr.sources.abs(i))
		if err != nil || binaryError(src) != nil {
			return
		}
		sum := pr.lexicalSummary(i, src, pr.settings(pr.sources.abs(i)).Additions)
		helper[k] = clockHelperVerdicts(sum)
	})
	byFile := map[int]map[string]bool{}
	for k, i := range files {
		byFile[i] = helper[k]
	}
	var out []string
	for _, name := range names {
		all := true
		for _, i := range pr.clockDefinedBy[name] {
			all = all && byFile[i][name]
		}
		if all {
			out = append(out, name)
		}
	}
	return out
}

// unionIDs returns the IDs of a and b, each once, a's first.
func unionIDs(a, b []nameID) []nameID {
	if len(a) == 0 {
		return b
	}
	out := slices.Clone(a)
	for _, id := range b {
		if !slices.Contains(a, id) {
			out = append(out, id)
		}
	}
	return out
}

// clockHelperVerdicts says, for each function name a file's summary
// defines, whether it is a clock helper there: every definition a short
// free function that reads a clock, but definitions that are variants of
// one helper, which the preprocessor chooses among (`#ifdef SUN
// gethrtime() #elif UNIX_TIMER times() #else MPI_Wtime()`:
// FunctionSummary.Variant), of which one reading a clock is enough.
func clockHelperVerdicts(sum *cudaparse.FileSummary) map[string]bool {
	type variants struct{ name, class string }
	verdict := map[string]bool{}
	reads := map[variants]bool{}
	for _, fn := range sum.EachFunction() {
		ok := !fn.Timed && !fn.Member && !fn.Local && fn.EndLine-fn.Line <= maxClockHelperLines
		if fn.Variant {
			key := variants{fn.Name, fn.Class}
			reads[key] = reads[key] || fn.ReadsClock
		} else {
			ok = ok && fn.ReadsClock
		}
		if prior, seen := verdict[fn.Name]; !seen || prior {
			verdict[fn.Name] = ok
		}
	}
	for key, yes := range reads {
		if !yes {
			verdict[key.name] = false
		}
	}
	return verdict
}

package engine

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/lazylint/lazylint/internal/rule"

	"github.com/lazylint/lazylint/cudaparse"
)

// Translation units: a header's device code runs in the kernels of the
// sources that include it, beside the device code of everything else they
// include. A rule whose findings that code can remove (rule.UnitDevice)
// gets the device summaries of those files.

// maxUnitFiles bounds the files parsed for one file's translation units.
const maxUnitFiles = 64

// releaseWords are spellings one of which device code that releases a
// waiter contains: atomic intrinsics and methods, PTX stores, reductions
// and atomics. (A plain volatile store is not looked for in other files.)
var releaseWords = []string{"atomic", "store(", "st.", "red.", "atom."}

// deviceWords are spellings of device code (its qualifiers, and the
// project macros that usually stand for them).
var deviceWords = []string{"__device__", "__global__", "DEVICE", "GLOBAL", "KERNEL"}

// maxUnitRoots bounds the sources whose units are looked at: a header that
// most of a project includes is in too many units to be one kernel's.
const maxUnitRoots = 8

func usesUnitDevice(fs []Finding) bool { return requiresFact(fs, rule.UnitDevice) }

// unitFiles returns the other files of file i's translation units that
// may release what its findings wait for: the sources that include it (or
// it, a source; at most maxUnitRoots), and what they include, in file
// order, at most maxUnitFiles: those that spell a release and one of the
// names of the file's UnitWants, then the other device code. A file that
// wants nothing has no unit files.
func (pr *projectRun) unitFiles(i int) []int {
	roots := []int{}
	pr.visMu.Lock()
	pr.indexShown()
	header := pr.header[i]
	pr.visMu.Unlock()
	if !header {
		roots = append(roots, i)
	}
	for _, j := range pr.includerFiles(i) {
		if len(roots) < maxUnitRoots {
			roots = append(roots, int(j))
		}
	}
	set := newFileSet()
	pr.visMu.Lock()
	for _, r := range roots {
		set.add(r)
		set.union(pr.includeClosure(r))
	}
	pr.visMu.Unlock()
	// Only files that spell what the rules would like released (the
	// accessor or member the waits read) can release it.
	var names []string
	if sum := pr.facts[i].summary(); sum != nil {
		for _, w := range sum.UnitWants {
			if _, name, ok := strings.Cut(w, " "); ok {
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	// The files that spell a wanted name and a release first, then the
	// other device code (the kernels and stages between).
	var first, then []int
	set.each(func(j int) {
		nf := pr.facts[j].filter(pr.spill)
		switch {
		case j == i:
		case nf == nil || mayContainAny(nf, releaseWords) && mayContainAny(nf, names):
			first = append(first, j)
		case mayContainAny(nf, deviceWords):
			then = append(then, j)
		}
	})
	out := make([]int, 0, len(first)+len(then))
	out = append(out, first...)
	for _, j := range then {
		if len(out) >= maxUnitFiles {
			break
		}
		if pr.sourceSize(j) <= maxUnitStageBytes {
			out = append(out, j)
		}
	}
	if len(out) > maxUnitFiles {
		out = out[:maxUnitFiles]
	}
	sort.Ints(out)
	return out
}

// maxUnitStageBytes bounds the size of a unit file parsed only for the
// device code it may hold between a waiter and its release (one that
// spells neither a release nor a wanted name): the kernels and stages of
// a program are far smaller, while generated tables of instruction
// wrappers that every kernel of a library includes are not (CUTLASS's
// warpgroup MMA headers, 0.4-2.9 MB: on the 38-project corpus checked as
// one project they took 1.7 of the 1.9 s of CPU spent on units, and
// 290 MB of peak RSS).
const maxUnitStageBytes = 256 << 10

// sourceSize returns the size of file j (0 when it cannot be told: the
// parse will say what is wrong with it).
func (pr *projectRun) sourceSize(j int) int64 {
	info, err := os.Stat(pr.sources.abs(j))
	if err != nil {
		return 0
	}
	return info.Size()
}

func mayContainAny(nf *rule.NameFilter, words []string) bool {
	for _, w := range words {
		if nf.MayContain(w) {
			return true
		}
	}
	return false
}

// prepareUnits finds the translation units of the files at indices that
// hold findings of a rule that uses them, parses the unit files not parsed
// for this yet (on the workers), and keeps each file's unit summaries for
// its next check.
func (pr *projectRun) prepareUnits(indices []int, results sourceResults) {
	if pr.device == nil {
		pr.device, pr.unitDevice = map[int][]cudaparse.DeviceSummary{}, map[int][]cudaparse.DeviceSummary{}
	}
	var want []int
	units := map[int][]int{}
	for _, i := range indices {
		if _, done := pr.unitDevice[i]; done || !usesUnitDevice(results.findings(i)) {
			continue
		}
		units[i] = pr.unitFiles(i)
		if pr.opts.Trace != nil {
			fmt.Fprintf(pr.opts.Trace, "unit     %s: %d files\n", pr.sources.shown(i), len(units[i]))
		}
		for _, j := range units[i] {
			if _, ok := pr.device[j]; !ok {
				pr.device[j] = nil
				want = append(want, j)
			}
		}
	}
	if len(units) == 0 {
		return
	}
	var mu sync.Mutex
	pr.onWorkers(want, func(parser **cudaparse.Parser, j int) {
		ds := pr.deviceSummaries(parser, j)
		mu.Lock()
		pr.device[j] = ds
		pr.parsed++
		mu.Unlock()
	})
	for i, files := range units {
		var all []cudaparse.DeviceSummary
		for _, j := range files {
			all = append(all, pr.device[j]...)
		}
		pr.unitDevice[i] = all
	}
}

// deviceSummaries parses file j for its device summaries (none when it
// cannot be read or parsed).
func (pr *projectRun) deviceSummaries(parser **cudaparse.Parser, j int) (out []cudaparse.DeviceSummary) {
	defer func() {
		if recover() != nil {
			out = nil // a bug in the facts: the file takes no part
		}
	}()
	src, err := ReadSource(pr.sources.abs(j))
	if err != nil || binaryError(src) != nil {
		return nil
	}
	c := &Checker{ParseLimit: pr.opts.ParseLimit, MaxParseBytes: pr.opts.MaxParseBytes, Facts: cudaparse.ProjectFacts{Macros: pr.visibleMacros(j)}}
	f, err := c.parse(parser, pr.sources.shown(j), src, false)
	if err != nil || f == nil {
		return nil
	}
	return f.DeviceSummaries()
}

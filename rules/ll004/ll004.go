// Package ll004 reports code that treats cuModuleLoad* as having put a
// module's kernels on the device: memory or time measured around the load.
package ll004

import (
	_ "embed"
	"fmt"
	"regexp"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/rule"
)

//go:embed doc.md
var doc string

// Rule is LL004.
var Rule = &rule.Rule{
	ID:       "LL004",
	Name:     "module-load-assumed-resident",
	Severity: rule.Warning,
	Since:    "0.1.0",
	Summary:  "memory or time measured around cuModuleLoad, which no longer loads the kernels",
	Doc:      doc,
	Triggers: []string{"cuModuleLoad", "cuLibraryLoad"},
	Run:      run,
}

// loadCalls load a module or library image.
var loadCalls = map[string]bool{
	"cuModuleLoad": true, "cuModuleLoadData": true, "cuModuleLoadDataEx": true, "cuModuleLoadFatBinary": true,
	"cuLibraryLoadData": true, "cuLibraryLoadFromFile": true,
}

// resolveCalls make kernels resident: after one of them, a measurement
// does see the load.
var resolveCalls = map[string]bool{
	"cuModuleGetFunction": true, "cuFuncLoad": true, "cuKernelGetFunction": true,
	"cuLaunchKernel": true, "cuLaunchKernelEx": true, "cuLaunchCooperativeKernel": true,
}

var memoryQueries = map[string]bool{"cuMemGetInfo": true, "cuMemGetInfo_v2": true, "cudaMemGetInfo": true}

// residentIntent matches names of functions meant to make code resident.
var residentIntent = regexp.MustCompile(`(?i)preload|warm_?up|prefetch|resident|load_?all|eager`)

func run(p *rule.Pass) {
	f := p.File
	for _, load := range f.Calls {
		if !loadCalls[load.Name] || load.Func == nil {
			continue
		}
		fn := load.Func
		resolved := func(from, to int) bool { return resolvedBetween(f, fn, from, to) }
		// (a) device memory queried before and after the load.
		if before, after := memoryAround(f, load); before != nil && after != nil && !resolved(load.Node.End(), after.Node.Start()) {
			p.Report(load.Callee, fmt.Sprintf("device memory is measured around %s, but under lazy loading the load puts no kernels on the device (measured: a 10 MB cubin with 301 kernels took 0 KB lazily, 10,240 KB eagerly); call cuModuleGetFunction or cuFuncLoad for every kernel before the second query, or run with CUDA_MODULE_LOADING=EAGER", load.Name),
				rule.Related(before.Node, "memory queried before"), rule.Related(after.Node, "and after"))
			continue
		}
		// (b) time measured around the load.
		reported := false
		for _, r := range f.TimedRegions(fn) {
			if r.Contains(load.Node) && !resolved(load.Node.End(), r.To) {
				p.Report(load.Callee, fmt.Sprintf("%s is timed as if it loaded the module, but under lazy loading the kernels load at first use, outside this measurement (measured: 5.6 ms lazily, 14.6 ms eagerly for 301 kernels); include cuModuleGetFunction or cuFuncLoad of every kernel in the timed region, or time the first launches", load.Name),
					rule.Related(r.Start, "timer starts here"), rule.Related(r.Stop, "and stops here"))
				reported = true
				break
			}
		}
		if reported {
			continue
		}
		// (c) a function meant to make kernels resident that only loads.
		if residentIntent.MatchString(fn.Name) && !resolved(load.Node.End(), fn.Node.End()) {
			p.Report(load.Callee, fmt.Sprintf("%s only loads the module: under lazy loading that does not make its kernels resident; call cuModuleGetFunction (or cuFuncLoad) for each kernel here", fn.Name))
		}
	}
}

// memoryAround returns the last memory query before the load and the
// first after it, in the load's function.
func memoryAround(f *cudaparse.File, load *cudaparse.Call) (before, after *cudaparse.Call) {
	for _, c := range f.Calls {
		if c.Func != load.Func || !isMemoryQuery(f, c) {
			continue
		}
		switch {
		case c.Node.End() <= load.Node.Start():
			before = c
		case c.Node.Start() >= load.Node.End() && after == nil:
			after = c
		}
	}
	return before, after
}

// isMemoryQuery reports whether c queries device memory, directly or
// through a function of the file that does (`size_t free_memory()`).
func isMemoryQuery(f *cudaparse.File, c *cudaparse.Call) bool {
	if memoryQueries[c.Name] {
		return true
	}
	helper := f.FunctionNamed(c.Name)
	if helper == nil || helper == c.Func {
		return false
	}
	for _, inner := range f.Calls {
		if inner.Func == helper && memoryQueries[inner.Name] {
			return true
		}
	}
	return false
}

// resolvedBetween reports whether a call that makes kernels resident (or a
// launch) happens in fn between the offsets.
func resolvedBetween(f *cudaparse.File, fn *cudaparse.Function, from, to int) bool {
	for _, c := range f.Calls {
		if c.Func == fn && resolveCalls[c.Name] && c.Node.Start() >= from && c.Node.End() <= to {
			return true
		}
	}
	for _, l := range f.Launches {
		if l.Func == fn && l.Node.Start() >= from && l.Node.End() <= to {
			return true
		}
	}
	return false
}

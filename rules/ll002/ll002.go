// Package ll002 reports timed regions that contain the first launch of a
// kernel: under lazy loading the measurement includes loading the kernel.
package ll002

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/fix"
)

//go:embed doc.md
var doc string

// Rule is LL002.
var Rule = &rule.Rule{
	ID:        "LL002",
	Name:      "untimed-first-launch",
	Severity:  rule.Warning,
	Since:     "0.1.0",
	Summary:   "a timed region contains a kernel's first launch, so the measurement includes loading the kernel",
	Doc:       doc,
	Prefilter: prefilter,
	// A warm-up in every caller, in any file, loads the kernel first.
	Requires: []*rule.Fact{rule.CallerLoads},
	Run:      run,
}

// prefilter: a file needs a clock and a launch; either may be a call of a
// function another file of the project defines (a timer helper, a
// launcher).
//
// Its launch words are the launch syntax and APIs, "LaunchKernel" for
// HIP's hipLaunchKernelGGL, which a header may define as a launch macro,
// and a CUTLASS device-level operator's namespace.
// Its clock words are what the recognizer (cudaparse.ClockOf) accepts:
// cudaparse.ClockReadSpellings, or a timer object's name with one of its
// methods' calls, and a benchmark state loop's `state)`.
func prefilter(text *rule.Text) bool {
	clock := text.ContainsAny(clockSpellings...) || text.ContainsAny(timerObjects...) && text.ContainsAny(timerCalls...) ||
		text.Contains("state)") || text.CallsProjectClock()
	return clock && (text.ContainsAny(launchSpellings...) || text.ContainsAny("LaunchKernel", "LaunchCooperativeKernel", "cub::", "thrust::") ||
		text.Contains("cutlass::") && text.Contains("::device::") ||
		text.ContainsAny(libraryLaunches...) || text.Contains(knowledge.GinkgoDeviceExecutor) || text.CallsProjectLoader())
}

var (
	clockSpellings  = knowledge.ClockReadSpellings()
	launchSpellings = knowledge.LaunchSpellings()
	timerObjects    = knowledge.TimerObjectSpellings()
	timerCalls      = knowledge.TimerCallSpellings()
	// libraryLaunches: the portability layers' parallel patterns.
	libraryLaunches = knowledge.LibraryLaunchSpellings()
)

// kernelUse is something a function does to kernels at one place: launch
// them, preload them, or call a function of the file that does.
type kernelUse struct {
	node      cudaparse.Node
	launched  []string          // kernel keys launched here (for a call: by the callee, first launches)
	preloaded []string          // kernel keys loaded here without a launch
	all       bool              // preloads every kernel (a loop over a table of kernels)
	via       string            // the function called here that launches, when node is a call
	launch    *cudaparse.Launch // the launch itself, when node is one
	// library: the use is a call of a CUB or thrust algorithm, whose
	// kernels the file instantiates (libraries.go).
	library bool
	// runsAt is where the use runs when that is not where it is written:
	// the call of a timing helper that runs the lambda holding it.
	runsAt cudaparse.Node
	// switchesTimer: the callee switches a timer set itself
	// (knowledge.SwitchingTimers): its launches fall in its own
	// categories, not in the caller's region; they still warm up.
	switchesTimer bool
}

// at is where the use runs.
func (u kernelUse) at() cudaparse.Node {
	if u.runsAt.Valid() {
		return u.runsAt
	}
	return u.node
}

// summary is what a function of the file does to kernels, transitively.
type summary struct {
	launched, preloaded []string
	all                 bool
	// launchedParams are the parameters whose kernel the function launches
	// itself: its callers' arguments name the kernels.
	launchedParams []int
	// preloadedParams are the parameters whose kernel it preloads, itself
	// or through the functions it hands them to.
	preloadedParams []int
}

// argumentKernels returns the keys of the kernels a call passes at params.
func (a *analysis) argumentKernels(c *cudaparse.Call, params []int) []string {
	var out []string
	for _, i := range params {
		if key := a.file.ArgumentKernelKey(c.Arg(i)); key != "" {
			out = append(out, key)
		}
	}
	return out
}

// instantiated returns the kernels a call c of another file's function
// launches for the types of its arguments (link.KernelFacts.Typed): each
// functor type a framework's launch helper is handed is a kernel of its
// own; where the argument's type is not known, the template's name, which
// any instantiation loaded before matches.
func (a *analysis) instantiated(c *cudaparse.Call, k *link.KernelFacts) []string {
	return k.Instantiated(func(param int) string { return a.file.ArgumentType(c, param) })
}

type analysis struct {
	pass      *rule.Pass
	file      *cudaparse.File
	preloads  []cudaparse.Preload
	summaries map[*cudaparse.Function]*summary
	// siteKeys maps the keys of the file's library launches to their keys
	// in the project's facts (libraryLaunch).
	siteKeys map[string]string
	// act finds where main may touch CUDA before its timer (made when
	// first asked: startsWithProgram).
	act *cudaparse.Activity
	// cutlassNames are the objects the file declares of CUTLASS operator
	// types, cutlassTypes the verdict on each type asked (libraries.go).
	cutlassNames map[string]bool
	cutlassTypes map[string]bool
}

func run(p *rule.Pass) {
	a := &analysis{pass: p, file: p.File, preloads: p.File.Preloads(), summaries: map[*cudaparse.Function]*summary{}, siteKeys: map[string]string{}}
	helpers := a.timingHelpers()
	for _, fn := range p.File.Functions {
		if fn.Space&cudaparse.SpaceHost == 0 {
			continue // device code times with clock64(); launches there are device-side
		}
		regions := p.File.TimedRegions(fn)
		if len(regions) == 0 && len(helpers) == 0 {
			continue
		}
		uses := a.uses(fn)
		a.placeHelperLambdas(fn, helpers, uses)
		// Kernels every known caller (in any file) loads before calling fn.
		onEntry := p.CallerLoads().LoadedOnEntry(p.ProjectFunction(fn))
		reported := map[int]bool{}
		if len(helpers) > 0 || len(a.file.LambdaVariables(fn)) > 0 {
			a.checkHelperCalls(fn, helpers, uses, onEntry, reported)
		}
		placed := slices.ContainsFunc(uses, func(u kernelUse) bool { return u.runsAt.Valid() })
		for _, r := range regions {
			if (r.IsBenchmarkLoop() || inBenchmarkLoop(regions, r)) && !p.File.FixedIterations(fn.Name) || r.IsBenchmarkLoop() && p.File.ManualTime(fn) || warmedByEarlierCall(p.File, fn, r) || warmedByRunner(p.File, fn, r) || timedByTemplateFlag(fn, r) || a.startsWithProgram(fn, r) {
				// Google Benchmark runs the loop once to size the run and
				// reports a later run: the loads fall in the discarded one.
				continue
			}
			// Events read only after the loop that records them: the
			// last iteration's time, whatever launches lie in it.
			lastIteration := readAfterItsLoop(a.file, fn, r)
			for i, u := range uses {
				// Where the use runs: a lambda's launch runs where the
				// lambda is called.
				at := u.at()
				earlier := uses[:i] // in source order, unless a lambda's use runs elsewhere
				if placed {
					earlier = runBefore(uses, at)
				}
				if !r.Contains(at) || u.switchesTimer || reported[u.node.Start()] || warmedByEarlierIteration(r, at) || lastIteration || a.sampleDiscarded(fn, r, at) {
					continue
				}
				var cold []string // the kernels launched here for the first time
				for _, key := range u.launched {
					if !onEntry.Loads(key) && !onEntry.Loads(a.siteKeys[key]) && !warmedUp(outsidePreloads(earlier, r), at, key) {
						cold = append(cold, key)
					}
				}
				if len(cold) > 0 {
					cold = a.coldWhenRead(fn, r, outsidePreloads(earlier, r), at, cold)
				}
				if len(cold) == 0 {
					continue
				}
				reported[u.node.Start()] = true
				opts := a.findingOptions(cold[0], u, r, firstRead(regions))
				msg := message(cold, u, r)
				if a.onlyTestBound(fn, r) {
					opts = append(opts, rule.AtMost(rule.Info))
					msg += "; the measurement only feeds a test's assertion, so this is reported as info"
				}
				p.Report(u.node, msg, opts...)
			}
		}
	}
}

// maxNamedKernels is how many kernels a finding names.
const maxNamedKernels = 4

// message words a finding about the first launches of the cold kernels
// at u. A called function that launches several of them names them all:
// which runs may depend on its arguments (`isDevice(a) ? byRef(a) :
// byVal(a)`), and naming the first alone named a kernel that the call
// never launches.
func message(cold []string, u kernelUse, r cudaparse.TimedRegion) string {
	var names []string // each kernel once: a helper may launch one twice
	for _, k := range cold {
		if !slices.Contains(names, k) {
			names = append(names, k)
		}
	}
	key := names[0]
	if u.via != "" && len(names) > 1 {
		list := strings.Join(names[:min(len(names), maxNamedKernels)], ", ")
		if len(names) > maxNamedKernels {
			list += fmt.Sprintf(" and %d more", len(names)-maxNamedKernels)
		}
		return fmt.Sprintf("%s, called in a timed region (%s), launches kernels not launched before in this function (%s): under lazy loading the measurement includes loading those it runs (20x a warm launch on an H100); call it once, or preload them (cudaFuncGetAttributes), before the timer starts",
			u.via, clockName(r), list)
	}
	if u.library && strings.HasPrefix(key, knowledge.GinkgoKeyPrefix) {
		return fmt.Sprintf("the first call of %s in this function is timed (%s): on a CUDA executor it runs kernels of Ginkgo's CUDA library, which under lazy loading load at their first launch, here; run it once (a warm-up generate or apply) before the timer starts",
			key, clockName(r))
	}
	if u.library {
		return fmt.Sprintf("the first call of %s in this function is timed (%s): its kernels are templates instantiated in this file, and under lazy loading they load at this call (on an H100 a first cub::DeviceReduce::Sum took 2.5x a warm one under LAZY, no more than a warm one under EAGER); call it once before the timer starts",
			key, clockName(r))
	}
	where := "is timed"
	if u.via != "" {
		where = fmt.Sprintf("happens in %s, called in a timed region", u.via)
	}
	return fmt.Sprintf("the first launch of %s%s in this function %s (%s): under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before the timer starts",
		key, cudaparse.InstantiationNote(key), where, clockName(r))
}

func clockName(r cudaparse.TimedRegion) string {
	if r.Clock == cudaparse.ClockEvent || r.EventTimer {
		return "CUDA events"
	}
	return "host clock"
}

// inBenchmarkLoop reports whether r is timed inside a Google Benchmark
// loop of the function (manual timing: state.SetIterationTime): the loop's
// first, sizing run is discarded like its own time.
func inBenchmarkLoop(regions []cudaparse.TimedRegion, r cudaparse.TimedRegion) bool {
	for _, b := range regions {
		if b.IsBenchmarkLoop() && b.From <= r.From && r.To <= b.To && b != r {
			return true
		}
	}
	return false
}

// findingOptions returns a finding's related places and its fix: the
// preload goes before the function's first clock read (first), at the top
// level of the function: outside every measured interval, every loop and
// every condition (a preload before the region's own start can land in
// another measured interval, or run on every iteration).
func (a *analysis) findingOptions(key string, u kernelUse, r cudaparse.TimedRegion, first cudaparse.Node) []rule.FindingOption {
	opts := []rule.FindingOption{rule.Related(r.Start, "timer starts here"), rule.Related(r.Stop, "and stops here")}
	if u.launch != nil && fix.IsSymbolLaunch(u.launch) {
		if f, ok := fix.PreloadKernelAtTop(a.file, first, u.node, key, "load before timing"); ok {
			opts = append(opts, rule.WithFix(f))
		}
	}
	return opts
}

// firstRead returns the earliest clock read that starts a region.
func firstRead(regions []cudaparse.TimedRegion) cudaparse.Node {
	var first cudaparse.Node
	for _, r := range regions {
		if !first.Valid() || r.Start.Start() < first.Start() {
			first = r.Start
		}
	}
	return first
}

// outsidePreloads drops the preloads made inside the timed region: a
// cudaFuncSetAttribute or cudaFuncGetAttributes there loads the kernel
// while the timer runs, which is the load the measurement should not hold.
func outsidePreloads(uses []kernelUse, r cudaparse.TimedRegion) []kernelUse {
	var out []kernelUse
	for _, u := range uses {
		if len(u.launched) == 0 && r.Contains(u.at()) {
			continue
		}
		out = append(out, u)
	}
	return out
}

// warmedUp reports whether one of the earlier uses launches or loads the
// kernel on the way to at.
// runBefore returns the uses that run before node at: written
// before it, or placed at a call before it (a lambda's).
func runBefore(uses []kernelUse, at cudaparse.Node) []kernelUse {
	var out []kernelUse
	for _, u := range uses {
		if u.at().Start() < at.Start() {
			out = append(out, u)
		}
	}
	return out
}

func warmedUp(earlier []kernelUse, at cudaparse.Node, key string) bool {
	for _, e := range earlier {
		if !cudaparse.OnTheWay(e.at(), at) {
			continue
		}
		if e.all || containsKernel(e.launched, key) || containsKernel(e.preloaded, key) {
			return true
		}
	}
	return false
}

func containsKernel(keys []string, key string) bool {
	for _, k := range keys {
		if cudaparse.SameKernel(k, key) {
			return true
		}
	}
	return false
}

// uses lists, in source order, what fn does to kernels.
func (a *analysis) uses(fn *cudaparse.Function) []kernelUse {
	var out []kernelUse
	for _, l := range a.file.Launches {
		if l.Func == fn && a.file.LaunchMayLoad(l) {
			if _, ok := a.file.KernelParam(fn, l); ok {
				// The caller's kernel, handed in: its calls say which
				// (summarize), and a timing helper's callers are checked
				// at the call (checkHelperKernel).
				continue
			}
			out = append(out, kernelUse{node: l.Node, launched: []string{l.KernelKey()}, launch: l})
		}
	}
	for _, p := range a.preloads {
		if p.Call.Func == fn && !p.FromParam { // a parameter's: the caller's kernel
			out = append(out, kernelUse{node: p.Call.Node, preloaded: p.Keys, all: p.All})
		}
	}
	for _, c := range a.file.Calls {
		if c.Func != fn {
			continue
		}
		if u, ok := a.callUse(fn, c); ok {
			out = append(out, u)
		}
	}
	// A branch the preprocessor's constants never take launches nothing,
	// and warms nothing up (`if (USE_OPTIMIZED) fast<<<...>>>(); else
	// basic<<<...>>>();` with `#define USE_OPTIMIZED 0`).
	out = slices.DeleteFunc(out, func(u kernelUse) bool { return a.file.NeverRuns(u.node) })
	a.placeCalledLambdas(fn, out)
	sortUses(out)
	return out
}

// placeCalledLambdas sets where the uses inside a lambda that fn binds to
// a variable and calls (`auto setup = [&] { cudaFuncSetAttribute(k, ...);
// }; setup();`) run: at its first call, not where the lambda is written.
// A lambda handed to a timing helper is placed at the helper's call later
// (placeHelperLambdas).
func (a *analysis) placeCalledLambdas(fn *cudaparse.Function, uses []kernelUse) {
	placed := map[cudaparse.Node]bool{}
	for _, c := range a.file.CallsIn(fn) {
		if !c.Callee.Is("identifier") {
			continue
		}
		lambda := a.file.LambdaVariable(fn, c.Callee)
		if !lambda.Valid() || lambda.Contains(c.Node) || placed[lambda] {
			continue
		}
		placed[lambda] = true
		for i := range uses {
			if lambda.Contains(uses[i].node) && !uses[i].runsAt.Valid() {
				uses[i].runsAt = c.Node
			}
		}
	}
}

// callUse returns what a call of fn does to kernels: a library's launch,
// or the launches and preloads of the function it calls (of the file, or
// of another file of the project), kernels it is handed included.
func (a *analysis) callUse(fn *cudaparse.Function, c *cudaparse.Call) (kernelUse, bool) {
	if key, ok := a.libraryLaunch(c); ok {
		return kernelUse{node: c.Node, launched: []string{key}, library: true}, !a.hostOnlyBranch(c.Node)
	}
	callee := a.file.FunctionNamed(c.Name)
	if callee != nil && callsOtherObject(c) {
		// gemm.run() is the run of gemm's class, not a run the file
		// defines for another class: the one of the object's class, when
		// the file defines it.
		if callee = a.file.MethodCalled(c, a.pass.Loaders().Bases); callee == nil {
			return kernelUse{}, false
		}
	}
	if a.hostOnlyBranch(c.Node) {
		// Built only without a GPU (`#ifndef AMREX_USE_GPU`), or on the
		// host branch of a compile-time device test: what it calls runs
		// no kernel of a GPU build, like a launch written there.
		return kernelUse{}, false
	}
	if callee == nil {
		// A function of another file of the project.
		pf := a.pass.ResolveCall(c)
		if pf == nil {
			return kernelUse{}, false
		}
		k := a.pass.Loaders().Kernels(pf)
		if k.Empty() {
			return kernelUse{}, false
		}
		launched := append(slices.Clone(k.Launched), a.argumentKernels(c, k.LaunchedParams)...)
		launched = append(launched, a.instantiated(c, k)...)
		preloaded := append(slices.Clone(k.Preloaded), a.argumentKernels(c, k.PreloadedParams)...)
		switches := false
		definition := pf.Summary()
		for _, st := range definition.AllSteps() {
			switches = switches || st.Kind == cudaparse.StepCall && knowledge.SwitchingTimers[st.Callee]
		}
		return kernelUse{node: c.Node, launched: launched, preloaded: preloaded, all: k.All, via: pf.String(), switchesTimer: switches}, true
	}
	if callee == fn || callee.Space&cudaparse.SpaceHost == 0 {
		return kernelUse{}, false
	}
	s := a.summarize(callee, 0)
	launched := append(slices.Clone(s.launched), a.argumentKernels(c, s.launchedParams)...)
	preloaded := append(slices.Clone(s.preloaded), a.argumentKernels(c, s.preloadedParams)...)
	if len(launched) == 0 && len(preloaded) == 0 && !s.all {
		return kernelUse{}, false
	}
	switches := slices.ContainsFunc(a.file.CallsIn(callee), func(c *cudaparse.Call) bool { return knowledge.SwitchingTimers[c.Name] })
	return kernelUse{node: c.Node, launched: launched, preloaded: preloaded, all: s.all, via: callee.Name, switchesTimer: switches}, true
}

func sortUses(us []kernelUse) {
	for i := 1; i < len(us); i++ {
		for j := i; j > 0 && us[j].node.Start() < us[j-1].node.Start(); j-- {
			us[j], us[j-1] = us[j-1], us[j]
		}
	}
}

const maxCallDepth = 4

// summarize returns what fn does to kernels, following calls to other
// functions of the file.
func (a *analysis) summarize(fn *cudaparse.Function, depth int) *summary {
	if s, ok := a.summaries[fn]; ok {
		return s
	}
	s := &summary{}
	a.summaries[fn] = s // breaks recursion
	if depth > maxCallDepth {
		return s
	}
	for _, l := range a.file.Launches {
		// A driver-API launch of a CUfunction handle loads nothing: the
		// handle was loaded when it was obtained (as in uses, and in the
		// project's summaries).
		if l.Func != fn || !a.file.LaunchMayLoad(l) {
			continue
		}
		if i, ok := a.file.KernelParam(fn, l); ok {
			s.launchedParams = append(s.launchedParams, i)
			continue
		}
		s.launched = append(s.launched, l.KernelKey())
	}
	for _, p := range a.preloads {
		switch {
		case p.Call.Func != fn:
		case p.FromParam:
			s.preloadedParams = appendParam(s.preloadedParams, p.Param)
		default:
			s.preloaded = append(s.preloaded, p.Keys...)
			s.all = s.all || p.All
		}
	}
	for _, c := range a.file.Calls {
		if c.Func != fn {
			continue
		}
		// A portability layer's parallel pattern in a helper of the file
		// (`void axpy(...) { Kokkos::parallel_for(...); }`) launches its
		// lambda's kernel wherever the helper is called.
		if key, ok := a.libraryLaunch(c); ok {
			if !a.hostOnlyBranch(c.Node) {
				s.launched = append(s.launched, key)
			}
			continue
		}
		if a.hostOnlyBranch(c.Node) {
			continue // see callUse
		}
		if callee := a.file.FunctionNamed(c.Name); callee != nil && callee != fn {
			cs := a.summarize(callee, depth+1)
			s.launched = append(s.launched, cs.launched...)
			s.preloaded = append(s.preloaded, cs.preloaded...)
			s.all = s.all || cs.all
			a.passPreloads(fn, c, cs.preloadedParams, s)
		} else if pf := a.pass.ResolveCall(c); pf != nil {
			k := a.pass.Loaders().Kernels(pf)
			s.launched = append(s.launched, k.Launched...)
			s.launched = append(s.launched, a.instantiated(c, k)...)
			s.preloaded = append(s.preloaded, k.Preloaded...)
			s.all = s.all || k.All
			a.passPreloads(fn, c, k.PreloadedParams, s)
		}
	}
	return s
}

// passPreloads adds to s what call c of fn preloads through the callee's
// parameters params: the kernel an argument names, or, for an argument
// that passes on one of fn's parameters, that parameter (the caller's
// kernel again).
func (a *analysis) passPreloads(fn *cudaparse.Function, c *cudaparse.Call, params []int, s *summary) {
	for _, i := range params {
		arg := c.Arg(i)
		if !arg.Valid() {
			continue
		}
		if own, ok := a.file.KernelParamOf(fn, arg); ok {
			s.preloadedParams = appendParam(s.preloadedParams, own)
		} else if key := a.file.ArgumentKernelKey(arg); key != "" {
			s.preloaded = append(s.preloaded, key)
		}
	}
}

func appendParam(params []int, i int) []int {
	if slices.Contains(params, i) {
		return params
	}
	return append(params, i)
}

// timedByTemplateFlag reports whether r's timer starts only in some
// instantiations of fn: under `if constexpr (DoTime)` where DoTime is a
// template parameter of fn. Such a function is written to run untimed too,
// as its own warm-up (cutlass's run_permute<false> before
// run_permute<true>); which instantiation its callers run first is not
// followed, and the finding is not made.
func timedByTemplateFlag(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	tmpl := fn.Node.Parent()
	if !tmpl.Is("template_declaration") {
		return false
	}
	params := tmpl.ChildByField("parameters").Text()
	for p := r.Start.Parent(); p.Valid() && p != fn.Node; p = p.Parent() {
		if !p.Is("if_statement") || !strings.HasPrefix(compact(p.Text()), "ifconstexpr") {
			continue
		}
		flag := strings.Trim(compact(p.ChildByField("condition").Text()), "()!")
		if identRE.FindString(flag) == flag && slices.Contains(identRE.FindAllString(params, -1), flag) {
			return true
		}
	}
	return false
}

// warmedByEarlierIteration reports whether the timer starts under a
// condition inside a loop that also holds the launch: `for (i = -1; i < n;
// i++) { if (i == 0) start(); launch(); }`. The iterations before the
// timer starts run the launch: a warm-up written into the loop.
func warmedByEarlierIteration(r cudaparse.TimedRegion, launch cudaparse.Node) bool {
	for p := r.Start.Parent(); p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda_expression":
			return false
		case "for_statement", "while_statement", "do_statement", "for_range_loop":
			if !p.Contains(launch) {
				return false
			}
			// A loop that runs warm-up iterations first:
			// `for (it = 0; it < warmup_iters + iters; ++it)`.
			if warmupBound.MatchString(p.ChildByField("condition").Text()) {
				return true
			}
			// The start must be conditional on the loop's variable
			// (`if (i == 0)`, `if (iter == warmup)`): a condition on
			// anything else (`if (rank == 0)`) holds on the first
			// iteration too.
			loopVar := loopVariable(p)
			if loopVar == "" {
				return false
			}
			for q := r.Start.Parent(); q.Valid() && q != p; q = q.Parent() {
				if q.Is("if_statement", "conditional_expression") && mentions(q.ChildByField("condition"), loopVar) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// readAfterItsLoop reports whether an event region recorded in a loop is
// read only after the loop: `for (...) { cudaEventRecord(start);
// k<<<...>>>(); cudaEventRecord(stop); }` then `cudaEventElapsedTime(&ms,
// start, stop)`. Each iteration records the events again, so the read
// measures the last iteration, which the ones before it warmed up (what
// the region holds lies in the loop too); a loop written to run once (`i
// < 1`) has no such.
func readAfterItsLoop(f *cudaparse.File, fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	if r.Clock != cudaparse.ClockEvent {
		return false
	}
	var loop cudaparse.Node
	for p := r.Start.Parent(); p.Valid() && !loop.Valid(); p = p.Parent() {
		switch {
		case p.Is("function_definition", "lambda_expression"):
			return false
		case p.Is("for_statement", "while_statement", "do_statement", "for_range_loop"):
			loop = p
		}
	}
	if !loop.Valid() || !loop.Contains(r.Stop) || runsOnce(loop) {
		return false
	}
	start, stop := recordedEvent(r.Start), recordedEvent(r.Stop)
	if start == "" || stop == "" {
		return false
	}
	reads := 0
	for _, c := range f.Calls {
		if c.Func != fn || !knowledge.IsEventElapsed(c.Name) || len(c.Args) < 3 ||
			compact(c.Args[1].Text()) != start || compact(c.Args[2].Text()) != stop {
			continue
		}
		if c.Node.Start() < loop.End() {
			return false // read in the loop (each iteration's, the first's too) or before it
		}
		reads++
	}
	return reads > 0
}

// recordedEvent returns the event a record call records, as written
// without blanks ("" when the call has no argument).
func recordedEvent(record cudaparse.Node) string {
	args := record.ChildByField("arguments").NamedChildren()
	if len(args) == 0 {
		return ""
	}
	return compact(args[0].Text())
}

// runsOnce reports whether a for loop's condition bounds it to one
// iteration from 0: `i < 1`, `i <= 0`.
func runsOnce(loop cudaparse.Node) bool {
	cond := compact(loop.ChildByField("condition").Text())
	return strings.HasSuffix(cond, "<1") || strings.HasSuffix(cond, "<=0")
}

// warmupBound matches a loop condition that counts warm-up iterations in:
// `i < warmup + iters`, `it < kWarmupIters + kIters`.
var warmupBound = regexp.MustCompile(`(?i)warm\w*\s*\+|\+\s*\w*warm`)

// warmedByEarlierCall reports whether the timed region lies in a lambda
// that the function first calls for nothing but its effect (`run(1);`, its
// result dropped) and then again: the first call is the warm-up.
func warmedByEarlierCall(f *cudaparse.File, fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	lambda := r.Start.Ancestor("lambda_expression")
	if !lambda.Valid() {
		return false
	}
	for name, l := range f.LambdaVariables(fn) {
		if l != lambda {
			continue
		}
		var calls []*cudaparse.Call
		for _, c := range f.Calls {
			if c.Func == fn && c.Name == name && c.Callee.Is("identifier") && !lambda.Contains(c.Node) {
				calls = append(calls, c)
			}
		}
		return len(calls) >= 2 && calls[0].Node.Parent().Is("expression_statement")
	}
	return false
}

// loopVariable returns the variable a for loop counts with (`for (int i =
// -1; ...)`, `for (auto x : xs)`), or "".
func loopVariable(loop cudaparse.Node) string {
	switch {
	case loop.Is("for_statement"):
		init := loop.ChildByField("initializer")
		if init.Is("declaration") {
			return cudaparse.DeclaredName(init.ChildByField("declarator"))
		}
		if init.Is("assignment_expression") {
			return init.ChildByField("left").Name()
		}
	case loop.Is("for_range_loop"):
		return cudaparse.DeclaredName(loop.ChildByField("declarator"))
	}
	return ""
}

// mentions reports whether the name occurs in n as an identifier.
func mentions(n cudaparse.Node, name string) bool {
	found := false
	n.Descendants(func(d cudaparse.Node) bool {
		if d.Is("identifier") && d.Text() == name {
			found = true
		}
		return !found
	})
	return found || n.Is("identifier") && n.Text() == name
}

// callsOtherObject reports whether a call is a method call on an object
// other than this (obj.f(), p->f()): the callee is the method of that
// object's class, which a file's function of the same name need not be.
func callsOtherObject(c *cudaparse.Call) bool {
	if !c.Callee.Is("field_expression") {
		return false
	}
	recv := strings.TrimSpace(c.Callee.ChildByField("argument").Text())
	return recv != "this" && recv != "(*this)"
}

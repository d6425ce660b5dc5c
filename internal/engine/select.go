package engine

import (
	"maps"
	"slices"

	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// recheck lists the files whose result can change with the project's
// facts, and sets on each text what its prefilters should know.
func (pr *projectRun) recheck(p *link.Project, results sourceResults) []int {
	var candidates []int
	for i := range pr.facts {
		if pr.facts[i].is(factCandidate) {
			candidates = append(candidates, i)
		}
	}
	// Asked on the workers (each question takes the locks of what it
	// memoizes, and some read the file), gathered in order.
	again := make([]bool, len(candidates))
	onPool(len(candidates), pr.workers, func(_ *worker, k int) { again[k] = pr.needsRecheck(p, results, candidates[k]) })
	var out []int
	for k, i := range candidates {
		if again[k] {
			out = append(out, i)
		}
	}
	return out
}

// needsRecheck reports whether candidate file i may get other findings
// with the project's facts: a provider of a fact the file's rules see says
// so.
func (pr *projectRun) needsRecheck(p *link.Project, results sourceResults, i int) bool {
	for k := range providers {
		if pv := &providers[k]; pv.asks(results.findings(i)) && pv.affects(pr, p, i) {
			return true
		}
	}
	return false
}

// handsCodeTo reports whether file i may hand one of the timing helpers
// what they time: a lambda (its text holds one) or a host function of its
// own that launches (it spells a launch) for a helper that calls what it
// is handed, or a kernel (it defines one) for a helper that launches it.
func (pr *projectRun) handsCodeTo(helpers map[string]cudaparse.TimingHelper, i int) bool {
	ff := &pr.facts[i]
	for _, h := range helpers {
		if h.Kernel && ff.is(factDefinesKernels) || !h.Kernel && (ff.is(factLambdas) || ff.is(factLoader)) {
			return true
		}
	}
	return false
}

// mayTimeLoads reports whether file i can time a kernel load once another
// file's clock or timer class is known: it spells a launch or preload, or
// calls another file's function that loads (a clock alone times nothing
// that loads).
func (pr *projectRun) mayTimeLoads(p *link.Project, i int) bool {
	return pr.facts[i].is(factLoader) || pr.callsLoaderElsewhere(p, i)
}

// timerDefiners returns the files not summarized yet that define a timer
// class (fileFacts.timers) whose name a candidate file may spell: their
// summaries lend the class to the project.
func (pr *projectRun) timerDefiners() []int {
	var out []int
	var filterBuf []byte // the filters read from disk, one at a time
	for i := range pr.facts {
		ff := &pr.facts[i]
		if len(ff.scanResult().timers) == 0 || ff.summary() != nil {
			continue
		}
	search:
		for _, t := range ff.scanResult().timers {
			// The class's name, or a member the file declares of it
			// (`udata->t_advec.start()` names no class).
			for _, name := range append([]string{t.Class}, t.Members...) {
				probe := rule.NewNameProbe(name)
				for j := range pr.facts {
					if j != i && pr.facts[j].is(factCandidate) && pr.facts[j].hasFilter() && pr.facts[j].scanFilter(pr.spill, &filterBuf).MayContainProbe(probe) {
						if !pr.requested(i) {
							out = append(out, i)
						}
						break search
					}
				}
			}
		}
	}
	return out
}

// declaredTimers returns the timer classes of other files that file i
// (its text src, read when nil) declares objects of.
func (pr *projectRun) declaredTimers(p *link.Project, i int, src []byte) []knowledge.TimerClass {
	names, members := p.TimerClassNames(), p.TimerMemberNames()
	if len(names) == 0 || !pr.facts[i].hasFilter() {
		return nil
	}
	// The same question is asked in the recheck's selection and again in
	// the check, round after round, and each answer read the file: the
	// answers are kept while the project's timer classes stay the same.
	// The classes are compared, not joined into a key: a key a question
	// was all the classes' names each time. Past a budget the answers
	// start again (an answer a file asked about was 6 MB of sixteen
	// copies of the corpus checked as one project).
	pr.timersMu.Lock()
	same := func() bool { return slices.Equal(pr.timerNames, names) && slices.Equal(pr.timerMembers, members) }
	if !same() || len(pr.timersOf) >= maxTimersMemo {
		pr.timerNames, pr.timerMembers, pr.timersOf = names, members, map[int][]knowledge.TimerClass{}
	}
	got, ok := pr.timersOf[i]
	pr.timersMu.Unlock()
	if ok {
		return got
	}
	got = pr.declaredTimersIn(p, i, slices.Concat(names, members), src)
	pr.timersMu.Lock()
	if same() {
		pr.timersOf[i] = got
	}
	pr.timersMu.Unlock()
	return got
}

// maxTimersMemo bounds the answers declaredTimers keeps.
const maxTimersMemo = 1 << 14

// declaredTimersIn is declaredTimers without the memo; names are the
// timer classes' names and their members' (a file that spells none of
// them declares no timer of the project).
func (pr *projectRun) declaredTimersIn(p *link.Project, i int, names []string, src []byte) []knowledge.TimerClass {
	may := false
	nf := pr.facts[i].filter(pr.spill)
	for _, name := range names {
		may = may || nf.MayContain(name)
	}
	if !may {
		return nil
	}
	if src == nil {
		var err error
		if src, err = ReadSource(pr.sources.abs(i)); err != nil {
			return nil
		}
	}
	return p.DeclaredTimers(pr.sources.shown(i), src)
}

// calledNames are the names file i calls, from its summary or its scan.
func (pr *projectRun) calledNames(i int) []string {
	ff := &pr.facts[i]
	if ff.summary() == nil {
		if ff.is(factScanned) {
			out := make([]string, len(ff.found().calls()))
			for k, id := range ff.found().calls() {
				out[k] = pr.names.name(id)
			}
			return out
		}
		return nil
	}
	// Asked of a file in each provider's question, round after round:
	// kept by summary, whose steps are decoded anew each time.
	pr.calledMu.Lock()
	out, ok := pr.called[ff.summary()]
	pr.calledMu.Unlock()
	if ok {
		return out
	}
	seen := map[string]bool{}
	for _, fn := range ff.summary().EachFunction() {
		for _, st := range fn.AllSteps() {
			if st.Kind == cudaparse.StepCall && !seen[st.Callee] {
				seen[st.Callee] = true
				out = append(out, st.Callee)
			}
		}
	}
	out = slices.Clone(out) // of its size: it is kept
	pr.calledMu.Lock()
	// The memo grows with the summarized files (9 MB of eight copies of
	// the 38-project corpus while it was rechecked): past a budget it
	// starts again, each list a function of its summary alone.
	if pr.calledHeld += len(out) + 2; pr.called == nil || pr.calledHeld > maxCalledNames {
		pr.called = map[*cudaparse.FileSummary][]string{}
		pr.calledHeld = len(out) + 2
	}
	pr.called[ff.summary()] = out
	pr.calledMu.Unlock()
	return out
}

// maxCalledNames bounds the names calledNames keeps (16 bytes each, a
// list's header and map entry counted as two more: about 2 MB).
const maxCalledNames = 1 << 17

// callsLoaderElsewhere reports whether file i calls a function that
// another file defines and that launches or preloads kernels.
func (pr *projectRun) callsLoaderElsewhere(p *link.Project, i int) bool {
	names := pr.calledNames(i)
	source := pr.lazySource(i)
	var asFunction func(string) bool
	if pr.facts[i].summary() == nil && len(names) > 0 {
		// Names from the text alone: a name only ever called as a member
		// (x.size(), q->insert(k)) reaches its object's class's method,
		// which MethodLoads asks about, not a free function of the name
		// (a parse tells the two apart the same way).
		asFunction = func(name string) bool {
			src := source()
			return src == nil || cudaparse.CalledAsFunction(src, name)
		}
	}
	return callsProjectLoader(p, pr.sources.shown(i), names, pr.spells(i, source), asFunction)
}

// lazySource returns a reader of file i's text that reads it once, when
// first asked (nil when it cannot be read).
func (pr *projectRun) lazySource(i int) func() []byte {
	var src []byte
	read := false
	return func() []byte {
		if !read {
			src, _ = ReadSource(pr.sources.abs(i))
			read = true
		}
		return src
	}
}

// spelledIn returns whether src may declare a variable of a class.
func spelledIn(src []byte) func(string) bool {
	return func(class string) bool { return cudaparse.DeclaresVariableOf(src, class) }
}

// spells returns whether file i may declare a variable of a class: its
// name filter may hold the class's name, and its text (from source, read
// when first needed) declares one (cudaparse.DeclaresVariableOf).
func (pr *projectRun) spells(i int, source func() []byte) func(string) bool {
	filter := pr.facts[i].filter(pr.spill)
	return func(class string) bool {
		if filter != nil && !filter.MayContain(class) {
			return false
		}
		return cudaparse.DeclaresVariableOf(source(), class)
	}
}

// callsProjectLoader reports whether a file calling names calls a function
// another file defines and that launches or preloads kernels.
// A name the file calls only as a member (asFunction says no; nil: every
// name may be a function's) counts through MethodLoads alone.
func callsProjectLoader(p *link.Project, path string, names []string, spelled func(string) bool, asFunction func(string) bool) bool {
	for _, name := range names {
		if !p.SeesLoader(name, path) {
			continue
		}
		function := asFunction == nil || asFunction(name)
		if function && loadsElsewhere(p, p.Resolve(name, "", -1, path), path) || p.MethodLoads(name, path, spelled) {
			return true
		}
	}
	return false
}

// loadsElsewhere reports whether pf is a function of another file than
// path that launches or preloads kernels.
func loadsElsewhere(p *link.Project, pf *link.ProjectFunction, path string) bool {
	return pf != nil && pf.File() != path && !p.Kernels(pf).Empty()
}

// hasLoadingCallers reports whether a function of file i has callers that
// all load some kernel before calling it.
func (pr *projectRun) hasLoadingCallers(p *link.Project, i int) bool {
	sum := pr.facts[i].summary()
	if sum == nil {
		return false
	}
	for _, fn := range sum.EachFunction() {
		if pf := p.Function(sum.Path, fn.Name, int(fn.Line)); pf != nil && !p.LoadedOnEntry(pf).Empty() {
			return true
		}
	}
	return false
}

// callsHeaderMacro reports whether file i calls a renaming macro that a
// header it includes defines.
func (pr *projectRun) callsHeaderMacro(i int) bool {
	if !pr.mayCallHeaderMacro(i) {
		return false
	}
	t := pr.visibleMacros(i)
	if len(t) == 0 {
		return false
	}
	for _, name := range pr.calledNames(i) {
		if len(t[name]) > 0 {
			return true
		}
	}
	// Device code is not summarized: a READ_ONCE of a header in a kernel
	// shows only in the file's names.
	if nf := pr.facts[i].filter(pr.spill); nf != nil {
		for name := range t {
			if _, ok := t.VolatileAccess(name); ok && nf.MayContain(name) {
				return true
			}
		}
	}
	return false
}

// mayCallHeaderMacro is callsHeaderMacro's question asked of every macro of
// the project instead of those file i sees: false when the file names
// none of them, without walking its include closure (hundreds of headers
// for a file of a template library).
func (pr *projectRun) mayCallHeaderMacro(i int) bool {
	pr.macroMu.Lock()
	if pr.macroNames == nil {
		all := cudaparse.MacroTable{}
		all.Add(pr.opts.GlobalMacros...)
		for j := range pr.facts {
			all.Add(pr.facts[j].scanResult().macros...)
		}
		pr.macroNames = make(map[string]bool, len(all))
		for name := range all {
			pr.macroNames[name] = true
		}
		for _, name := range slices.Sorted(maps.Keys(all.VolatileAccessNames())) {
			pr.volatileMacros = append(pr.volatileMacros, rule.NewNameProbe(name))
		}
	}
	pr.macroMu.Unlock()
	for _, name := range pr.calledNames(i) {
		if pr.macroNames[name] {
			return true
		}
	}
	if nf := pr.facts[i].filter(pr.spill); nf != nil {
		for _, probe := range pr.volatileMacros {
			if nf.MayContainProbe(probe) {
				return true
			}
		}
	}
	return false
}

// timedCallsLoader reports whether a function of file i that measures
// (Timed), or a function of the file it calls, calls a function of another
// file that launches or preloads kernels: what LL002 would see differently
// with the project. A file without a summary (not parsed) is judged by the
// names it calls.
func (pr *projectRun) timedCallsLoader(p *link.Project, i int) bool {
	sum := pr.facts[i].summary()
	if sum == nil {
		// A file not parsed times a loader of another file only if it
		// reads a clock itself (loadCandidate: its names are those it
		// calls between two reads); one that would measure only with
		// another file's clock or timer class is chosen when it calls
		// or declares one (needsRecheck).
		return pr.facts[i].is(factLoadCandidate) && pr.callsLoaderElsewhere(p, i)
	}
	found := false
	spelled := pr.spells(i, pr.lazySource(i)) // the text read once, if a method call asks
	eachOutCall(sum, func(fn *cudaparse.FunctionSummary) bool { return fn.Timed }, func(fn *cudaparse.FunctionSummary, st *cudaparse.SummaryStep) bool {
		if !p.DefinesLoader(st.Callee) {
			return true
		}
		own := p.Function(sum.Path, fn.Name, int(fn.Line))
		if own == nil {
			return true
		}
		callee := p.ResolveStep(own, st)
		found = callee != nil && callee.File() != sum.Path && !p.Kernels(callee).Empty() ||
			// obj.f() read from the text, its object's class unknown
			// until a parse: a method f of some class that loads.
			st.Method && st.Qualifier == "" && p.MethodLoads(st.Callee, sum.Path, spelled)
		return !found
	})
	return found
}

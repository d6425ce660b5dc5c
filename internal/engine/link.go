package engine

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/knowledge"
)

// link runs step 2 and returns the linked project. What is looked for is
// driven by demand: the calls made by functions that measure (Timed), and
// what the functions they reach call in turn; never every call of a file,
// which on a template library pulls in most of its headers.
//
// also are more files to summarize, and follow the calls of, beside those
// the demand finds (what providers ask for: linkAlso), in their order.
func (pr *projectRun) link(also []int) *link.Project {
	pr.definedBy = map[string][]int{}
	pr.clockDefinedBy = map[string][]int{}
	timingDefinedBy := map[string][]int{}
	for i := range pr.facts {
		ff := &pr.facts[i]
		if ff.summary() != nil || !ff.is(factScanned) {
			continue
		}
		for _, id := range ff.found().defines() {
			name := pr.names.name(id)
			pr.definedBy[name] = append(pr.definedBy[name], i)
		}
		for _, id := range ff.found().clockDefines() {
			name := pr.names.name(id)
			pr.clockDefinedBy[name] = append(pr.clockDefinedBy[name], i)
		}
		for _, id := range ff.found().timingDefines() {
			name := pr.names.name(id)
			timingDefinedBy[name] = append(timingDefinedBy[name], i)
		}
	}
	pr.addMacroLoaders()
	pr.addClockOnlyCandidates()
	// What the files that may time a launcher of another file call, and
	// the timer helpers the files that launch may call.
	loadWanted := map[string][]int{} // name -> the files calling it
	clockWanted := map[string]bool{}
	var candidates []int
	// What each file calls (a summary's calls; between two clock calls,
	// for a file timed with another file's clock, which reads the file),
	// on the workers, then gathered in file order.
	var asked []int
	for i := range pr.facts {
		if ff := &pr.facts[i]; ff.summary() != nil || ff.is(factScanned) && ff.is(factClockCandidate) && !ff.is(factLoadCandidate) {
			asked = append(asked, i)
		}
	}
	calls := make([][]string, len(pr.facts))
	warmups := make([][]string, len(pr.facts))
	onPool(len(asked), pr.workers, func(_ *worker, k int) {
		if i := asked[k]; pr.facts[i].summary() != nil {
			calls[i] = pr.calledNames(i)
		} else {
			calls[i], warmups[i] = pr.timedByProjectClock(i)
		}
	})
	// What those files call before their timers may warm up what they
	// time: the definers that spell a launch or preload in a function of
	// the name (not the near files every name of a tree would bring).
	warmWanted := map[string][]int{}
	for i := range pr.facts {
		ff := &pr.facts[i]
		if ff.summary() != nil {
			// A parsed file may time with a helper of another file: then
			// none of its functions looks like it measures yet.
			for _, name := range calls[i] {
				clockWanted[name] = true
			}
			continue
		}
		if !ff.is(factScanned) {
			continue
		}
		if ff.is(factClockCandidate) && !ff.is(factLoadCandidate) {
			// A file that measures with another file's clock may also
			// time another file's launcher: what it calls between two
			// calls of such a clock.
			for _, name := range calls[i] {
				loadWanted[name] = append(loadWanted[name], i)
			}
			for _, name := range warmups[i] {
				warmWanted[name] = append(warmWanted[name], i)
			}
		}
		for _, id := range ff.found().calls() {
			if ff.is(factLoadCandidate) {
				name := pr.names.name(id)
				loadWanted[name] = append(loadWanted[name], i)
			}
			if ff.is(factClockCandidate) {
				clockWanted[pr.names.name(id)] = true
			}
		}
	}
	definers := pr.definersOf(loadWanted, true, nil)
	for _, name := range slices.Sorted(maps.Keys(loadWanted)) {
		for _, i := range definers[name] {
			if !pr.requested(i) {
				candidates = append(candidates, i)
			}
		}
	}
	warmDefiners := pr.definersOf(warmWanted, false, nil)
	for _, name := range slices.Sorted(maps.Keys(warmWanted)) {
		for _, i := range warmDefiners[name] {
			if !pr.requested(i) {
				candidates = append(candidates, i)
			}
		}
	}

	// Timer helpers the files that launch may call.
	var clockTodo []int
	for _, name := range slices.Sorted(maps.Keys(clockWanted)) {
		for _, i := range slices.Concat(pr.clockDefinedBy[name], timingDefinedBy[name]) {
			if !pr.requested(i) {
				clockTodo = append(clockTodo, i)
			}
		}
	}
	clockTodo = append(clockTodo, pr.timerDefiners()...)
	for _, i := range also {
		if !pr.requested(i) {
			candidates = append(candidates, i)
		}
	}
	pr.summarizeLexically(append(candidates, clockTodo...))
	// The timing helpers (timeGpu(f): f run between two clock reads) are
	// known once their files are summarized. A file that hands code to
	// one times what that code calls, as a file between two clock calls
	// does: its calls are what the launchers are looked for by.
	pr.timingHelpers, pr.clockReaders = pr.summarizedHelpers()
	if len(pr.timingHelpers) > 0 {
		more := map[string][]int{}
		for i := range pr.facts {
			ff := &pr.facts[i]
			if ff.summary() != nil || !ff.is(factScanned) || !ff.is(factClockCandidate) || ff.is(factLoadCandidate) ||
				!slices.ContainsFunc(ff.found().calls(), func(id nameID) bool { return pr.timingHelpers[pr.names.name(id)] }) {
				continue
			}
			for _, id := range ff.found().calls() {
				name := pr.names.name(id)
				more[name] = append(more[name], i)
				loadWanted[name] = append(loadWanted[name], i)
			}
		}
		definers := pr.definersOf(more, true, nil)
		var todo []int
		for _, name := range slices.Sorted(maps.Keys(more)) {
			for _, i := range definers[name] {
				if !pr.requested(i) {
					todo = append(todo, i)
				}
			}
		}
		pr.summarizeLexically(todo)
		candidates = append(candidates, todo...)
	}
	var from []int
	for i := range pr.facts {
		if pr.facts[i].summary() != nil {
			from = append(from, i)
		}
	}
	pr.linkFrom(from, nil)
	// What the functions the candidates call go on to call: the launch
	// may be further on, in a file that the called one's file calls.
	pr.linkFrom(candidates, knowledge.NameSet(slices.Collect(maps.Keys(loadWanted))...))
	return pr.project()
}

// summarizedHelpers returns the names of the summarized functions that
// time a parameter (FunctionSummary.TimesParam), and of the free ones
// that read a host clock once (FunctionSummary.ReadsClock).
func (pr *projectRun) summarizedHelpers() (helpers, clocks map[string]bool) {
	add := func(set *map[string]bool, name string) {
		if *set == nil {
			*set = map[string]bool{}
		}
		(*set)[name] = true
	}
	for i := range pr.facts {
		if sum := pr.facts[i].summary(); sum != nil {
			for _, fn := range sum.EachFunction() {
				if fn.TimesParam > 0 {
					add(&helpers, fn.Name)
				}
				if fn.ReadsClock && !fn.Timed && !fn.Member {
					add(&clocks, fn.Name)
				}
			}
		}
	}
	return helpers, clocks
}

// measures reports whether fn measures something: it reads a clock twice
// or more (Timed, or two calls of another file's timestamp helper, which
// its file's parse did not know), or hands code to a timing helper of the
// project.
func (pr *projectRun) measures(fn *cudaparse.FunctionSummary) bool {
	if fn.Timed {
		return true
	}
	if len(pr.timingHelpers) == 0 && len(pr.clockReaders) == 0 {
		return false
	}
	reads := 0
	for _, st := range fn.AllSteps() {
		if st.Kind != cudaparse.StepCall {
			continue
		}
		if pr.timingHelpers[st.Callee] {
			return true
		}
		if pr.clockReaders[st.Callee] && !st.Method {
			reads++
		}
	}
	return reads >= 2
}

// requested reports whether file i was asked for its summary already, and
// marks it so.
func (pr *projectRun) requested(i int) bool {
	if pr.asked == nil {
		pr.asked = map[int]bool{}
	}
	if pr.asked[i] || pr.facts[i].summary() != nil {
		return true
	}
	pr.asked[i] = true
	return false
}

// linkFrom summarizes the files that spell a launch or preload and define
// what the functions of the files at the indices call, where they matter:
// functions that measure (Timed), or, when only is set, the functions of
// those names. Then what the functions reached call, up to maxLinkRounds.
func (pr *projectRun) linkFrom(from []int, only map[string]bool) {
	wanted := map[string][]int{} // name -> the files calling it
	// byMethods are the wanted names that a class's method calls: only
	// those are looked for in headers (a method calling an inline wrapper).
	byMethods := map[string]bool{}
	want := func(i int, fns map[string]bool) {
		sum := pr.facts[i].summary()
		if sum == nil {
			return
		}
		eachOutCall(sum, func(fn *cudaparse.FunctionSummary) bool {
			return fns != nil && fns[fn.Name] || fns == nil && pr.measures(fn)
		}, func(fn *cudaparse.FunctionSummary, st *cudaparse.SummaryStep) bool {
			wanted[st.Callee] = append(wanted[st.Callee], i)
			if fn.Class != "" {
				byMethods[st.Callee] = true
			}
			return true
		})
	}
	for _, i := range from {
		want(i, only)
	}
	followed := map[string]bool{} // names whose definers' calls were wanted
	// The near files are looked among for the calls of the measuring
	// functions and for those of what they call: a timed call of another
	// file's function that calls a third file's launcher is two hops
	// (main.cpp's fa_simple() in ops/, which calls run_fmha() of a
	// kernel's .cu); asked from the definers of the names a candidate
	// calls (only), the first hop was taken already. Further on, headers.
	nearRounds := 1
	if only == nil {
		nearRounds = 2
	}
	for round := 0; round < maxLinkRounds && len(wanted) > 0; round++ {
		var todo, follow []int
		var definers map[string][]int
		if round < nearRounds {
			definers = pr.definersOf(wanted, true, byMethods)
		} else {
			definers = pr.headerDefiners(wanted, byMethods)
		}
		for _, name := range slices.Sorted(maps.Keys(wanted)) {
			for _, i := range definers[name] {
				if !pr.requested(i) {
					todo = append(todo, i)
				}
				// A definer summarized before (for another name) still
				// has to lend what this function calls.
				if !slices.Contains(follow, i) {
					follow = append(follow, i)
				}
			}
		}
		if len(follow) == 0 {
			break
		}
		sort.Ints(todo)
		pr.summarizeLexically(todo)
		reached := map[string]bool{}
		for name := range wanted {
			if !followed[name] {
				followed[name] = true
				reached[name] = true
			}
		}
		wanted = map[string][]int{}
		sort.Ints(follow)
		for _, i := range follow {
			want(i, reached)
		}
	}
}

// timedByProjectClock returns what file i calls between two calls of a
// function another file defines that reads a host clock (clockDefinedBy),
// and what the functions measuring so call before their first such call
// (a warm-up: cudaparse.TimedCallsAndWarmups).
func (pr *projectRun) timedByProjectClock(i int) (timed, before []string) {
	var clocks [][]byte
	for _, id := range pr.facts[i].found().calls() {
		if name := pr.names.name(id); len(pr.clockDefinedBy[name]) > 0 {
			clocks = append(clocks, []byte(name+"("))
		}
	}
	if len(clocks) == 0 {
		return nil, nil
	}
	src, err := ReadSource(pr.sources.abs(i))
	if err != nil {
		return nil, nil
	}
	return cudaparse.TimedCallsAndWarmups(src, clocks)
}

// definesFunction reports whether the summary has a function of the name.
func definesFunction(sum *cudaparse.FileSummary, name string) bool {
	for k := range sum.FunctionCount() {
		if sum.FunctionName(k) == name {
			return true
		}
	}
	return false
}

// maxIncludedDefiners bounds definersOf: a name that more files of the
// callers' includes may define is left to definedBy.
const maxIncludedDefiners = 4

// definersOf returns the files to summarize for what each name does, for
// the files that call it (wanted: name -> calling files): the files that
// spell a launch or preload in a function of the name (definedBy), and
// the source files the callers include that define it, launch or not;
// with near, for a name no file spelling a launch defines, also the
// source files near the callers: a timed call may be two calls away from
// a launch (a .c file's GICOV() calls a .cu file's GICOV_CUDA(), which
// launches, and the .c file spells no launch). link asks it so of the
// calls of the files that may time another file's launcher; asked of
// every call of every measuring function, it summarized a third of a
// large tree. The
// definition a caller compiles with may launch nothing while a file
// beside it has one of the same name that does: a test of a CPU
// reference includes model.c, beside model.cu.
func (pr *projectRun) definersOf(wanted map[string][]int, near bool, inHeaders map[string]bool) map[string][]int {
	out := make(map[string][]int, len(wanted))
	// The files a name is looked for among are a union of its callers'
	// sets, held until the name is looked for, and filesNaming asks each
	// of those files about the name: the unions of every name of eight
	// copies of the 38-project corpus were 10 MB at once, the most live
	// heap of the run, and the questions 7 MB once the unions were
	// bounded alone. Past maxDefinerQuestions (a name and a file of its
	// union) the names so far are looked for and their unions let go;
	// each name's answer is its own.
	var batch []string
	var among, bySet map[string]fileSet
	questions := 0
	lookFor := func() {
		if len(batch) > 0 {
			pr.definersAmong(batch, wanted, among, inHeaders, out)
		}
		// Names called from the same files look among the same files:
		// a file calling two hundred names asks once (bySet).
		batch, among, bySet, questions = nil, map[string]fileSet{}, map[string]fileSet{}, 0
	}
	lookFor()
	for _, name := range slices.Sorted(maps.Keys(wanted)) {
		nearToo := near && len(pr.definedBy[name]) == 0
		setsOf := []func(int) fileSet{pr.includedSources}
		if nearToo {
			setsOf = append(setsOf, pr.nearSources, pr.sourcesBesideHeaders)
		}
		among[name] = unionOnce(bySet, fmt.Sprint(nearToo, wanted[name]), wanted[name], setsOf...)
		questions += among[name].len() + 1
		if batch = append(batch, name); questions > maxDefinerQuestions {
			lookFor()
		}
	}
	lookFor()
	return out
}

// maxDefinerQuestions bounds the names and files definersOf asks about at
// once (four bytes a question, and the unions they come from: a few MB;
// a test's is small).
var maxDefinerQuestions = 1 << 18

// definersAmong is definersOf for the names, each looked for among its
// files (among), into out.
func (pr *projectRun) definersAmong(names []string, wanted map[string][]int, among map[string]fileSet, inHeaders map[string]bool, out map[string][]int) {
	found := pr.filesNaming(names, true, 2*maxCallerFiles, among)
	// Files summarized already (for another name) are not searched again:
	// their summaries say what they define.
	for _, name := range names {
		among[name].each(func(j int) {
			if sum := pr.facts[j].summary(); sum != nil && definesFunction(sum, name) {
				found[name] = append(found[name], j)
			}
		})
	}
	callers := make(map[string][]int, len(names))
	for _, name := range names {
		callers[name] = wanted[name]
	}
	for name, files := range pr.inIncludedHeaders(callers, found, inHeaders) {
		found[name] = append(found[name], files...)
	}
	for _, name := range names {
		files := append([]int{}, pr.definedBy[name]...)
		if extra := found[name]; len(extra) <= maxIncludedDefiners {
			for _, i := range extra {
				if !slices.Contains(files, i) {
					files = append(files, i)
				}
			}
		}
		out[name] = files
	}
}

// inIncludedHeaders looks for the names that no file defines with a
// launch (definedBy) and that found has no definer of, among the headers
// their callers include: an inline wrapper (`inline void cuda_max(float
// *p) { cudaF_max(p); }`) before another file's launcher. Only such names
// are looked for: a template library's headers define thousands of
// functions.
func (pr *projectRun) inIncludedHeaders(wanted map[string][]int, found map[string][]int, only map[string]bool) map[string][]int {
	var names []string
	headers := map[string]fileSet{}
	bySet := map[string]fileSet{} // by the callers, as in definersOf
	for _, name := range slices.Sorted(maps.Keys(wanted)) {
		if !only[name] || len(pr.definedBy[name]) > 0 || len(found[name]) > 0 {
			continue
		}
		names = append(names, name)
		headers[name] = unionOnce(bySet, fmt.Sprint(wanted[name]), wanted[name], pr.includedHeaders)
	}
	if len(names) == 0 {
		return nil
	}
	return pr.filesNaming(names, true, 2*maxCallerFiles, headers)
}

// unionOnce returns the union of setsOf each of files, memoized in memo
// under key (which names the files and the sets).
func unionOnce(memo map[string]fileSet, key string, files []int, setsOf ...func(int) fileSet) fileSet {
	if set, ok := memo[key]; ok {
		return set
	}
	set := newFileSet()
	for _, from := range files {
		for _, of := range setsOf {
			set.union(of(from))
		}
	}
	memo[key] = set
	return set
}

// headerDefiners is definedBy for the wanted names, and the included
// headers defining those that definedBy lacks (inIncludedHeaders).
func (pr *projectRun) headerDefiners(wanted map[string][]int, inHeaders map[string]bool) map[string][]int {
	out := map[string][]int{}
	for name := range wanted {
		if d := pr.definedBy[name]; len(d) > 0 {
			out[name] = d
		}
	}
	for name, files := range pr.inIncludedHeaders(wanted, nil, inHeaders) {
		if len(files) <= maxIncludedDefiners {
			out[name] = files
		}
	}
	return out
}

// project links the summaries there are now, frozen for concurrent use.
func (pr *projectRun) project() *link.Project {
	var sums []*cudaparse.FileSummary
	for i := range pr.facts {
		if s := pr.facts[i].summary(); s != nil {
			sums = append(sums, s)
		}
	}
	p := link.NewProject(sums)
	p.SetClassBases(pr.classBases())
	p.SetVisibility(pr.visibleFrom)
	p.SetNearness(pr.nearFrom)
	p.SetInclusion(pr.includedFrom)
	p.SetIncluders(pr.includersOf)
	p.Freeze()
	return p
}

// classBases gathers the files' class hierarchies: each class's bases,
// in the order of the files and of the bases (a class defined in several
// files, under #if or as copies, has the bases of all).
func (pr *projectRun) classBases() map[string][]string {
	bases := map[string][]string{}
	for i := range pr.facts {
		eachClass(pr.names, pr.facts[i].scanResult().classes, func(class string, ids []nameID) {
			for _, id := range ids {
				if b := pr.names.name(id); b != class && !slices.Contains(bases[class], b) {
					bases[class] = append(bases[class], b)
				}
			}
		})
	}
	return bases
}

package engine

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/bits"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/cespare/xxhash/v2"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
)

// Project-wide analysis, in three steps (docs/project.md):
//
//  1. Each file is checked alone, as before. A file that was parsed
//     exports its summary (cudaparse.FileSummary), and is kept for step 3
//     when a function of it measures and calls out of the file. From the
//     text, without a parse: whether the file spells a launch, preload or
//     clock read, and which of its functions do (cudaparse.LoaderDefinitions);
//     whether some rule could fire on it only with another file's help, and
//     then which names it calls (between two clock reads:
//     cudaparse.TimedCalls); its directives; a name filter. With a cache,
//     this waits until the project memo has missed (noteAll).
//  2. Link: the files defining what the files of step 1 call where it
//     matters (in functions that measure) are summarized from their text
//     (cudaparse.LexicalSummary), and what those call in turn, at most
//     maxLinkRounds rounds. The summaries are linked into a
//     cudaparse.Project; calls see only headers they include and files of
//     their own program (visibleFrom).
//  3. The files whose result can change with the project's facts are
//     checked again with them: a function that measures calls a loader of
//     another file, a header macro renames a call, a timer helper of
//     another file reads the clock, or a finding sits in a function whose
//     callers may load its kernels first (those callers are looked for by
//     name filter and call scan, parsed, and the project linked again).

// maxLinkRounds bounds how many times the link step pulls in files that
// define what the files before them call.
const maxLinkRounds = 4

// fileFacts is what step 1 notes about a source file for the project.
type fileFacts struct {
	summary *cudaparse.FileSummary
	// summaryRef is the summary not decoded yet (see noteAll).
	summaryRef *summaryRef
	// lexical: summary was made from the text alone (LexicalSummary).
	lexical bool
	// The names a scan found (scanned set), interned: the functions the
	// file defines whose body spells a launch or preload (defines), or a
	// host clock read (clockDefines); the names it calls (calls, for
	// candidates only).
	defines, clockDefines, calls []nameID
	// timers are the timer classes the file defines (cudaparse.TimerClasses),
	// for a file that spells a clock; timersKnown: timers holds them (none
	// for a file that spells none), so that a summary of the text need not
	// look for them again.
	timers      []knowledge.TimerClass
	timersKnown bool
	scanned     bool
	// loader: the file spells a launch or a preload: it may define a
	// function that loads kernels; clockDefiner: it spells a host clock
	// read: it may define a timer helper.
	loader, clockDefiner bool
	// preloader: the file spells a preload API (cudaFuncGetAttributes):
	// it may run a preload loop over the project's kernel table.
	preloader bool
	// candidate: a rule may fire on it with project facts that does not
	// without them (or it was parsed); loadCandidate: once it is taken to
	// call a launcher of another file; clockCandidate: a timer helper.
	candidate, loadCandidate, clockCandidate bool
	// answers are the prefilters' answers of the per-file check, kept until
	// noteProjectFacts (which a memoized run calls later).
	answers *prefilterAnswers
	parsed  bool // phase 1 parsed it or took it from the cache
	// filter answers whether the file may contain a name (for finding
	// the callers of a function).
	filter *rule.NameFilter
	// macros are the file's call-renaming macros (cudaparse.Macro.Relevant),
	// includes its #include directives.
	macros   []cudaparse.Macro
	includes []cudaparse.Include
	// classes are the file's classes defined with base classes
	// (cudaparse.ScanClassBases), for method calls on derived objects.
	classes []cudaparse.ClassBases
}

// kernelLoadSpellings are literals every launch or preload contains;
// preloadSpellings the calls that load a kernel without launching it;
// hostClockSpellings mark a file that may read a host clock (and define a
// timer helper); timerMethods a timer object's start or stop.
var (
	kernelLoadSpellings = knowledge.KernelLoadSpellings()
	preloadSpellings    = knowledge.PreloadAPINames()
	hostClockSpellings  = knowledge.HostClockSpellings()
	timerMethods        = knowledge.TimerMethodSpellings()
)

// The same literals as bytes, for cudaparse.LoaderDefinitions.
var (
	kernelLoadLiterals = asBytes(kernelLoadSpellings)
	hostClockLiterals  = asBytes(hostClockSpellings)
	clockReadLiterals  = asBytes(append(append(append([]string{"EventRecord"}, hostClockSpellings...), timerMethods...), knowledge.TimerFunctionSpellings()...))
)

// presentLiterals returns the literals the text contains, which its index
// tells for most in a few lookups: the scans that follow (each literal in
// each function body, or over the whole file) look for those only.
func presentLiterals(text *rule.Text, lits [][]byte) [][]byte {
	var out [][]byte
	for _, l := range lits {
		if text.Contains(string(l)) {
			out = append(out, l)
		}
	}
	return out
}

// withSpellings returns lits with more appended as bytes (lits itself
// when there are none: the usual case, without a configuration's
// additions).
func withSpellings(lits [][]byte, more []string) [][]byte {
	if len(more) == 0 {
		return lits
	}
	return append(slices.Clip(lits), asBytes(more)...)
}

func asBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// readsClock reports whether the text spells a clock read: a host clock
// call, a CUDA event record, or a timer object's start or stop. Stricter
// than the prefilters' words ("clock" is in clock64, "Timer" in a type
// name), it keeps the files parsed for the project few.
func readsClock(text *rule.Text) bool {
	return text.ContainsAny(hostClockSpellings...) || text.Contains("EventRecord") || text.ContainsAny(timerMethods...) ||
		text.ContainsAny(timerFunctions...)
}

// timerFunctions are the spellings of timer functions (startTimer(),
// timer_stop()): a file that times with one and calls another file's
// launcher is a candidate too (it was not, and its findings were hidden).
var timerFunctions = knowledge.TimerFunctionSpellings()

// noteProjectFacts fills what step 1 notes about a file from its text (the
// prefilters' view, without project facts) and its result; answers are the
// prefilters' answers about the text (nil: not asked yet).
func noteProjectFacts(ff *fileFacts, text *rule.Text, s Settings, sum *cudaparse.FileSummary, how checked, answers *prefilterAnswers, names *interner) {
	ff.summary = sum
	ff.parsed = how != skipped && sum != nil
	// The team's own helpers and clocks (the configuration's) count as
	// the tables' do.
	ownLoads, ownClocks := s.Additions.LoadSpellings(), s.Additions.ClockSpellings()
	ff.loader = text.ContainsAny(kernelLoadSpellings...) || text.ContainsAny(ownLoads...)
	ff.preloader = ff.loader && text.ContainsAny(preloadSpellings...)
	ff.clockDefiner = text.ContainsAny(hostClockSpellings...) || text.ContainsAny(ownClocks...)
	text.SetAdditions(ownLoads, ownClocks) // what the answers were given (a memoized run reset the text)
	if answers == nil {
		answers = askPrefilters(s.Rules, text)
	}
	// Whether a rule would fire with the project's help: asked only of the
	// prefilters that asked for a fact, which alone can answer otherwise.
	if answers.askedLoader && (readsClock(text) || text.ContainsAny(ownClocks...)) {
		ff.loadCandidate = answers.firesWith(text, true, false)
	}
	if answers.askedClock {
		ff.clockCandidate = answers.firesWith(text, false, true)
	}
	ff.candidate = ff.loadCandidate || ff.clockCandidate || ff.parsed
	// A timer class of CUDA events is a clock too, for the files that
	// declare its objects.
	eventTimer := !ff.clockDefiner && !slices.ContainsFunc(knowledge.EventTimerSpellings, func(lit string) bool { return !text.Contains(lit) })
	if !ff.parsed && (ff.loader || ff.clockDefiner || eventTimer || ff.loadCandidate || ff.clockCandidate) {
		ff.scanned = true
		switch {
		case ff.clockCandidate:
			_, ff.calls = names.scan(text.Src)
		case ff.loadCandidate:
			// Only what the file's functions call between two clock
			// reads can be a timed launch of another file.
			ff.calls = names.intern(cudaparse.TimedCalls(text.Src, presentLiterals(text, withSpellings(clockReadLiterals, ownClocks))))
		}
		if ff.loader {
			ff.defines = names.intern(cudaparse.LoaderDefinitions(text.Src, presentLiterals(text, withSpellings(kernelLoadLiterals, ownLoads))))
		}
		if ff.clockDefiner {
			ff.clockDefines = names.intern(cudaparse.LoaderDefinitions(text.Src, presentLiterals(text, withSpellings(hostClockLiterals, ownClocks))))
		}
	}
	if !ff.parsed {
		ff.timers = nil
		if ff.clockDefiner || eventTimer {
			// Without either, the file can define no timer class.
			ff.timers = cudaparse.TimerClasses(text.Src, s.Additions)
		}
		ff.timersKnown = true
	}
	ff.filter = text.NameFilter()
	if text.ContainsAny("class", "struct") { // the text's index answers most files without a scan
		ff.classes = cudaparse.ScanClassBases(text.Src)
	}
	if text.Contains("#") {
		macros, includes := cudaparse.ScanDirectives(text.Src)
		ff.includes = includes
		ff.macros = cudaparse.SharedMacros(macros)
	}
}

// projectRun is the state of steps 2 and 3.
type projectRun struct {
	opts    Options
	sources []string
	shown   []string
	// checked is how many of the sources are checked (the others, of the
	// project root, lend facts only).
	checked  int
	facts    []fileFacts
	settings func(string) Settings
	workers  int
	parsed   int // files parsed in the link step
	// upgraded counts the lexical summaries that a parse replaced since
	// the project was linked (the project must be linked again).
	upgraded int
	// definedBy lists, by name, the files that spell a launch or preload
	// and seem to define a function of the name; requested, the files
	// already asked for their summary.
	definedBy      map[string][]int
	clockDefinedBy map[string][]int
	asked          map[int]bool
	callerParses   int
	fileNames      []fileNames // by file: the names it spells, once read for a search
	callerBudget   int         // parses the caller search may make: grows with the names looked for
	// includes are the resolved #includes of each file; visible the
	// macros each file sees through them (under macroMu).
	includes [][]int
	visible  map[int]cudaparse.MacroTable
	macroMu  sync.Mutex
	// macroNames are the names of every file's renaming macros, and
	// volatileMacros those that read or write through a volatile pointer
	// (built once, under macroMu): a file that names none of them calls
	// no header macro, whatever its includes.
	macroNames     map[string]bool
	volatileMacros []string
	// byShown, closures (under visMu): files by name and their include
	// closures, for visibleFrom; header tells headers by their names;
	// includedSrc and near memoize includedSources and nearSources.
	byShown     map[string]int
	header      []bool
	includedSrc map[int]fileSet
	// includedHdr and besideHdr memoize includedHeaders and
	// sourcesBesideHeaders.
	includedHdr, besideHdr map[int]fileSet
	// includedDirs memoizes headerDirs.
	includedDirs map[int][]string
	near         map[int]fileSet
	dirs         []string
	byDir        map[string][]int // files by folder, and (byParent) by their folder's parent
	byParent     map[string][]int
	closures     map[int]fileSet
	closureWalk  closureWalk
	// includers: the source files including each header (includersOf);
	// includedBy: the files including each file directly.
	includers  map[string][]string
	includedBy [][]int
	visMu      sync.Mutex
	// abs are the sources' absolute paths.
	abs []string
	// timersOf memoizes declaredTimers while the project's timer classes
	// are those of timersKey (under timersMu).
	timersMu  sync.Mutex
	timersKey string
	timersOf  map[int][]knowledge.TimerClass
	// device holds the device summaries of files parsed for translation
	// units; unitDevice, by file, those of its units' other files.
	device, unitDevice map[int][]cudaparse.DeviceSummary
	// names interns the names the scans found; kept holds files parsed
	// in the per-file check that the project may change.
	names *interner
	kept  *fileKeeper
}

// link runs step 2 and returns the linked project. What is looked for is
// driven by demand: the calls made by functions that measure (Timed), and
// what the functions they reach call in turn; never every call of a file,
// which on a template library pulls in most of its headers.
//
// wantPreloads asks for the files that may preload the project's kernel
// table too (a finding of a rule that such a preload silences exists).
func (pr *projectRun) link(wantPreloads bool) *cudaparse.Project {
	pr.definedBy = map[string][]int{}
	pr.clockDefinedBy = map[string][]int{}
	for i := range pr.facts {
		ff := &pr.facts[i]
		if ff.summary != nil || !ff.scanned {
			continue
		}
		for _, id := range ff.defines {
			name := pr.names.name(id)
			pr.definedBy[name] = append(pr.definedBy[name], i)
		}
		for _, id := range ff.clockDefines {
			name := pr.names.name(id)
			pr.clockDefinedBy[name] = append(pr.clockDefinedBy[name], i)
		}
	}
	pr.addClockOnlyCandidates()
	// What the files that may time a launcher of another file call, and
	// the timer helpers the files that launch may call.
	loadWanted := map[string][]int{} // name -> the files calling it
	clockWanted := map[string]bool{}
	var candidates []int
	for i := range pr.facts {
		ff := &pr.facts[i]
		if ff.summary != nil {
			// A parsed file may time with a helper of another file: then
			// none of its functions looks like it measures yet.
			for _, name := range pr.calledNames(i) {
				clockWanted[name] = true
			}
			continue
		}
		if !ff.scanned {
			continue
		}
		if ff.clockCandidate && !ff.loadCandidate {
			// A file that measures with another file's clock may also
			// time another file's launcher: what it calls between two
			// calls of such a clock.
			for _, name := range pr.timedByProjectClock(i) {
				loadWanted[name] = append(loadWanted[name], i)
			}
		}
		for _, id := range ff.calls {
			if ff.loadCandidate {
				name := pr.names.name(id)
				loadWanted[name] = append(loadWanted[name], i)
			}
			if ff.clockCandidate {
				clockWanted[pr.names.name(id)] = true
			}
		}
	}
	definers := pr.definersOf(loadWanted, true, nil)
	for _, name := range sortedKeys(loadWanted) {
		for _, i := range definers[name] {
			if !pr.requested(i) {
				candidates = append(candidates, i)
			}
		}
	}

	// Timer helpers the files that launch may call.
	var clockTodo []int
	for _, name := range sortedKeys(clockWanted) {
		for _, i := range pr.clockDefinedBy[name] {
			if !pr.requested(i) {
				clockTodo = append(clockTodo, i)
			}
		}
	}
	clockTodo = append(clockTodo, pr.timerDefiners()...)
	if wantPreloads {
		for i := range pr.facts {
			if pr.facts[i].preloader && !pr.requested(i) {
				candidates = append(candidates, i)
			}
		}
	}
	pr.summarizeLexically(append(candidates, clockTodo...))
	var from []int
	for i := range pr.facts {
		if pr.facts[i].summary != nil {
			from = append(from, i)
		}
	}
	pr.linkFrom(from, nil)
	// What the functions the candidates call go on to call: the launch
	// may be further on, in a file that the called one's file calls.
	pr.linkFrom(candidates, setOf(sortedKeys(loadWanted)))
	return pr.project()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// requested reports whether file i was asked for its summary already, and
// marks it so.
func (pr *projectRun) requested(i int) bool {
	if pr.asked == nil {
		pr.asked = map[int]bool{}
	}
	if pr.asked[i] || pr.facts[i].summary != nil {
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
		sum := pr.facts[i].summary
		if sum == nil {
			return
		}
		eachOutCall(sum, func(fn *cudaparse.FunctionSummary) bool {
			return fns != nil && fns[fn.Name] || fns == nil && fn.Timed
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
	for round := 0; round < maxLinkRounds && len(wanted) > 0; round++ {
		var todo, follow []int
		var definers map[string][]int
		if round == 0 {
			definers = pr.definersOf(wanted, true, byMethods)
		} else {
			definers = pr.headerDefiners(wanted, byMethods)
		}
		for _, name := range sortedKeys(wanted) {
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
// function another file defines that reads a host clock (clockDefinedBy).
func (pr *projectRun) timedByProjectClock(i int) []string {
	var clocks [][]byte
	for _, id := range pr.facts[i].calls {
		if name := pr.names.name(id); len(pr.clockDefinedBy[name]) > 0 {
			clocks = append(clocks, []byte(name+"("))
		}
	}
	if len(clocks) == 0 {
		return nil
	}
	src, err := ReadSource(pr.sources[i])
	if err != nil {
		return nil
	}
	return cudaparse.TimedCalls(src, clocks)
}

// definesFunction reports whether the summary has a function of the name.
func definesFunction(sum *cudaparse.FileSummary, name string) bool {
	for k := range sum.Functions {
		if sum.Functions[k].Name == name {
			return true
		}
	}
	return false
}

// setOf returns the names as a set.
func setOf(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
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
	names := sortedKeys(wanted)
	among := make(map[string]fileSet, len(names))
	// Names called from the same files look among the same files: a file
	// calling two hundred names asks once.
	bySet := map[string]fileSet{}
	for _, name := range names {
		nearToo := near && len(pr.definedBy[name]) == 0
		setsOf := []func(int) fileSet{pr.includedSources}
		if nearToo {
			setsOf = append(setsOf, pr.nearSources, pr.sourcesBesideHeaders)
		}
		among[name] = unionOnce(bySet, fmt.Sprint(nearToo, wanted[name]), wanted[name], setsOf...)
	}
	found := pr.filesNaming(names, true, 2*maxCallerFiles, among)
	// Files summarized already (for another name) are not searched again:
	// their summaries say what they define.
	for _, name := range names {
		among[name].each(func(j int) {
			if sum := pr.facts[j].summary; sum != nil && definesFunction(sum, name) {
				found[name] = append(found[name], j)
			}
		})
	}
	for name, files := range pr.inIncludedHeaders(wanted, found, inHeaders) {
		found[name] = append(found[name], files...)
	}
	out := make(map[string][]int, len(names))
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
	return out
}

// nearSources returns the source files (not headers) of file i's folder,
// its parent and its children: those whose functions a call in file i
// may reach without an include (visibleFrom).
func (pr *projectRun) nearSources(i int) fileSet {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	pr.indexShown()
	pr.indexDirs()
	if set, ok := pr.near[i]; ok {
		return set
	}
	set := newFileSet()
	d := pr.dirs[i]
	for _, group := range [][]int{pr.byDir[d], pr.byDir[filepath.Dir(d)], pr.byParent[d]} {
		for _, j := range group {
			if !pr.header[j] && nearFolders(d, pr.dirs[j]) {
				set.add(j)
			}
		}
	}
	if pr.near == nil {
		pr.near = map[int]fileSet{}
	}
	pr.near[i] = set
	return set
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
	for _, name := range sortedKeys(wanted) {
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

// includedHeaders returns the headers of file i's own folder that it
// includes, directly or not: a wrapper header beside the code that calls
// it (a library's headers, elsewhere, define thousands of functions).
func (pr *projectRun) includedHeaders(i int) fileSet {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	if set, ok := pr.includedHdr[i]; ok {
		return set
	}
	set := pr.includedWhere(i, func(j int) bool { return pr.header[j] && pr.dirs[j] == pr.dirs[i] })
	if pr.includedHdr == nil {
		pr.includedHdr = map[int]fileSet{}
	}
	pr.includedHdr[i] = set
	return set
}

// includedWhere returns the files file i includes, directly or not, that
// keep says (under visMu).
func (pr *projectRun) includedWhere(i int, keep func(j int) bool) fileSet {
	pr.indexShown()
	set := newFileSet()
	pr.includeClosure(i).each(func(j int) {
		if keep(j) {
			set.add(j)
		}
	})
	return set
}

// includedSources returns the source files (not headers) file i includes,
// directly or not: a test that includes the implementation it tests.
// Headers are left to definedBy: a template library's headers define
// thousands of functions, none of them a second definition of a name.
func (pr *projectRun) includedSources(i int) fileSet {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	if set, ok := pr.includedSrc[i]; ok {
		return set
	}
	set := pr.includedWhere(i, func(j int) bool { return !pr.header[j] })
	if pr.includedSrc == nil {
		pr.includedSrc = map[int]fileSet{}
	}
	pr.includedSrc[i] = set
	return set
}

// project links the summaries there are now, frozen for concurrent use.
func (pr *projectRun) project() *cudaparse.Project {
	var sums []*cudaparse.FileSummary
	for i := range pr.facts {
		if s := pr.facts[i].summary; s != nil {
			sums = append(sums, s)
		}
	}
	p := cudaparse.NewProject(sums)
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
		for _, c := range pr.facts[i].classes {
			for _, b := range c.Bases {
				if b != c.Class && !slices.Contains(bases[c.Class], b) {
					bases[c.Class] = append(bases[c.Class], b)
				}
			}
		}
	}
	return bases
}

// includedFrom reports whether file from includes file def, directly or
// not.
func (pr *projectRun) includedFrom(from, def string) bool {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	fi, di, ok := pr.pair(from, def)
	return ok && pr.includeClosure(fi).has(di)
}

// pair returns the indexes of files from and def (under visMu).
func (pr *projectRun) pair(from, def string) (fi, di int, ok bool) {
	pr.indexShown()
	di, ok = pr.byShown[def]
	fi, ok2 := pr.byShown[from]
	return fi, di, ok && ok2
}

// visibleFrom says whether a function defined in file def can be what a
// call in file from reaches: def is a header from includes (directly or
// not), or a source file of the same program: in from's folder, its
// parent or a child. A repository of many programs
// (benchmark suites, samples) reuses names across them; a definition in
// another program is not the one called.
func (pr *projectRun) visibleFrom(from, def string) bool {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	fi, di, ok := pr.pair(from, def)
	if !ok {
		return false
	}
	if !cudaparse.IsHeader(def) && (nearFolders(pr.dirs[fi], pr.dirs[di]) || slices.Contains(pr.headerDirs(fi), pr.dirs[di])) {
		return true
	}
	return pr.includeClosure(fi).has(di)
}

// indexDirs fills byDir and byParent once (under visMu, after indexShown).
func (pr *projectRun) indexDirs() {
	if pr.byDir != nil {
		return
	}
	pr.byDir, pr.byParent = map[string][]int{}, map[string][]int{}
	for j, d := range pr.dirs {
		pr.byDir[d] = append(pr.byDir[d], j)
		pr.byParent[filepath.Dir(d)] = append(pr.byParent[filepath.Dir(d)], j)
	}
}

// nearFrom reports whether def is a source file in from's folder, its
// parent or a child.
func (pr *projectRun) nearFrom(from, def string) bool {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	fi, di, ok := pr.pair(from, def)
	return ok && !cudaparse.IsHeader(def) && nearFolders(pr.dirs[fi], pr.dirs[di])
}

// sourcesBesideHeaders returns the source files in the folders of the
// headers file i includes (headerDirs): their implementations.
func (pr *projectRun) sourcesBesideHeaders(i int) fileSet {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	if set, ok := pr.besideHdr[i]; ok {
		return set
	}
	pr.indexShown()
	set := newFileSet()
	pr.indexDirs()
	for _, d := range pr.headerDirs(i) {
		for _, j := range pr.byDir[d] {
			if !pr.header[j] {
				set.add(j)
			}
		}
	}
	if pr.besideHdr == nil {
		pr.besideHdr = map[int]fileSet{}
	}
	pr.besideHdr[i] = set
	return set
}

// headerDirs returns the folders of the headers file i includes, directly
// or not (under visMu): a source file beside a header a file includes is
// most likely that header's implementation, linked into the same program
// (tests/ calling what src/ defines and declares in src/lib.h).
func (pr *projectRun) headerDirs(i int) []string {
	if dirs, ok := pr.includedDirs[i]; ok {
		return dirs
	}
	var dirs []string // pr.dirs' own strings, sorted, each once
	pr.includeClosure(i).each(func(j int) {
		if d := pr.dirs[j]; pr.header[j] && d != pr.dirs[i] {
			if k, found := slices.BinarySearch(dirs, d); !found {
				dirs = slices.Insert(dirs, k, d)
			}
		}
	})
	if pr.includedDirs == nil {
		pr.includedDirs = map[int][]string{}
	}
	pr.includedDirs[i] = slices.Clip(dirs)
	return dirs
}

// indexShown fills byShown and dirs once (under visMu).
func (pr *projectRun) indexShown() {
	if pr.byShown != nil {
		return
	}
	pr.byShown = map[string]int{}
	pr.dirs = make([]string, len(pr.shown))
	pr.header = make([]bool, len(pr.shown))
	for i, s := range pr.shown {
		pr.byShown[s] = i
		pr.dirs[i] = filepath.Dir(pr.absPath(i))
		pr.header[i] = cudaparse.IsHeader(s)
	}
}

// includersOf returns the source files (not headers) that include header,
// directly or not, in path order (memoized; under visMu).
func (pr *projectRun) includersOf(header string) []string {
	pr.visMu.Lock()
	defer pr.visMu.Unlock()
	if got, ok := pr.includers[header]; ok {
		return got
	}
	pr.indexShown()
	var out []string
	if h, ok := pr.byShown[header]; ok {
		// Back along the include graph, as deep as includeClosure goes
		// forward: the same files, without the closure of every file.
		if pr.includedBy == nil {
			pr.macroMu.Lock()
			pr.resolveIncludes()
			pr.macroMu.Unlock()
			pr.includedBy = make([][]int, len(pr.includes))
			for i, incs := range pr.includes {
				for _, j := range incs {
					pr.includedBy[j] = append(pr.includedBy[j], i)
				}
			}
		}
		seen := newFileSet()
		frontier := pr.includedBy[h]
		for depth := 0; depth < maxIncludeDepth && len(frontier) > 0; depth++ {
			var next []int
			for _, i := range frontier {
				if seen.has(i) {
					continue
				}
				seen.add(i)
				if !cudaparse.IsHeader(pr.shown[i]) {
					out = append(out, pr.shown[i])
				}
				next = append(next, pr.includedBy[i]...)
			}
			frontier = next
		}
	}
	sort.Strings(out)
	if pr.includers == nil {
		pr.includers = map[string][]string{}
	}
	pr.includers[header] = out
	return out
}

// nearFolders reports whether folders a and b are the same, or parent
// and child. Siblings are not: examples/10_x and examples/11_y are two
// programs.
func nearFolders(a, b string) bool {
	return a == b || filepath.Dir(a) == b || filepath.Dir(b) == a
}

// includeClosure returns the files file i includes, directly or not
// (memoized; under visMu). In a library whose headers include hundreds
// of others (cccl), maps of them held 90 MB of the 15,400-file corpus's
// 200 MB live heap: a fileSet keeps them as words of bits.
func (pr *projectRun) includeClosure(i int) fileSet {
	if c, ok := pr.closures[i]; ok {
		return c
	}
	pr.macroMu.Lock()
	pr.resolveIncludes()
	pr.macroMu.Unlock()
	// The walk marks a dense bit set and two frontiers kept between calls,
	// and builds the sparse set once, in order: growing it file by file
	// allocated 160 MB over the 13-project tree.
	w := &pr.closureWalk
	if len(w.seen) == 0 {
		w.seen = make([]uint64, (len(pr.includes)+63)/64)
	}
	frontier := w.frontier[:0]
	frontier = append(frontier, pr.includes[i]...)
	next := w.next[:0]
	lo, hi := len(w.seen), -1 // the words marked
	for depth := 0; depth < maxIncludeDepth && len(frontier) > 0; depth++ {
		next = next[:0]
		for _, j := range frontier {
			if w.seen[j/64]&(1<<(j%64)) == 0 {
				w.seen[j/64] |= 1 << (j % 64)
				lo, hi = min(lo, j/64), max(hi, j/64)
				next = append(next, pr.includes[j]...)
			}
		}
		frontier, next = next, frontier
	}
	w.frontier, w.next = frontier[:0], next[:0]
	// The marks, read in order and cleared: the set is built sorted
	// without sorting.
	c := newFileSet()
	for k := lo; k <= hi; k++ {
		for word := w.seen[k]; word != 0; word &= word - 1 {
			c.add(k*64 + bits.TrailingZeros64(word)) // in order: appends
		}
		w.seen[k] = 0
	}
	c.words = slices.Clip(c.words)
	if pr.closures == nil {
		pr.closures = map[int]fileSet{}
	}
	pr.closures[i] = c
	return c
}

// closureWalk is includeClosure's scratch memory (under visMu).
type closureWalk struct {
	seen           []uint64
	frontier, next []int
}

// summaryVersion changes when FileSummary's meaning does.
const summaryVersion = 3 // 3: a parsed summary lists every host function (2cd0641)

func summaryKey(binary, src []byte, additions *knowledge.Additions) cache.Key {
	h := sha256.New()
	fmt.Fprintf(h, "lazylint summary %d\n%x\n%s%d\n", summaryVersion, binary, additions.Key(), len(src))
	h.Write(src)
	var k cache.Key
	h.Sum(k[:0])
	return k
}

// summarize parses the files at the indices for their summaries, through
// the cache when there is one. A file that cannot be read or parsed now
// (it vanished, it is binary or too large) simply has no summary: its
// error, if any, was or will be reported by the per-file check.
func (pr *projectRun) summarize(indices []int) { pr.summarizeWith(indices, true) }

// summarizeLexically summarizes the files at the indices from their text
// alone (cudaparse.LexicalSummary): for the functions a file calls through
// another, what they load is enough.
func (pr *projectRun) summarizeLexically(indices []int) { pr.summarizeWith(indices, false) }

func (pr *projectRun) summarizeWith(indices []int, parse bool) {
	var mu sync.Mutex
	var binary []byte // the summary cache's key; hashing the binary costs a small project's run
	if pr.opts.Cache != nil {
		binary, _ = cache.BinaryHash()
	}
	pr.onWorkers(indices, func(parser **cudaparse.Parser, i int) {
		sum, parsed := pr.summarizeOne(parser, binary, i, parse)
		mu.Lock()
		pr.facts[i].summary = sum
		pr.facts[i].lexical = sum != nil && !parse
		if parsed {
			pr.parsed++
		}
		mu.Unlock()
	})
}

// onWorkers calls do for each of the indices on the run's workers, each
// worker with a parser of its own (created by do on first need).
func (pr *projectRun) onWorkers(indices []int, do func(parser **cudaparse.Parser, i int)) {
	onPool(len(indices), pr.workers, func(w *worker, k int) { do(&w.parser, indices[k]) })
}

func (pr *projectRun) summarizeOne(parser **cudaparse.Parser, binary []byte, i int, parse bool) (sum *cudaparse.FileSummary, parsed bool) {
	defer func() {
		if recover() != nil {
			sum = nil // a bug in the facts: the file takes no part
		}
	}()
	src, err := ReadSource(pr.sources[i])
	if err != nil || binaryError(src) != nil {
		return nil, false
	}
	additions := pr.settings(pr.abs[i]).Additions
	if !parse {
		return pr.lexicalSummary(i, src, additions), false
	}
	return parsedSummary(parser, &pr.opts, binary, pr.shown[i], src, additions)
}

// lexicalSummary summarizes file i from its text src, with the timer
// classes its scan found when it was scanned.
func (pr *projectRun) lexicalSummary(i int, src []byte, additions *knowledge.Additions) *cudaparse.FileSummary {
	if ff := &pr.facts[i]; ff.timersKnown {
		return cudaparse.LexicalSummaryWithTimers(pr.shown[i], src, nil, additions, ff.timers)
	}
	return cudaparse.LexicalSummary(pr.shown[i], src, nil, additions)
}

// parsedSummary returns the summary of a file's parse, through the cache
// (keyed on the bytes, the binary and the configuration's additions: a
// file's summary depends on nothing else); parsed says whether it parsed.
func parsedSummary(parser **cudaparse.Parser, opts *Options, binary []byte, shown string, src []byte, additions *knowledge.Additions) (sum *cudaparse.FileSummary, parsed bool) {
	var key cache.Key
	if opts.Cache != nil && binary != nil {
		key = summaryKey(binary, src, additions)
		if data, ok := opts.Cache.Get(key); ok {
			if s, ok := decodeSummary(data); ok {
				s.Path = shown
				return s, false
			}
		}
	}
	c := &Checker{ParseLimit: opts.ParseLimit, MaxParseBytes: opts.MaxParseBytes, Additions: additions}
	f, err := c.parse(parser, shown, src, false)
	if err != nil || f == nil {
		return nil, err == nil
	}
	sum = f.Summary()
	if opts.Cache != nil && binary != nil {
		if data, err := encodeSummary(sum); err == nil {
			opts.Cache.Put(key, data)
		}
	}
	return sum, true
}

// recheck lists the files whose result can change with the project's
// facts, and sets on each text what its prefilters should know.
func (pr *projectRun) recheck(p *cudaparse.Project, results []FileResult) []int {
	var candidates []int
	for i := range pr.facts {
		if pr.facts[i].candidate {
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
// with the project's facts.
func (pr *projectRun) needsRecheck(p *cudaparse.Project, results []FileResult, i int) bool {
	return pr.timedCallsLoader(p, i) || usesCallerFacts(results[i].Findings) && pr.hasLoadingCallers(p, i) || pr.callsHeaderMacro(i) ||
		usesProjectPreloads(results[i].Findings) && p.PreloadsEveryKernel(pr.shown[i]) ||
		usesUnitDevice(results[i].Findings) ||
		// Another file's clock or timer class first: the cheaper
		// question, and most files have none.
		(len(p.ClockFunctions(pr.calledNames(i), pr.shown[i])) > 0 || len(pr.declaredTimers(p, i, nil)) > 0) && pr.mayTimeLoads(p, i)
}

// mayTimeLoads reports whether file i can time a kernel load once another
// file's clock or timer class is known: it spells a launch or preload, or
// calls another file's function that loads (a clock alone times nothing
// that loads).
func (pr *projectRun) mayTimeLoads(p *cudaparse.Project, i int) bool {
	return pr.facts[i].loader || pr.callsLoaderElsewhere(p, i)
}

// timerDefiners returns the files not summarized yet that define a timer
// class (fileFacts.timers) whose name a candidate file may spell: their
// summaries lend the class to the project.
func (pr *projectRun) timerDefiners() []int {
	var out []int
	for i := range pr.facts {
		ff := &pr.facts[i]
		if len(ff.timers) == 0 || ff.summary != nil {
			continue
		}
	search:
		for _, t := range ff.timers {
			probe := rule.NewNameProbe(t.Class)
			for j := range pr.facts {
				if j != i && pr.facts[j].candidate && pr.facts[j].filter != nil && pr.facts[j].filter.MayContainProbe(probe) {
					if !pr.requested(i) {
						out = append(out, i)
					}
					break search
				}
			}
		}
	}
	return out
}

// declaredTimers returns the timer classes of other files that file i
// (its text src, read when nil) declares objects of.
func (pr *projectRun) declaredTimers(p *cudaparse.Project, i int, src []byte) []knowledge.TimerClass {
	names := p.TimerClassNames()
	if len(names) == 0 || pr.facts[i].filter == nil {
		return nil
	}
	// The same question is asked in the recheck's selection and again in
	// the check, round after round, and each answer read the file: the
	// answers are kept while the project's timer classes stay the same.
	key := strings.Join(names, "\x00")
	pr.timersMu.Lock()
	if pr.timersKey != key {
		pr.timersKey, pr.timersOf = key, map[int][]knowledge.TimerClass{}
	}
	got, ok := pr.timersOf[i]
	pr.timersMu.Unlock()
	if ok {
		return got
	}
	got = pr.declaredTimersIn(p, i, names, src)
	pr.timersMu.Lock()
	if pr.timersKey == key {
		pr.timersOf[i] = got
	}
	pr.timersMu.Unlock()
	return got
}

// declaredTimersIn is declaredTimers without the memo.
func (pr *projectRun) declaredTimersIn(p *cudaparse.Project, i int, names []string, src []byte) []knowledge.TimerClass {
	may := false
	for _, name := range names {
		may = may || pr.facts[i].filter.MayContain(name)
	}
	if !may {
		return nil
	}
	if src == nil {
		var err error
		if src, err = ReadSource(pr.sources[i]); err != nil {
			return nil
		}
	}
	return p.DeclaredTimers(pr.shown[i], src)
}

// calledNames are the names file i calls, from its summary or its scan.
func (pr *projectRun) calledNames(i int) []string {
	ff := &pr.facts[i]
	if ff.summary == nil {
		if ff.scanned {
			out := make([]string, len(ff.calls))
			for k, id := range ff.calls {
				out[k] = pr.names.name(id)
			}
			return out
		}
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, fn := range ff.summary.Functions {
		for _, st := range fn.Steps {
			if st.Kind == cudaparse.StepCall && !seen[st.Callee] {
				seen[st.Callee] = true
				out = append(out, st.Callee)
			}
		}
	}
	return out
}

// callsLoaderElsewhere reports whether file i calls a function that
// another file defines and that launches or preloads kernels.
func (pr *projectRun) callsLoaderElsewhere(p *cudaparse.Project, i int) bool {
	names := pr.calledNames(i)
	source := pr.lazySource(i)
	var asFunction func(string) bool
	if pr.facts[i].summary == nil && len(names) > 0 {
		// Names from the text alone: a name only ever called as a member
		// (x.size(), q->insert(k)) reaches its object's class's method,
		// which MethodLoads asks about, not a free function of the name
		// (a parse tells the two apart the same way).
		asFunction = func(name string) bool {
			src := source()
			return src == nil || cudaparse.CalledAsFunction(src, name)
		}
	}
	return callsProjectLoader(p, pr.shown[i], names, pr.spells(i, source), asFunction)
}

// lazySource returns a reader of file i's text that reads it once, when
// first asked (nil when it cannot be read).
func (pr *projectRun) lazySource(i int) func() []byte {
	var src []byte
	read := false
	return func() []byte {
		if !read {
			src, _ = ReadSource(pr.sources[i])
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
	filter := pr.facts[i].filter
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
func callsProjectLoader(p *cudaparse.Project, path string, names []string, spelled func(string) bool, asFunction func(string) bool) bool {
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
func loadsElsewhere(p *cudaparse.Project, pf *cudaparse.ProjectFunction, path string) bool {
	return pf != nil && pf.File != path && !p.Kernels(pf).Empty()
}

// hasLoadingCallers reports whether a function of file i has callers that
// all load some kernel before calling it.
func (pr *projectRun) hasLoadingCallers(p *cudaparse.Project, i int) bool {
	sum := pr.facts[i].summary
	if sum == nil {
		return false
	}
	for _, fn := range sum.Functions {
		if pf := p.Function(sum.Path, fn.Name, fn.Line); pf != nil && !p.LoadedOnEntry(pf).Empty() {
			return true
		}
	}
	return false
}

// digest hashes the project facts file i's result may rest on: what every
// definition of each name it calls does, and what is loaded on entry to
// each function it defines.
func (pr *projectRun) digest(p *cudaparse.Project, i int) [32]byte {
	h := sha256.New()
	for _, name := range pr.calledNames(i) {
		for _, pf := range p.Reachable(name, pr.shown[i]) {
			fmt.Fprintf(h, "%s %s:%d %v %v\n", name, pf.File, pf.Summary.Line, *p.Kernels(pf), pf.Summary.ReadsClock)
		}
	}
	if sum := pr.facts[i].summary; sum != nil {
		for _, fn := range sum.Functions {
			if pf := p.Function(sum.Path, fn.Name, fn.Line); pf != nil {
				fmt.Fprintf(h, "entry %s:%d %v\n", fn.Name, fn.Line, *p.LoadedOnEntry(pf))
			}
		}
	}
	fmt.Fprintf(h, "preloads every kernel %v\n", p.PreloadsEveryKernel(pr.shown[i]))
	pr.hashUnit(h, i)
	names := make([]string, 0, len(pr.visibleMacros(i)))
	for name := range pr.visibleMacros(i) {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(h, "macro %v\n", pr.visibleMacros(i)[name])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// rerun checks file i again with the project's facts. The project is
// shared by the workers, so its memoized answers are computed under mu.
func (pr *projectRun) rerun(parser **cudaparse.Parser, text *rule.Text, p *cudaparse.Project, digest [32]byte, i int, keep bool) (FileResult, checked, *cudaparse.FileSummary, bool) {
	src, err := ReadSource(pr.sources[i])
	if err != nil {
		return FileResult{}, skipped, nil, false // vanished since: keep the first result
	}
	text.Reset(src)
	in := projectInput{
		project:    p,
		digest:     digest,
		macros:     spelledMacros(pr.visibleMacros(i), text),
		unitDevice: pr.unitDevice[i],
		clocks:     p.ClockFunctions(pr.calledNames(i), pr.shown[i]),
		// Only a parse's summary replaces the one the project holds
		// (rerunAll), and only one made from the text alone.
		noSummary: pr.facts[i].summary != nil && !pr.facts[i].lexical,
	}
	// A clock macro of a header counts as a clock for the prefilters.
	text.SetProjectFacts(pr.callsLoaderElsewhere(p, i), len(in.clocks) > 0 || cudaparse.SpellsClockMacro(in.macros))
	// A file kept from the per-file check needs no second parse, unless
	// header macros rename its calls (they are applied while parsing).
	if f := pr.kept.take(i); f != nil && len(in.macros) == 0 {
		in.parsed = f
	}
	if keep && pr.facts[i].lexical {
		// A parse's summary replaces the one from the text, and the
		// caller round checks most such files again with it.
		in.keep = func(f *cudaparse.File, _ *cudaparse.FileSummary) { pr.kept.keep(i, f) }
	}
	s := pr.settings(pr.absPath(i))
	// Another file's timer class it declares objects of times as a
	// configured one would.
	s.Additions = s.Additions.WithTimers(pr.declaredTimers(p, i, src))
	out, how, ref, _ := checkText(parser, text, s, &pr.opts, pr.shown[i], &in)
	return out, how, ref.get(), true
}

// findCallers runs the caller rounds: the functions that hold a finding in
// results may be warmed up by their callers. Files that may call them (by
// their name filters, then by their text) are summarized, with the files
// that define what those callers call; then the callers of those callers,
// up to maxLinkRounds. It reports whether it summarized any file.
func (pr *projectRun) findCallers(results []FileResult) bool {
	var holders []callerNode
	for i := range results {
		sum := pr.facts[i].summary
		if sum == nil {
			continue
		}
		for _, f := range results[i].Findings {
			if !f.Rule.RequiresFact(rule.CallerLoads) {
				continue
			}
			for _, fn := range sum.Functions {
				if fn.Line <= f.Start.Line && f.Start.Line <= fn.EndLine && !fn.Entry {
					holders = append(holders, callerNode{i, fn.Name})
				}
			}
		}
	}
	added := false
	searched := map[string]bool{}
	for round := 0; round < maxLinkRounds; round++ {
		targets := pr.callerTargets(holders)
		var names []string
		for name := range targets {
			if !searched[name] {
				searched[name] = true
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			break
		}
		sort.Strings(names)
		todo := pr.callerFiles(names)
		if len(todo) == 0 {
			continue
		}
		pr.summarize(todo)
		callers := map[string]bool{}
		for _, i := range todo {
			if sum := pr.facts[i].summary; sum != nil {
				for k := range sum.Functions {
					if callsAny(&sum.Functions[k], targets) {
						callers[sum.Functions[k].Name] = true
					}
				}
			}
		}
		pr.linkFrom(todo, callers)
		added = true
	}
	return added
}

// callerNode is a function of a file, by name.
type callerNode struct {
	file int
	name string
}

// callerTargets returns the names whose callers may decide the findings of
// the holders: the holders', and up the calls the summaries know, their
// callers' up to cudaparse.MaxCallerDepth (as far as the project's
// LoadedOnEntry looks). Entry functions have no callers to look for. A name
// that functions of more than maxCallerFiles files call (a run or test
// helper) is followed up only through callers in its own file: the calls
// of the others most likely reach another function of that name, and
// following them pulls in most of a large project.
func (pr *projectRun) callerTargets(holders []callerNode) map[string]bool {
	callersOf := map[string][]callerNode{}
	for i := range pr.facts {
		sum := pr.facts[i].summary
		if sum == nil {
			continue
		}
		for k := range sum.Functions {
			fn := &sum.Functions[k]
			if fn.Entry {
				continue
			}
			for _, st := range fn.Steps {
				if st.Kind == cudaparse.StepCall && st.Callee != fn.Name {
					callersOf[st.Callee] = append(callersOf[st.Callee], callerNode{i, fn.Name})
				}
			}
		}
	}
	depth := map[callerNode]int{}
	queue := make([]callerNode, 0, len(holders))
	for _, h := range holders {
		if _, ok := depth[h]; !ok {
			depth[h] = 0
			queue = append(queue, h)
		}
	}
	// Breadth first: every node gets its least depth, whatever the order.
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		if depth[node] >= cudaparse.MaxCallerDepth {
			continue
		}
		refs := callersOf[node.name]
		generic := calledFromFiles(refs) > maxCallerFiles
		for _, ref := range refs {
			if _, ok := depth[ref]; ok || generic && ref.file != node.file {
				continue
			}
			depth[ref] = depth[node] + 1
			queue = append(queue, ref)
		}
	}
	targets := map[string]bool{}
	for node := range depth {
		targets[node.name] = true
	}
	return targets
}

// calledFromFiles counts the files of the callers.
func calledFromFiles(refs []callerNode) int {
	files := map[int]bool{}
	for _, r := range refs {
		files[r.file] = true
	}
	return len(files)
}

func callsAny(fn *cudaparse.FunctionSummary, names map[string]bool) bool {
	for _, st := range fn.Steps {
		if st.Kind == cudaparse.StepCall && names[st.Callee] {
			return true
		}
	}
	return false
}

// Bounds of the caller search. A function called from more files than
// maxCallerFiles is not searched for (a helper named run or init is called
// from everywhere, and a warm-up in every caller is then unlikely); its
// known callers alone decide. At most maxCallerParses files are parsed for
// callers in a run, and two more for each name looked for in any round of
// the search: a fixed budget made the result depend on the tree's size (a
// tree of 670 timed functions, each warmed up by its one caller, kept 270
// of their findings), and so did a budget of one round's names set against
// the parses of every round (a third round's callers went unsearched).
const (
	maxCallerFiles  = 16
	maxCallerParses = 64
	// maxCallerAdmits bounds the files whose name filters admit a name
	// looked for as a callee: the filters answer by three-byte
	// sequences, so in a tree of names alike but for their digits a name
	// few files call is admitted by many more (up to 116 files of the
	// generated 334-group monorepo's 3,677).
	maxCallerAdmits = 16 * maxCallerFiles
)

// callerFiles returns the files not yet summarized that call one of the
// names, by their name filters, then their text: a call of the name.
func (pr *projectRun) callerFiles(names []string) []int {
	callsOf := pr.filesNaming(names, false, 2*maxCallerFiles, nil)
	if pr.callerBudget == 0 {
		pr.callerBudget = maxCallerParses
	}
	pr.callerBudget += 2 * len(names)
	var out []int
	picked := map[int]bool{}
	for _, name := range names {
		if len(callsOf[name]) > maxCallerFiles {
			continue
		}
		for _, i := range callsOf[name] {
			if !picked[i] && pr.callerParses < pr.callerBudget {
				picked[i] = true
				pr.callerParses++
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}

// filesNaming returns, by name, the files not yet summarized whose text
// calls (def false) or defines (def true) each name, at most limit files
// a name (a name more files spell is not looked for): those the name
// filters admit (among the files of among[name] when among is set, all
// files otherwise), read and scanned on the workers, each file once a
// run. For callees the limit counts the files that spell the name, not
// those whose filter merely admits it: a filter answers by three-byte
// sequences, and in a large tree of names alike but for their digits
// (time_g0190, time_g0191, ...) it admitted a name few files call for more
// files than the limit, so that its callers were not searched and the
// findings depended on the tree's size; a callee is not looked for only
// when more than maxCallerAdmits files' filters admit it. Definers are
// still bounded by their admissions: more than limit, and not looked for.
func (pr *projectRun) filesNaming(names []string, def bool, limit int, among map[string]fileSet) map[string][]int {
	probes := make([]rule.NameProbe, len(names))
	for k, name := range names {
		probes[k] = rule.NewNameProbe(name)
	}
	byName := map[string][]int{}
	mayName := func(i, k int) {
		if ff := &pr.facts[i]; ff.summary == nil && ff.filter != nil && ff.filter.MayContainProbe(probes[k]) {
			byName[names[k]] = append(byName[names[k]], i)
		}
	}
	if among == nil {
		// Every file for every name: one filter at a time, while it is
		// in the cache.
		for i := range pr.facts {
			for k := range names {
				mayName(i, k)
			}
		}
	} else {
		for k, name := range names {
			among[name].each(func(i int) { mayName(i, k) })
		}
	}
	// A name more files' filters admit than that is not looked for:
	// reading them all would read most of the tree for a common name
	// (unbounded, the 13-project tree's caller search read 10,491
	// files; bounded so, 2,248).
	admitLimit := limit
	if !def {
		admitLimit = maxCallerAdmits
	}
	for _, name := range names {
		if len(byName[name]) > admitLimit {
			delete(byName, name)
		}
	}
	admitted := map[int]bool{}
	for _, files := range byName {
		for _, i := range files {
			admitted[i] = true
		}
	}
	pr.readNames(sortedInts(admitted))
	out := map[string][]int{}
	for _, name := range names {
		if len(byName[name]) == 0 {
			continue
		}
		var spelling []int
		h := nameHash([]byte(name))
		for _, i := range byName[name] {
			if pr.fileNames[i].has(h, def) {
				spelling = append(spelling, i)
			}
		}
		if len(spelling) > 0 && len(spelling) <= limit {
			out[name] = spelling
		}
	}
	return out
}

// fileNames are the names a file defines as functions and calls, as
// filesNaming read them: sorted 64-bit hashes of the names (FNV-1a), with
// no strings kept or interned. A collision could only make a file look
// like it spells a name, which the summaries read after it correct.
type fileNames struct {
	read           bool
	defines, calls []uint64
}

// has reports whether the file defines (def) or calls the name whose
// nameHash is h.
func (fn *fileNames) has(h uint64, def bool) bool {
	hashes := fn.calls
	if def {
		hashes = fn.defines
	}
	_, found := slices.BinarySearch(hashes, h)
	return found
}

// nameHash is FNV-1a over a name's bytes: the same in every run.
func nameHash(name []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range name {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// readNames reads and scans, on the workers, the files at the indices not
// read before.
func (pr *projectRun) readNames(indices []int) {
	if pr.fileNames == nil {
		pr.fileNames = make([]fileNames, len(pr.facts))
	}
	var todo []int
	for _, i := range indices {
		if !pr.fileNames[i].read {
			todo = append(todo, i)
		}
	}
	onPool(len(todo), pr.workers, func(_ *worker, k int) {
		i := todo[k]
		fn := fileNames{read: true}
		if src, err := ReadSource(pr.sources[i]); err == nil {
			cudaparse.EachName(src, func(name []byte, def bool) {
				if def {
					fn.defines = append(fn.defines, nameHash(name))
				} else {
					fn.calls = append(fn.calls, nameHash(name))
				}
			})
			slices.Sort(fn.defines)
			slices.Sort(fn.calls)
			fn.defines, fn.calls = slices.Clip(slices.Compact(fn.defines)), slices.Clip(slices.Compact(fn.calls))
		}
		pr.fileNames[i] = fn // each worker its own index
	})
}

func sortedInts(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// spelledMacros returns the table when the text spells one of its names,
// and nil otherwise: macros a file never names cannot change its parse,
// and without them the parse of the per-file check is reused. (A header
// macro used through another is found by the first name.)
func spelledMacros(t cudaparse.MacroTable, text *rule.Text) cudaparse.MacroTable {
	for name := range t {
		if text.Contains(name) {
			return t
		}
	}
	return nil
}

// rerunAll checks the files at the indices again with the project's facts,
// on the workers, and hands each new result to done (from one goroutine
// at a time). It returns how many it checked. checkedWith holds the digest
// (digest) each file was last checked with; a file whose digest is the
// same is not checked again.
func (pr *projectRun) rerunAll(p *cudaparse.Project, indices []int, checkedWith map[int][32]byte, keep bool, done func(i int, out FileResult, how checked)) int {
	// A file checked with the same facts before (the caller round's
	// project adds facts to the first one's) would get the same result.
	// The digests are computed on the workers (the project's memos are
	// under its lock; formatting and hashing are not), then compared in
	// order.
	all := make([][32]byte, len(indices))
	onPool(len(indices), pr.workers, func(_ *worker, k int) { all[k] = pr.digest(p, indices[k]) })
	var digests [][32]byte
	kept := indices[:0:0]
	for k, i := range indices {
		d := all[k]
		if last, ok := checkedWith[i]; ok && last == d {
			continue
		}
		checkedWith[i] = d
		kept = append(kept, i)
		digests = append(digests, d)
	}
	indices = kept
	var mu sync.Mutex
	onPool(len(indices), pr.workers, func(w *worker, k int) {
		i := indices[k]
		out, how, sum, ok := pr.rerun(&w.parser, &w.text, p, digests[k], i, keep)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		// A parse's summary replaces one made from the text alone, which
		// knows no order of calls.
		if sum != nil && (pr.facts[i].summary == nil || pr.facts[i].lexical) {
			sum.Path = pr.shown[i]
			if pr.facts[i].lexical {
				pr.upgraded++
			}
			pr.facts[i].summary, pr.facts[i].lexical = sum, false
		}
		done(i, out, how)
	})
	return len(indices)
}

// The include graph. `#include "x.h"` is looked for beside the includer,
// then in the include folders (configuration, compile_commands.json), then
// among the project's files by path suffix: of several, the one nearest
// the includer. `#include <...>` is looked for the same way without the
// first step; system headers are not in the project and are never read.

// resolveIncludes fills includedBy: the indices each file includes.
func (pr *projectRun) resolveIncludes() {
	if pr.includes != nil {
		return
	}
	pr.includes = make([][]int, len(pr.facts))
	byAbs := map[string]int{}
	byBase := map[string][]int{}
	absAll := make([]string, len(pr.sources))
	for i := range pr.sources {
		abs := pr.absPath(i)
		absAll[i] = abs
		byAbs[abs] = i
		byBase[filepath.Base(abs)] = append(byBase[filepath.Base(abs)], i)
	}
	for i := range pr.facts {
		dir := filepath.Dir(pr.absPath(i))
		for _, inc := range pr.facts[i].includes {
			target := -1
			if inc.Quoted {
				if j, ok := byAbs[filepath.Join(dir, filepath.FromSlash(inc.Path))]; ok {
					target = j
				}
			}
			for _, d := range pr.opts.IncludeDirs {
				if target >= 0 {
					break
				}
				if j, ok := byAbs[filepath.Join(d, filepath.FromSlash(inc.Path))]; ok {
					target = j
				}
			}
			if target < 0 {
				target = nearestBySuffix(absAll, byBase[filepath.Base(inc.Path)], inc.Path, dir)
			}
			if target >= 0 && target != i {
				pr.includes[i] = append(pr.includes[i], target)
			}
		}
	}
}

// nearestBySuffix picks, of the files named like the include, those whose
// path ends with it, and of them the one sharing the longest folder prefix
// with the includer (then the first by path).
func nearestBySuffix(abs []string, cands []int, inc, dir string) int {
	best, bestShared := -1, -1
	suffix := string(filepath.Separator) + filepath.FromSlash(inc)
	for _, j := range cands {
		path := abs[j]
		if !strings.HasSuffix(path, suffix) {
			continue
		}
		shared := sharedPrefix(filepath.Dir(path), dir)
		if shared > bestShared || shared == bestShared && path < abs[best] {
			best, bestShared = j, shared
		}
	}
	return best
}

func sharedPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// maxIncludeDepth bounds how deep the include graph is followed.
const maxIncludeDepth = 16

// visibleMacros returns the call-renaming macros of the project headers
// file i includes, directly or not (its own are the parser's business).
// Include cycles end where a file was seen; a header included from many
// files is walked once per includer, its own macros shared.
func (pr *projectRun) visibleMacros(i int) cudaparse.MacroTable {
	pr.macroMu.Lock()
	defer pr.macroMu.Unlock()
	if t, ok := pr.visible[i]; ok {
		return t
	}
	pr.resolveIncludes()
	t := cudaparse.MacroTable{}
	t.Add(pr.opts.GlobalMacros...)
	seen := map[int]bool{i: true}
	frontier := pr.includes[i]
	for depth := 0; depth < maxIncludeDepth && len(frontier) > 0; depth++ {
		var next []int
		for _, j := range frontier {
			if seen[j] {
				continue
			}
			seen[j] = true
			t.Add(pr.facts[j].macros...)
			next = append(next, pr.includes[j]...)
		}
		frontier = next
	}
	if pr.visible == nil {
		pr.visible = map[int]cudaparse.MacroTable{}
	}
	pr.visible[i] = t
	return t
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
	if ff := &pr.facts[i]; ff.filter != nil {
		for name := range t {
			if _, ok := t.VolatileAccess(name); ok && ff.filter.MayContain(name) {
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
			all.Add(pr.facts[j].macros...)
		}
		pr.macroNames = make(map[string]bool, len(all))
		for name := range all {
			pr.macroNames[name] = true
		}
		pr.volatileMacros = sortedKeys(all.VolatileAccessNames())
	}
	pr.macroMu.Unlock()
	for _, name := range pr.calledNames(i) {
		if pr.macroNames[name] {
			return true
		}
	}
	if ff := &pr.facts[i]; ff.filter != nil {
		for _, name := range pr.volatileMacros {
			if ff.filter.MayContain(name) {
				return true
			}
		}
	}
	return false
}

// contextFiles walks root for the C/C++/CUDA files that are not among
// checked: they take part in project-wide analysis only. Walk errors there
// are not the run's: those files were not asked for.
func contextFiles(root string, checked []string, exclude func(string, bool) bool, extensions ...string) []string {
	seen := map[string]bool{}
	for _, p := range checked {
		seen[absPath(p)] = true
	}
	var out []string
	for _, p := range collect([]string{root}, exclude, extensions...).files {
		if !strings.HasSuffix(p, ".go") && !seen[absPath(p)] {
			out = append(out, p)
		}
	}
	return out
}

// ProjectAffects reports whether the project's facts can change the check
// of the file at path (as the engine names it) with contents src: it calls
// a function of another file that launches or preloads kernels, or one of
// its functions has callers that load kernels before calling it.
func ProjectAffects(p *cudaparse.Project, path string, src []byte) bool {
	if p == nil {
		return false
	}
	if callsProjectLoader(p, path, cudaparse.ScanNames(src).Calls, spelledIn(src), nil) {
		return true
	}
	return p.HasEntryFacts(path)
}

// summaries counts the files summarized so far.
func (pr *projectRun) summaries() int {
	n := 0
	for i := range pr.facts {
		if pr.facts[i].summary != nil {
			n++
		}
	}
	return n
}

// nameID is an interned name: a project's files call and define the same
// few thousand names, so each file keeps 4 bytes a name, not a string.
type nameID uint32

// interner hands out nameIDs; safe for concurrent use.
type interner struct {
	mu    sync.Mutex
	ids   map[string]nameID
	names []string
}

func newInterner() *interner { return &interner{ids: map[string]nameID{}} }

// scan returns the interned names src defines as functions and calls,
// each once. The text is scanned before the lock is taken: workers scan
// at once, and only interning is shared.
func (in *interner) scan(src []byte) (defines, calls []nameID) {
	seen := map[string]uint8{}
	var defNames, callNames []string
	cudaparse.EachName(src, func(name []byte, def bool) {
		bit := uint8(1)
		if def {
			bit = 2
		}
		if seen[string(name)]&bit != 0 {
			return
		}
		s := string(name)
		seen[s] |= bit
		if def {
			defNames = append(defNames, s)
		} else {
			callNames = append(callNames, s)
		}
	})
	return in.intern(defNames), in.intern(callNames)
}

func (in *interner) name(id nameID) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.names[id]
}

// timedCallsLoader reports whether a function of file i that measures
// (Timed), or a function of the file it calls, calls a function of another
// file that launches or preloads kernels: what LL002 would see differently
// with the project. A file without a summary (not parsed) is judged by the
// names it calls.
func (pr *projectRun) timedCallsLoader(p *cudaparse.Project, i int) bool {
	sum := pr.facts[i].summary
	if sum == nil {
		// A file not parsed times a loader of another file only if it
		// reads a clock itself (loadCandidate: its names are those it
		// calls between two reads); one that would measure only with
		// another file's clock or timer class is chosen when it calls
		// or declares one (needsRecheck).
		return pr.facts[i].loadCandidate && pr.callsLoaderElsewhere(p, i)
	}
	found := false
	spelled := pr.spells(i, pr.lazySource(i)) // the text read once, if a method call asks
	eachOutCall(sum, func(fn *cudaparse.FunctionSummary) bool { return fn.Timed }, func(fn *cudaparse.FunctionSummary, st *cudaparse.SummaryStep) bool {
		if !p.DefinesLoader(st.Callee) {
			return true
		}
		own := p.Function(sum.Path, fn.Name, fn.Line)
		if own == nil {
			return true
		}
		callee := p.ResolveStep(own, st)
		found = callee != nil && callee.File != sum.Path && !p.Kernels(callee).Empty() ||
			// obj.f() read from the text, its object's class unknown
			// until a parse: a method f of some class that loads.
			st.Method && st.Qualifier == "" && p.MethodLoads(st.Callee, sum.Path, spelled)
		return !found
	})
	return found
}

// eachOutCall visits, breadth first from the functions of sum that start
// says matter, the calls they make of names sum does not define, following
// calls of sum's own functions (a timed display() calls the file's
// generateImage(), which calls another file's launcher). visit returns
// false to stop.
func eachOutCall(sum *cudaparse.FileSummary, start func(fn *cudaparse.FunctionSummary) bool, visit func(fn *cudaparse.FunctionSummary, st *cudaparse.SummaryStep) bool) {
	byName := map[string][]int{}
	for k, fn := range sum.Functions {
		byName[fn.Name] = append(byName[fn.Name], k)
	}
	seen := map[int]bool{}
	var queue []int
	for k := range sum.Functions {
		if start(&sum.Functions[k]) {
			seen[k] = true
			queue = append(queue, k)
		}
	}
	for len(queue) > 0 {
		fn := &sum.Functions[queue[0]]
		queue = queue[1:]
		for j := range fn.Steps {
			st := &fn.Steps[j]
			if st.Kind != cudaparse.StepCall {
				continue
			}
			local := byName[st.Callee]
			for _, l := range local {
				if !seen[l] {
					seen[l] = true
					queue = append(queue, l)
				}
			}
			if len(local) == 0 && !visit(fn, st) {
				return
			}
		}
	}
}

// intern returns the names' ids.
func (in *interner) intern(names []string) []nameID {
	if len(names) == 0 {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	out := make([]nameID, len(names))
	for k, name := range names {
		id, ok := in.ids[name]
		if !ok {
			id = nameID(len(in.names))
			in.ids[name] = id
			in.names = append(in.names, name)
		}
		out[k] = id
	}
	return out
}

// usesCallerFacts reports whether a finding comes from a rule that
// consults what callers load (rule.CallerLoads).
func usesCallerFacts(fs []Finding) bool {
	for _, f := range fs {
		if f.Rule.RequiresFact(rule.CallerLoads) {
			return true
		}
	}
	return false
}

// usesProjectPreloads reports whether a finding comes from a rule that a
// program-wide preload can silence (rule.ProjectPreloads).
func usesProjectPreloads(fs []Finding) bool {
	for _, f := range fs {
		if f.Rule.RequiresFact(rule.ProjectPreloads) {
			return true
		}
	}
	return false
}

// keptParseBytes bounds the memory of the parsed files kept between the
// per-file check and the project step.
const keptParseBytes = 48 << 20

// fileKeeper keeps parsed files that the project step is likely to check
// again: those with a function that measures and calls a name the file
// does not define. Safe for concurrent use.
type fileKeeper struct {
	mu     sync.Mutex
	budget int
	files  map[int]*cudaparse.ParsedText
}

func newFileKeeper(budget int) *fileKeeper {
	return &fileKeeper{budget: budget, files: map[int]*cudaparse.ParsedText{}}
}

// offer keeps the parse of f (not its facts: the check again builds
// them anew) when the budget allows.
func (k *fileKeeper) offer(i int, f *cudaparse.File, sum *cudaparse.FileSummary) {
	if timedCallsOut(sum) {
		k.keep(i, f)
	}
}

// keep keeps the parse of f when the budget allows.
func (k *fileKeeper) keep(i int, f *cudaparse.File) {
	size := f.MemoryBytes()
	k.mu.Lock()
	defer k.mu.Unlock()
	if size <= k.budget {
		k.budget -= size
		k.files[i] = f.Parsed()
	}
}

// take returns the kept parse of file i, and forgets it.
func (k *fileKeeper) take(i int) *cudaparse.ParsedText {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	t := k.files[i]
	if t != nil {
		delete(k.files, i)
		k.budget += t.MemoryBytes()
	}
	return t
}

// timedCallsOut reports whether a function of the summary measures and
// calls a name the file does not define.
func timedCallsOut(sum *cudaparse.FileSummary) bool {
	if sum == nil {
		return false
	}
	defined := map[string]bool{}
	for _, fn := range sum.Functions {
		defined[fn.Name] = true
	}
	for _, fn := range sum.Functions {
		if !fn.Timed {
			continue
		}
		for _, st := range fn.Steps {
			if st.Kind == cudaparse.StepCall && !defined[st.Callee] {
				return true
			}
		}
	}
	return false
}

// noteAll notes the text facts of every file (noteProjectFacts), reading
// the files again: with a cache, phase 1 leaves this until the project's
// memo has missed. Files that cannot be read now take no part.
func (pr *projectRun) noteAll(checked int) {
	onPool(len(pr.facts), pr.workers, func(w *worker, i int) {
		src, err := ReadSource(pr.sources[i])
		if err != nil || binaryError(src) != nil {
			return
		}
		w.text.Reset(src)
		ff := &pr.facts[i]
		if ff.summary == nil {
			ff.summary = ff.summaryRef.get()
		}
		ff.summaryRef = nil
		how := skipped
		if ff.parsed {
			how = parsedIt
		}
		noteProjectFacts(ff, &w.text, pr.settings(pr.absPath(i)), ff.summary, how, ff.answers, pr.names)
		ff.answers = nil
		if i >= checked {
			ff.candidate = false
		}
	})
}

// The project memo: with a cache, the outcome of the project step (the
// results of the files checked again) is kept under a key made of this
// binary, the options, and the path and bytes of every file. A warm run of
// an unchanged project reads it back instead of linking.

const projectMemoVersion = 3

// hashSources reads the checked files and the context files and puts the
// fingerprint of each one's text in hashes (checked first, then context,
// as in Run's sources). It returns the bytes of the checked files, and
// false when one of them could not be read (its error must be reported,
// and errors are not memoized).
//
// The fingerprint is xxHash's 64 bits, not SHA-256: it is all a warm run
// computes over every byte of the tree, and SHA-256 made that run twice
// as slow (bench/README.md). Two texts of one path with the same 64 bits
// would reuse a memo: a chance of 2^-64 per change, which the per-file
// cache (SHA-256) does not take.
func hashSources(checked, context []string, hashes []uint64, workers int) (int64, bool) {
	var bytesRead atomic.Int64
	var failed atomic.Bool
	onPool(len(checked)+len(context), workers, func(_ *worker, i int) {
		path := ""
		if i < len(checked) {
			path = checked[i]
		} else {
			path = context[i-len(checked)]
		}
		src, err := ReadSource(path)
		switch {
		case err != nil && i < len(checked):
			failed.Store(true)
		case err == nil:
			hashes[i] = xxhash.Sum64(src)
			if i < len(checked) {
				bytesRead.Add(int64(len(src)))
			}
		}
	})
	return bytesRead.Load(), !failed.Load()
}

func projectMemoKey(opts *Options, shown []string, hashes []uint64, settings func(string) Settings, sources []string) cache.Key {
	h := sha256.New()
	binary, _ := cache.BinaryHash()
	fmt.Fprintf(h, "lazylint project memo %d\n%x\nlow-confidence=%v unused=%v\n", projectMemoVersion, binary, opts.LowConfidence, opts.ReportUnusedSuppressions)
	fmt.Fprintf(h, "include %q\nmacros %v\nroot %q\n", opts.IncludeDirs, opts.GlobalMacros, opts.ProjectRoot)
	var line []byte
	for i := range shown {
		s := settings(sources[i])
		// Path, text and settings as the per-file key has them (rules,
		// severities, options).
		line = append(line[:0], shown[i]...)
		line = append(line, ' ')
		line = strconv.AppendUint(line, hashes[i], 16)
		line = append(line, '\n')
		line = s.appendKey(line)
		h.Write(line)
	}
	var out cache.Key
	h.Sum(out[:0])
	return out
}

type memoFile struct {
	Path  string
	Entry json.RawMessage
}

// memoEntry is the outcome of a run with the project step: the results of
// the files checked again (which replace their per-file results) and of
// every other file with a finding or a suppressed one. When it is
// Complete (no checked file had an error, and errors are never kept), it
// is the whole run's outcome: a file it does not list has no findings.
type memoEntry struct {
	Version  int
	Complete bool
	// Checked is how many files some rule could fire on: the files a warm
	// run without the memo takes from the cache.
	Checked                                 int
	Files                                   []memoFile
	LinkParsed, Rechecked, ProjectFunctions int
}

func encodeMemo(results []sourceResult, rechecked map[int]bool, shown []string, stats *Stats) ([]byte, error) {
	e := memoEntry{Version: projectMemoVersion, Complete: true, LinkParsed: stats.LinkParsed, Rechecked: stats.Rechecked, ProjectFunctions: stats.ProjectFunctions}
	for i := range results {
		r := &results[i]
		if r.how != skipped {
			e.Checked++
		}
		if r.Err != nil {
			e.Complete = false
			continue
		}
		if !rechecked[i] && len(r.Findings) == 0 && len(r.Suppressed) == 0 {
			continue
		}
		data, err := encodeEntry(r.FileResult, nil)
		if err != nil {
			return nil, err
		}
		e.Files = append(e.Files, memoFile{Path: shown[i], Entry: data})
	}
	return json.Marshal(e)
}

// decodeMemo reads a memo back; nil when it cannot be read.
func decodeMemo(data []byte) *memoEntry {
	var e memoEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Version != projectMemoVersion {
		return nil
	}
	return &e
}

// applyMemo puts a memo's results in place; false (and nothing changed)
// when one cannot be read or names a file the run does not check.
func applyMemo(e *memoEntry, results []sourceResult, shown []string, settings func(string) Settings, sources []string, stats *Stats) bool {
	at := make(map[string]int, len(results))
	for i := range results {
		at[shown[i]] = i
	}
	decoded := map[int]FileResult{}
	for _, f := range e.Files {
		i, ok := at[f.Path]
		if !ok {
			return false
		}
		s := settings(sources[i])
		r, _, ok := decodeEntry(f.Entry, &s, f.Path)
		if !ok {
			return false
		}
		decoded[i] = r
	}
	for i, r := range decoded {
		results[i].FileResult = r
	}
	stats.LinkParsed, stats.Rechecked, stats.ProjectFunctions = e.LinkParsed, e.Rechecked, e.ProjectFunctions
	return true
}

// absPath is source i's absolute path.
func (pr *projectRun) absPath(i int) string {
	if i < len(pr.abs) {
		return pr.abs[i]
	}
	return absPath(pr.sources[i])
}

package engine

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/intern"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/spill"
)

// fileFacts is what step 1 notes about a source file for the project. A
// large tree's files are counted in hundreds of thousands: what most files
// lack sits behind one pointer (rareFacts), the summary too (a tenth of
// sixteen copies of the 38-project corpus had one), and the yes-or-no
// facts are bits: 24 bytes a file, where a pointer and a bool each in
// place made 40 (and before that 64).
type fileFacts struct {
	// more holds what few files have (nil: none of it).
	more *rareFacts
	// filterRef is the file's name filter in the run's store (0: none
	// there; rareFacts.heapFilter may hold it): it answers whether the
	// file may contain a name (for finding the callers of a function).
	filterRef spill.Ref
	flags     factFlags
}

// A file's facts stay 24 bytes (fileFacts).
var _ [24 - unsafe.Sizeof(fileFacts{})]struct{}

// factFlags are a file's yes-or-no facts (fileFacts.is).
type factFlags uint16

const (
	// factLexical: the summary was made from the text alone
	// (LexicalSummary).
	factLexical factFlags = 1 << iota
	// factTimersKnown: the scan's timers are the file's timer classes
	// (none for a file that spells no clock), so that a summary of the
	// text need not look for them again.
	factTimersKnown
	factScanned
	// factLoader: the file spells a launch or a preload: it may define a
	// function that loads kernels; factClockDefiner: it spells a host
	// clock read: it may define a timer helper.
	factLoader
	factClockDefiner
	// factLambdas: the text may hold a lambda; factDefinesKernels: it
	// spells __global__ (what a file may hand a timing helper,
	// handsCodeTo).
	factLambdas
	factDefinesKernels
	// factPreloader: the file spells a preload API
	// (cudaFuncGetAttributes): it may run a preload loop over the
	// project's kernel table.
	factPreloader
	// factCandidate: a rule may fire on it with project facts that does
	// not without them (or it was parsed); factLoadCandidate: once it is
	// taken to call a launcher of another file; factClockCandidate: a
	// timer helper.
	factCandidate
	factLoadCandidate
	factClockCandidate
	// factParsed: phase 1 parsed it or took it from the cache.
	factParsed
)

// is reports whether the file has every fact of f.
func (ff *fileFacts) is(f factFlags) bool { return ff.flags&f == f }

// set gives the file the facts of f (on) or takes them away.
func (ff *fileFacts) set(f factFlags, on bool) {
	if on {
		ff.flags |= f
	} else {
		ff.flags &^= f
	}
}

// summary returns the file's summary (nil: none).
func (ff *fileFacts) summary() *cudaparse.FileSummary {
	if ff.more == nil {
		return nil
	}
	return ff.more.summary
}

// setSummary makes sum the file's summary.
func (ff *fileFacts) setSummary(sum *cudaparse.FileSummary) {
	if sum == nil && ff.more == nil {
		return
	}
	ff.rare().summary = sum
}

// rareFacts are the facts of a file that most files of a tree lack.
type rareFacts struct {
	summary *cudaparse.FileSummary
	// waiting is what a memoized run keeps of the per-file check until
	// noteAll (nil otherwise).
	waiting *waitingFacts
	// names are the names a scan found (set with factScanned; read them
	// through found): most files of a large tree are never scanned.
	names *scannedNames
	// scan holds what the text's directives and declarations say (nil:
	// nothing; read it through scanResult).
	scan *fileScan
	// heapFilter is the file's name filter where the run's store could
	// not take it (no store, or a filter larger than its chunks).
	heapFilter *rule.NameFilter
}

// rare returns the file's rare facts for writing.
func (ff *fileFacts) rare() *rareFacts {
	if ff.more == nil {
		ff.more = &rareFacts{}
	}
	return ff.more
}

// waitingFacts returns what a memoized run keeps of the file's check
// (nil: nothing).
func (ff *fileFacts) waitingFacts() *waitingFacts {
	if ff.more == nil {
		return nil
	}
	return ff.more.waiting
}

// setWaiting sets what a memoized run keeps of the file's check.
func (ff *fileFacts) setWaiting(w *waitingFacts) {
	if w == nil && ff.more == nil {
		return
	}
	ff.rare().waiting = w
	if w == nil && *ff.more == (rareFacts{}) {
		ff.more = nil
	}
}

// waitingFacts are what a memoized run's per-file check found, kept
// until the project's memo is known to miss (noteAll): the summary not
// decoded yet and the prefilters' answers.
type waitingFacts struct {
	summary *summaryRef
	answers *prefilterAnswers
}

// fileScan is what a scan of a file's text found beyond names and
// includes: the timer classes it defines (cudaparse.TimerClasses, for a
// file that spells a clock), its call-renaming macros
// (cudaparse.Macro.Relevant) and its classes defined with base classes
// (cudaparse.ScanClassBases, for method calls on derived objects), their
// names interned (packClasses).
type fileScan struct {
	timers  []knowledge.TimerClass
	macros  []cudaparse.Macro
	classes []nameID
}

// packClasses keeps classes and their bases as one list of interned
// names: each class, its number of bases, then its bases. A class and
// each base as a string of its own were two thirds of the objects a scan
// kept (sixteen copies of the 38-project corpus checked as one project
// kept 270,000 of them), and the names recur across the tree's files.
func packClasses(names *interner, classes []cudaparse.ClassBases) []nameID {
	n := 0
	for _, c := range classes {
		n += 2 + len(c.Bases)
	}
	out := make([]nameID, 0, n)
	for _, c := range classes {
		out = names.table.IDs(out, []string{c.Class})
		out = append(out, nameID(len(c.Bases)))
		out = names.table.IDs(out, c.Bases)
	}
	return out
}

// eachClass calls f with each class packClasses packed, and its bases.
func eachClass(names *interner, packed []nameID, f func(class string, bases []nameID)) {
	for len(packed) >= 2 {
		n := int(packed[1])
		f(names.name(packed[0]), packed[2:2+n])
		packed = packed[2+n:]
	}
}

// noScan is the scan of a file that found none of it (never written).
var noScan fileScan

// scanResult returns what the file's scan found, for reading.
func (ff *fileFacts) scanResult() *fileScan {
	if ff.more == nil || ff.more.scan == nil {
		return &noScan
	}
	return ff.more.scan
}

// setScan records what the file's scan found, nothing kept when it found
// nothing.
func (ff *fileFacts) setScan(sc fileScan) {
	if len(sc.timers)+len(sc.macros)+len(sc.classes) == 0 {
		if ff.more != nil {
			ff.more.scan = nil
		}
		return
	}
	ff.rare().scan = &sc
}

// scannedNames are the names a scan of a file found, interned: the
// functions it defines whose body spells a launch or preload (defines),
// or a host clock read (clockDefines); the timing helpers it defines
// (cudaparse.TimingHelperDefinitions); the names it calls (calls, for
// candidates only). The four lists lie in one array, one after another
// (ends says where the first three end): four slices were 96 bytes and
// four arrays a scanned file, 8 MB of sixteen copies of the corpus
// checked as one project.
type scannedNames struct {
	ids  []nameID
	ends [3]uint32
}

// The lists of scannedNames, in the order they lie in ids.
const (
	definesList = iota
	clockDefinesList
	callsList
	timingDefinesList
)

// list returns list k of the names (not to be written).
func (n *scannedNames) list(k int) []nameID {
	start, end := uint32(0), uint32(len(n.ids))
	if k > 0 {
		start = n.ends[k-1]
	}
	if k < len(n.ends) {
		end = n.ends[k]
	}
	return n.ids[start:end:end]
}

func (n *scannedNames) defines() []nameID       { return n.list(definesList) }
func (n *scannedNames) clockDefines() []nameID  { return n.list(clockDefinesList) }
func (n *scannedNames) calls() []nameID         { return n.list(callsList) }
func (n *scannedNames) timingDefines() []nameID { return n.list(timingDefinesList) }

// set replaces list k of the names by ids.
func (n *scannedNames) set(k int, ids []nameID) {
	lists := [4][]nameID{n.defines(), n.clockDefines(), n.calls(), n.timingDefines()}
	lists[k] = ids
	all := make([]nameID, 0, len(lists[0])+len(lists[1])+len(lists[2])+len(lists[3]))
	for l, list := range lists {
		all = append(all, list...)
		if l < len(n.ends) {
			n.ends[l] = uint32(len(all))
		}
	}
	n.ids = all
}

// noNames are the names of a file not scanned (never written).
var noNames scannedNames

// found returns the names the file's scan found, for reading.
func (ff *fileFacts) found() *scannedNames {
	if ff.more == nil || ff.more.names == nil {
		return &noNames
	}
	return ff.more.names
}

// foundNow returns the file's names for its scan to fill.
func (ff *fileFacts) foundNow() *scannedNames {
	if m := ff.rare(); m.names == nil {
		m.names = &scannedNames{}
	}
	return ff.more.names
}

// setFilter keeps the file's name filter, its bytes in the run's store
// (a large tree's filters were an eighth of its check's live heap), or in
// the heap where the run has no store or the store cannot take it.
func (ff *fileFacts) setFilter(nf *rule.NameFilter, store *spill.Store) {
	// A filter's bytes are never empty: its ref is not 0.
	if ref, ok := store.Put(nf.Bytes()); ok && ref != 0 {
		ff.filterRef = ref
		return
	}
	ff.rare().heapFilter = nf
}

// hasFilter reports whether the file has a name filter.
func (ff *fileFacts) hasFilter() bool {
	return ff.filterRef != 0 || ff.more != nil && ff.more.heapFilter != nil
}

// filter returns the file's name filter, from store where it was put
// there (nil: none, or its bytes could not be read back).
func (ff *fileFacts) filter(store *spill.Store) *rule.NameFilter {
	if ff.filterRef == 0 {
		return ff.heapFilter()
	}
	return rule.NameFilterOf(store.Get(ff.filterRef))
}

// scanFilter is filter for a pass over the files in order
// (spill.Store.GetNear): the filter may lie in *buf, which the pass
// keeps for the next file's, and is valid until then.
func (ff *fileFacts) scanFilter(store *spill.Store, buf *[]byte) *rule.NameFilter {
	if ff.filterRef == 0 {
		return ff.heapFilter()
	}
	return rule.NameFilterOf(store.GetNear(ff.filterRef, buf))
}

func (ff *fileFacts) heapFilter() *rule.NameFilter {
	if ff.more == nil {
		return nil
	}
	return ff.more.heapFilter
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
// prefilters' answers about the text (nil: not asked yet). It returns the
// file's #include directives, for the caller to resolve
// (includeResolver.note).
func noteProjectFacts(ff *fileFacts, text *rule.Text, s Settings, sum *cudaparse.FileSummary, how checked, answers *prefilterAnswers, names *interner, store *spill.Store, steps *cudaparse.StepStore) (includes []cudaparse.Include) {
	sum.MoveSteps(steps)
	ff.setSummary(sum)
	ff.set(factParsed, how != skipped && sum != nil)
	// The team's own helpers and clocks (the configuration's) count as
	// the tables' do.
	ownLoads, ownClocks := s.Additions.LoadSpellings(), s.Additions.ClockSpellings()
	ff.set(factLoader, text.ContainsAny(kernelLoadSpellings...) || text.ContainsAny(ownLoads...))
	ff.set(factPreloader, ff.is(factLoader) && text.ContainsAny(preloadSpellings...))
	ff.set(factClockDefiner, text.ContainsAny(hostClockSpellings...) || text.ContainsAny(ownClocks...))
	ff.set(factLambdas, text.ContainsAny("](", "] (", "]{", "] {"))
	ff.set(factDefinesKernels, text.Contains("__global__"))
	text.SetAdditions(ownLoads, ownClocks) // what the answers were given (a memoized run reset the text)
	if answers == nil {
		answers = askPrefilters(s.Rules, text)
	}
	// Whether a rule would fire with the project's help: asked only of the
	// prefilters that asked for a fact, which alone can answer otherwise.
	if answers.askedLoader && (readsClock(text) || text.ContainsAny(ownClocks...)) {
		ff.set(factLoadCandidate, answers.firesWith(text, true, false))
	}
	if answers.askedClock {
		ff.set(factClockCandidate, answers.firesWith(text, false, true))
	}
	ff.set(factCandidate, ff.is(factLoadCandidate) || ff.is(factClockCandidate) || ff.is(factParsed))
	// A timer class of CUDA events is a clock too, for the files that
	// declare its objects.
	eventTimer := !ff.is(factClockDefiner) && !slices.ContainsFunc(knowledge.EventTimerSpellings, func(lit string) bool { return !text.Contains(lit) })
	if !ff.is(factParsed) && (ff.is(factLoader) || ff.is(factClockDefiner) || eventTimer || ff.is(factLoadCandidate) || ff.is(factClockCandidate)) {
		ff.set(factScanned, true)
		switch {
		case ff.is(factClockCandidate):
			_, calls := names.scan(text.Src)
			ff.foundNow().set(callsList, calls)
		case ff.is(factLoadCandidate):
			// Only what the file's functions call between two clock
			// reads can be a timed launch of another file.
			ff.foundNow().set(callsList, names.intern(cudaparse.TimedCalls(text.Src, presentLiterals(text, withSpellings(clockReadLiterals, ownClocks)))))
		}
		if ff.is(factLoader) {
			ff.foundNow().set(definesList, names.intern(cudaparse.LoaderDefinitions(text.Src, presentLiterals(text, withSpellings(kernelLoadLiterals, ownLoads)))))
		}
		if ff.is(factClockDefiner) {
			ff.foundNow().set(clockDefinesList, names.intern(cudaparse.LoaderDefinitions(text.Src, presentLiterals(text, withSpellings(hostClockLiterals, ownClocks)))))
		}
		if eventTimer || ff.is(factClockDefiner) {
			// Timing helpers (`timeGpu(f)`: f() between two event
			// records or clock reads), which the clock helpers above
			// need not hold (they read a host clock once).
			ff.foundNow().set(timingDefinesList, names.intern(cudaparse.TimingHelperDefinitions(text.Src, presentLiterals(text, hostClockLiterals))))
		}
	}
	sc := fileScan{timers: ff.scanResult().timers}
	if !ff.is(factParsed) {
		sc.timers = nil
		if ff.is(factClockDefiner) || eventTimer {
			// Without either, the file can define no timer class.
			sc.timers = cudaparse.TimerClasses(text.Src, s.Additions)
		}
		ff.set(factTimersKnown, true)
	}
	ff.setFilter(text.NameFilter(), store)
	if text.ContainsAny("class", "struct") { // the text's index answers most files without a scan
		sc.classes = packClasses(names, cudaparse.ScanClassBases(text.Src))
	}
	if text.Contains("#") {
		var macros []cudaparse.Macro
		macros, includes = cudaparse.ScanDirectives(text.Src)
		sc.macros = cudaparse.SharedMacros(macros)
	}
	ff.setScan(sc)
	return includes
}

// nameID is an interned name: a project's files call and define the same
// few thousand names, so each file keeps 4 bytes a name, not a string.
type nameID = uint32

// interner hands out nameIDs; safe for concurrent use.
type interner struct{ table *intern.Table }

func newInterner() *interner { return &interner{intern.New()} }

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

func (in *interner) name(id nameID) string { return in.table.Name(id) }

// intern returns the names' ids, in an array of their size: they are kept
// to the end of the run.
func (in *interner) intern(names []string) []nameID {
	if len(names) == 0 {
		return nil
	}
	return in.table.IDs(make([]nameID, 0, len(names)), names)
}

// spillMemoryBytes is how much of the summaries' encoded steps, the name
// filters and the caller search's names a run keeps in memory before
// writing the rest to a temporary file (spill.Store): the 13-project
// tree's take 12 MB, the 38-project corpus checked as one project's 20 MB,
// four copies of it 74 MB. spillChunkBytes is the store's chunk size (a
// test's is small).
var (
	spillMemoryBytes = 16 << 20
	spillChunkBytes  = 1 << 20
)

// keptParseBytes bounds the memory of the parsed files kept between the
// per-file check and the project step (a file past it is parsed again if
// the project step checks it again).
const keptParseBytes = 24 << 20

// largeTreeFiles is the number of files past which the two bounded
// memories above are halved (memoryBudget): there the per-file facts
// take the room. Four copies of the 38-project corpus checked as one
// project (89,160 files) peaked at 310-338 MB of RSS with the halves
// against 356-369 MB (the most live heap, gctrace, 176-183 against
// 199-208 MB), CPU no higher (69-80 s either way); two copies at 255-263
// against 272-276 MB; eight copies at 479 against 500 MB. Under it the
// whole budgets stand: halved, the 13-project tree (15,419 files) would
// parse 5 files again and the corpus once (22,290) 95. Quartered past
// twice the bound, eight copies once cost 11% more CPU for no lower a
// peak (their peak was elsewhere then); quartered past four times it
// (memoryBudget), with the include directives no longer kept as text,
// eight copies take 1-3% more CPU and sixteen copies keep their most
// live heap under the collector's floor.
const largeTreeFiles = 32 << 10

// memoryBudget is one of the bounded memories for a tree of that many
// files: halved past largeTreeFiles, quartered past four times it. There
// the per-file facts and the project's functions hold the most live heap
// while the files are checked again, and the budgets buy little: sixteen
// copies of the corpus (356,640 files) kept 241 parses of the 6,272 it
// asked to keep, and 9 MB of its 290 MB of spilled records in memory.
func memoryBudget(bytes, files int) int {
	switch {
	case files > 4*largeTreeFiles:
		return bytes / 4
	case files > largeTreeFiles:
		return bytes / 2
	}
	return bytes
}

// fileKeeper keeps parsed files that the project step is likely to check
// again: those with a function that measures and calls a name the file
// does not define. Safe for concurrent use.
type fileKeeper struct {
	mu     sync.Mutex
	budget int
	files  map[int]*cudaparse.ParsedText
	// For the trace: the bytes kept at most at once, the parses kept and
	// those refused for want of budget.
	initial, peak, kept, refused int
}

func newFileKeeper(budget int) *fileKeeper {
	return &fileKeeper{budget: budget, initial: budget, files: map[int]*cudaparse.ParsedText{}}
}

// stats returns the bytes kept at most at once, and how many parses were
// kept and refused.
func (k *fileKeeper) stats() (peak, kept, refused int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.peak, k.kept, k.refused
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
	if size > k.budget {
		k.refused++
		return
	}
	k.budget -= size
	k.files[i] = f.Parsed()
	k.kept++
	k.peak = max(k.peak, k.initial-k.budget)
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
	for k := range sum.FunctionCount() {
		defined[sum.FunctionName(k)] = true
	}
	for _, fn := range sum.EachFunction() {
		if !fn.Timed {
			continue
		}
		for _, st := range fn.AllSteps() {
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
		src, err := ReadSource(pr.sources.abs(i))
		if err != nil || binaryError(src) != nil {
			return
		}
		w.text.Reset(src)
		ff := &pr.facts[i]
		var answers *prefilterAnswers
		if waiting := ff.waitingFacts(); waiting != nil {
			if ff.summary() == nil {
				ff.setSummary(waiting.summary.get())
			}
			answers = waiting.answers
			ff.setWaiting(nil)
		}
		how := skipped
		if ff.is(factParsed) {
			how = parsedIt
		}
		pr.resolver.note(i, noteProjectFacts(ff, &w.text, pr.settings(pr.sources.abs(i)), ff.summary(), how, answers, pr.names, pr.spill, pr.steps))
		if i >= checked {
			ff.set(factCandidate, false)
		}
	})
}

// The project memo: with a cache, the outcome of the project step (the
// results of the files checked again) is kept under a key made of this
// binary, the options, and the path and bytes of every file. A warm run of
// an unchanged project reads it back instead of linking.

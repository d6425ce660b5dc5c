package engine

import (
	"strings"
	"sync"

	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/spill"
	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
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
//     cudaparse.TimedCalls); its includes, resolved to files of the run
//     (includeResolver); a name filter. With a cache,
//     this waits until the project memo has missed (noteAll).
//  2. Link: the files defining what the files of step 1 call where it
//     matters (in functions that measure) are summarized from their text
//     (cudaparse.LexicalSummary), and what those call in turn, at most
//     maxLinkRounds rounds. The summaries are linked into a
//     link.Project; calls see only headers they include and files of
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

// projectRun is the state of steps 2 and 3.
type projectRun struct {
	opts Options
	// sources are the files' absolute and shown paths.
	sources *filePaths
	// checked is how many of the sources are checked (the others, of the
	// project root, lend facts only).
	checked int
	facts   []fileFacts
	// resolver holds each file's #includes, resolved as the files were
	// noted, until resolveIncludes takes them (then nil).
	resolver *includeResolver
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
	// timingHelpers are the names of the functions summarized that time
	// a parameter (link): a function calling one measures.
	timingHelpers map[string]bool
	// clockReaders are the names of the free functions summarized that
	// read a host clock once (a timestamp helper of another file): two
	// calls of them measure what lies between (measures).
	clockReaders map[string]bool
	asked        map[int]bool
	callerParses int
	fileNames    []*fileNames // by file: the names it spells, once read for a search
	callerBudget int          // parses the caller search may make: grows with the names looked for
	// includes are the resolved #includes of each file; visible the
	// macros each file sees through them (under macroMu).
	includes edges
	visible  map[int]cudaparse.MacroTable
	// visibleCount counts the macros of visible's tables (maxVisibleMacros).
	visibleCount int
	// macroWalk is visibleMacros' scratch memory (under macroMu).
	macroWalk closureWalk
	macroMu   sync.Mutex
	// macroNames are the names of every file's renaming macros, and
	// volatileMacros the probes of those that read or write through a
	// volatile pointer (built once, under macroMu): a file that names
	// none of them calls no header macro, whatever its includes.
	macroNames     map[string]bool
	volatileMacros []rule.NameProbe
	// byShown, closures (under visMu): files by name (fileByShown) and
	// their include closures, for visibleFrom; header tells headers by
	// their names; includedSrc and near memoize includedSources and
	// nearSources.
	byShown     pathIndex
	shownAt     map[shownKey]int32 // memoizes fileByShown (-1: no file)
	header      []bool
	includedSrc map[int]fileSet
	// includedHdr and besideHdr memoize includedHeaders and
	// sourcesBesideHeaders.
	includedHdr, besideHdr map[int]fileSet
	// includedDirs memoizes headerDirs; includedDirsHeld counts its
	// numbers (maxIncludedDirs).
	includedDirs     map[int][]int32
	includedDirsHeld int
	near             map[int]fileSet
	// memoWords counts the words of the sets memoSet keeps (maxMemoWords).
	memoWords int
	// dirFiles, dirParent and dirChildren are each folder's files,
	// parent and children by its number (dirID; -1: the parent holds no
	// file); dirSeen is headerDirs' scratch.
	dirFiles    rows
	dirParent   []int32
	dirChildren rows
	dirSeen     []bool
	closures    map[int]fileSet
	// closureWords counts the words of closures' sets (maxClosureWords).
	closureWords int
	closureWalk  closureWalk
	// includers: the source files including each header (includerFiles);
	// includedBy: the files including each file directly.
	includers  map[int32][]int32
	includedBy edges
	// includersBuf is visibleFrom's scratch for directIncluders (under visMu).
	includersBuf []int32
	visMu        sync.Mutex
	// timersOf memoizes declaredTimers while the project's timer classes
	// and their members are timerNames and timerMembers (under timersMu).
	timersMu                 sync.Mutex
	timerNames, timerMembers []string
	timersOf                 map[int][]knowledge.TimerClass
	// device holds the device summaries of files parsed for translation
	// units; unitDevice, by file, those of its units' other files.
	device, unitDevice map[int][]cudaparse.DeviceSummary
	// names interns the names the scans found; kept holds files parsed
	// in the per-file check that the project may change.
	names *interner
	kept  *fileKeeper
	// spill holds the name filters and, through steps, the steps of the
	// summaries in facts (cudaparse.FileSummary.MoveSteps).
	spill *spill.Store
	steps *cudaparse.StepStore
	// called memoizes calledNames by summary, and calledHeld counts its
	// names (under calledMu).
	calledMu   sync.Mutex
	called     map[*cudaparse.FileSummary][]string
	calledHeld int
	// launchMacros are the project's launch macros as launchers
	// (addMacroLoaders), and launchAdd the additions with them, by the
	// additions they extend (under launchAddMu).
	launchMacros []knowledge.Helper
	launchAdd    map[*knowledge.Additions]*knowledge.Additions
	launchAddMu  sync.Mutex
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
func ProjectAffects(p *link.Project, path string, src []byte) bool {
	if p == nil {
		return false
	}
	if callsProjectLoader(p, path, cudaparse.ScanNames(src).Calls, spelledIn(src), nil) {
		return true
	}
	return p.HasEntryFacts(path)
}

// eachOutCall visits, breadth first from the functions of sum that start
// says matter, the calls they make of names sum does not define, following
// calls of sum's own functions (a timed display() calls the file's
// generateImage(), which calls another file's launcher). visit returns
// false to stop.
func eachOutCall(sum *cudaparse.FileSummary, start func(fn *cudaparse.FunctionSummary) bool, visit func(fn *cudaparse.FunctionSummary, st *cudaparse.SummaryStep) bool) {
	byName := map[string][]int{}
	for k := range sum.FunctionCount() {
		name := sum.FunctionName(k)
		byName[name] = append(byName[name], k)
	}
	seen := map[int]bool{}
	var queue []int
	for k, fn := range sum.EachFunction() {
		if start(fn) {
			seen[k] = true
			queue = append(queue, k)
		}
	}
	for len(queue) > 0 {
		fn := new(cudaparse.FunctionSummary)
		*fn = sum.FunctionAt(queue[0])
		queue = queue[1:]
		for _, st := range fn.AllSteps() {
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

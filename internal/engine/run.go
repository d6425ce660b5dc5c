package engine

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/spill"
)

// Run checks the files and folders of opts.Paths. It is the list of its
// phases, which --trace reports by the same names: walk the paths, check
// the Go files, read the memo of an unchanged project, check each C/C++/CUDA
// file alone (summarizing it for the project), link the project and check
// again the files whose facts changed (select, recheck, callers), report.
func Run(opts Options) Result {
	r := newRun(opts)
	r.walk()
	r.checkGo()
	if r.fromMemo() {
		return r.report()
	}
	r.checkFiles()
	r.projectStep()
	return r.report()
}

// run is the state of one Run, phase to phase.
type run struct {
	opts        Options
	start       time.Time
	res         Result
	base        string
	settingsFor func(string) Settings
	workers     int

	// goFiles go to the cgo analyzers; sources (their paths) to the
	// C/C++/CUDA rules, the first checkedSources of them checked, the
	// others (files of the project root not named) lending their facts
	// only.
	goFiles        []string
	sources        *filePaths
	checkedSources int
	total          int
	results        sourceResults
	done           atomic.Int64
	// bytesRead counts the bytes of the checked files read (Stats.Bytes).
	bytesRead atomic.Int64

	// The project step's per-file notes, each file's #include directives
	// resolved as noted, and what it keeps of the parses.
	facts    []fileFacts
	resolver *includeResolver
	names    *interner
	kept     *fileKeeper
	// spill holds the name filters and, through steps, the steps of the
	// summaries in facts (cudaparse.FileSummary.MoveSteps).
	spill *spill.Store
	steps *cudaparse.StepStore

	// The memo of the project step, with a cache: keyed on every file's
	// bytes (hashes); changed is set when a file changed since it was
	// hashed.
	memoize bool
	hashes  []uint64
	memoKey cache.Key
	memo    *memoEntry
	changed atomic.Bool
}

func newRun(opts Options) *run {
	r := &run{opts: opts, start: time.Now()}
	if opts.Cache != nil {
		// Hashing the binary (tens of MB) overlaps the walk.
		go func() { _, _ = cache.BinaryHash() }()
	}
	r.base = opts.BaseDir
	if r.base == "" {
		r.base, _ = os.Getwd()
	}
	r.settingsFor = opts.settingsFor()
	r.workers = opts.Workers
	if r.workers <= 0 {
		r.workers = runtime.NumCPU()
	}
	return r
}

// walk collects the files to check and sorts them into Go files and
// sources, adding the project root's other files as context.
func (r *run) walk() {
	opts := &r.opts
	walked := collect(opts.Paths, opts.Exclude, opts.Extensions...)
	opts.trace(r.start, "walk", "%d files", len(walked.files))
	r.res = Result{Errors: walked.errors, ExcludedNamed: walked.excludedNamed}
	r.res.Stats.Excluded = walked.excluded
	if opts.Cache != nil {
		if _, err := cache.BinaryHash(); err != nil {
			opts.Cache = nil // no key without the binary: run uncached
		}
	}
	var sources []string
	for _, p := range walked.files {
		if strings.HasSuffix(p, ".go") {
			r.goFiles = append(r.goFiles, p)
		} else {
			sources = append(sources, p)
		}
	}
	r.total = len(sources) + len(r.goFiles)
	r.checkedSources = len(sources)
	if opts.ProjectRoot != "" && !opts.NoProject {
		sources = append(sources, contextFiles(opts.ProjectRoot, sources, opts.Exclude, opts.Extensions...)...)
	}
	r.res.Stats.Files = r.total
	r.results = newSourceResults(len(sources))
	// Absolute paths once: filepath.Abs asks for the working directory
	// each time (two stats a call; 90,000 of them in a run of 15,000
	// files). Each file is read by its absolute path, and the shown one
	// is most often its end.
	wd, _ := os.Getwd()
	abs := make([]string, len(sources))
	for i, p := range sources {
		abs[i] = absFrom(wd, p)
	}
	r.sources = newFilePaths(abs, func(i int, abs string) string { return relFromAbs(r.base, sources[i], abs) })
	n := r.sources.len()
	r.facts = make([]fileFacts, n)
	if !opts.NoProject {
		r.resolver = newIncludeResolver(r.sources, opts.IncludeDirs)
	}
	r.names = newInterner()
	r.kept = newFileKeeper(memoryBudget(keptParseBytes, n))
	if !opts.NoProject {
		r.spill = spill.NewChunked(memoryBudget(spillMemoryBytes, n), spillChunkBytes, "")
		r.steps = cudaparse.NewStepStore(r.spill)
	}
	// With a cache, the project step's outcome is memoized on the bytes of
	// every file (hashes): a warm run of an unchanged project skips it.
	r.memoize = opts.Cache != nil && !opts.NoProject && !opts.NeedProject
	if r.memoize {
		r.hashes = make([]uint64, n)
	}
}

// checkGo runs the cgo analyzers on the Go files.
func (r *run) checkGo() {
	goRes := checkGo(r.goFiles, r.settingsFor, r.base, os.ReadFile, r.opts)
	r.res.Findings = append(r.res.Findings, goRes.findings...)
	r.res.Suppressed = append(r.res.Suppressed, goRes.suppressed...)
	r.res.Errors = append(r.res.Errors, goRes.errors...)
	r.res.Stats.Files -= goRes.skipped
	r.done.Store(int64(len(r.goFiles)))
	if r.opts.Progress != nil && len(r.goFiles) > 0 {
		r.opts.Progress(len(r.goFiles), r.total)
	}
}

// fromMemo reads every file's bytes first and, when the memo of the
// project holds them all unchanged, takes every result from it: a warm run
// of an unchanged project does nothing else.
func (r *run) fromMemo() bool {
	if !r.memoize || r.sources.len() == 0 {
		return false
	}
	base, _ := filepath.Abs(r.base)
	indexKey := statIndexKey(base)
	var old *statIndex
	if data, ok := r.opts.Cache.Get(indexKey); ok {
		old = decodeStatIndex(data)
	}
	stamps := newStampedSources(r.sources, old)
	bytesRead, complete := hashSources(r.sources, r.checkedSources, r.hashes, r.workers, stamps)
	if reread := stamps.reread.Load(); reread > 0 || old == nil {
		r.opts.Cache.Put(indexKey, stamps.encode())
	}
	r.opts.trace(r.start, "stamps", "%d of %d files unchanged since the last run, %d read", int64(r.sources.len())-stamps.reread.Load(), r.sources.len(), stamps.reread.Load())
	r.memoKey = projectMemoKey(&r.opts, r.sources, r.hashes, r.settingsFor)
	if data, ok := r.opts.Cache.Get(r.memoKey); ok {
		r.memo = decodeMemo(data)
	}
	if r.memo == nil || !r.memo.Complete || !complete ||
		!applyMemo(r.memo, r.results.upTo(r.checkedSources), r.sources, r.settingsFor, &r.res.Stats) {
		return false
	}
	r.res.Stats.Bytes, r.res.Stats.Cached = bytesRead, r.memo.Checked
	if r.opts.Progress != nil {
		r.opts.Progress(r.total, r.total)
	}
	return true
}

// checkFiles checks each source alone, on the workers (one parser each),
// and notes what the project step needs of it.
func (r *run) checkFiles() {
	onPool(r.sources.len(), r.workers, func(w *worker, i int) { r.checkFile(&w.parser, &w.text, i) })
	r.opts.trace(r.start, "files", "%d parsed", countParsed(r.results))
}

// checkFile checks source i alone (a context file: notes its facts only).
func (r *run) checkFile(parser **cudaparse.Parser, text *rule.Text, i int) {
	opts := &r.opts
	shown, abs := r.sources.shown(i), r.sources.abs(i)
	src, err := ReadSource(abs)
	if err == nil && r.memoize && xxhash.Sum64(src) != r.hashes[i] {
		r.changed.Store(true) // since it was hashed: no memo of this run
	}
	if i >= r.checkedSources {
		if err == nil && !r.memoize && !bytes.Contains(src[:min(len(src), binaryProbe)], []byte{0}) {
			text.Reset(src)
			r.resolver.note(i, noteProjectFacts(&r.facts[i], text, r.settingsFor(abs), nil, skipped, nil, r.names, r.spill, r.steps))
			r.facts[i].set(factCandidate, false)
		}
		return
	}
	if err != nil {
		r.results.set(i, FileResult{Err: &FileError{Path: shown, Message: cleanErr(err).Error()}})
	} else {
		r.bytesRead.Add(int64(len(src)))
		s := r.settingsFor(abs)
		text.Reset(src)
		var in projectInput
		if !opts.NoProject {
			in.keep = func(f *cudaparse.File, sum *cudaparse.FileSummary) { r.kept.offer(i, f, sum) }
		}
		var ref *summaryRef
		var answers *prefilterAnswers
		var out FileResult
		out, r.results.how[i], ref, answers = checkText(parser, text, s, opts, shown, &in)
		r.results.set(i, out)
		switch {
		case r.memoize:
			// The text's facts, and the summary, wait until the project's
			// memo is known to miss.
			r.facts[i].setWaiting(&waitingFacts{summary: ref, answers: answers})
			r.facts[i].set(factParsed, r.results.how[i] != skipped && ref != nil)
		case !opts.NoProject:
			r.resolver.note(i, noteProjectFacts(&r.facts[i], text, s, ref.get(), r.results.how[i], answers, r.names, r.spill, r.steps))
		}
	}
	if opts.Progress != nil {
		opts.Progress(int(r.done.Add(1)), r.total)
	}
}

// projectStep links the project's summaries and checks again the files
// whose facts changed: first with what the files call, then, once, with
// what the callers of the functions that hold findings load before
// calling. A memo that is not complete (a file had an error, which is not
// kept) still holds its results.
func (r *run) projectStep() {
	opts := &r.opts
	memoHit := r.memo != nil && !r.changed.Load() &&
		applyMemo(r.memo, r.results.upTo(r.checkedSources), r.sources, r.settingsFor, &r.res.Stats)
	if opts.NoProject || r.sources.len() == 0 || memoHit {
		return
	}
	pr := &projectRun{opts: r.opts, sources: r.sources, checked: r.checkedSources, facts: r.facts, resolver: r.resolver, settings: r.settingsFor, workers: r.workers, names: r.names, kept: r.kept, spill: r.spill, steps: r.steps}
	r.resolver = nil // the project's now: dropped once resolved
	if r.memoize {
		pr.noteAll(r.checkedSources)
	}
	project := pr.link(linkAlso(pr, r.results))
	opts.trace(r.start, "link", "%d summaries, %d parsed", pr.summaries(), pr.parsed)
	rechecked := map[int]bool{}
	checkedWith := map[int][32]byte{} // the digest each file was checked again with
	for round := 0; round < 2; round++ {
		if round == 1 {
			// The files checked again were parsed: their summaries now
			// hold every call of their measuring functions, also those
			// before the timer starts (a warm-up defined in another
			// file), where their text's scan held only the timed calls.
			// The project linked now is kept only in case nothing below
			// changes it: its memos go.
			project.Forget()
			pr.linkFrom(slices.Sorted(maps.Keys(rechecked)), nil)
			// Files checked again may have been summarized on the way.
			if !extend(pr, r.results) && pr.summaries() == project.Files() && pr.upgraded == 0 {
				break
			}
			project = pr.project()
			opts.trace(r.start, "callers", "%d summaries, %d parsed", pr.summaries(), pr.parsed)
		}
		again := pr.recheck(project, r.results)
		for _, i := range again {
			rechecked[i] = true
		}
		for k := range providers {
			if pv := &providers[k]; pv.prepare != nil {
				pv.prepare(pr, again, r.results)
			}
		}
		opts.trace(r.start, "select", "%d files to check again", len(again))
		ran := pr.rerunAll(project, again, checkedWith, round == 0, func(i int, out FileResult, how checked) {
			if how == parsedIt && r.results.how[i] == skipped {
				r.results.how[i] = parsedIt
			}
			r.results.set(i, out)
		})
		opts.trace(r.start, "recheck", "%d with new facts", ran)
	}
	mem, disk := r.spill.Size()
	opts.trace(r.start, "spill", "steps, name filters and names: %d KB in memory, %d KB on disk", mem>>10, disk>>10)
	peak, kept, refused := r.kept.stats()
	opts.trace(r.start, "kept", "%d parses kept for the project step (%d KB at most at once), %d refused past %d KB", kept, peak>>10, refused, r.kept.initial>>10)
	r.res.Stats.LinkParsed = pr.parsed
	r.res.Stats.ProjectFunctions = project.Len()
	r.res.Stats.Rechecked = len(rechecked)
	r.res.Project = project
	if r.memoize && !r.changed.Load() {
		if data, err := encodeMemo(r.results.upTo(r.checkedSources), rechecked, r.sources, &r.res.Stats); err == nil {
			opts.Cache.Put(r.memoKey, data)
		}
	}
}

// report gathers the results of the checked files, sorted.
func (r *run) report() Result {
	r.res.Stats.Bytes += r.bytesRead.Load()
	return r.res.finish(r.results.upTo(r.checkedSources), r.base, r.start)
}

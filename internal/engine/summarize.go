package engine

import (
	"sort"
	"sync/atomic"
	"time"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
)

// SummaryStats says what Summarize wrote.
type SummaryStats struct {
	// Files is the number of C/C++/CUDA files read; Results those whose
	// per-file result was written (some rule's prefilter admits them),
	// Summaries those whose parse summary was written, Parsed those parsed
	// (the others were in the cache already).
	Files, Results, Summaries, Parsed int
	Duration                          time.Duration
}

// Summarize writes into opts.Cache what a check computes of each
// C/C++/CUDA file of opts.Paths alone, keyed as a check looks for it:
// the file's result before the project's facts (for the rules its
// prefilters admit, with opts' settings) and its parse summary. Nothing
// in them depends on another file, so summaries made on several machines,
// or by one build action per file, can be put in one folder and read by
// `lazylint check --summaries`: a check then parses only the files whose
// result the project's facts change.
//
// The parse summary is written for the files a check parses, and for those
// that spell a launch, a preload or a clock read: the files the link step
// asks to parse. Other files it may ask for (the callers of a function
// with a finding) are parsed by the check.
func Summarize(opts Options) (SummaryStats, []FileError) {
	start := time.Now()
	opts.ProjectRoot, opts.NoProject = "", true
	r := newRun(opts)
	r.walk()
	binary, err := cache.BinaryHash()
	if opts.Cache == nil || err != nil {
		return SummaryStats{}, append(r.res.Errors, FileError{Path: "", Message: "summaries need a folder to write to and the lazylint binary's hash"})
	}
	var results, summaries, parsed atomic.Int64
	errs := make([]*FileError, r.sources.len())
	onPool(r.sources.len(), r.workers, func(w *worker, i int) {
		wrote, summarized, didParse, ferr := r.summarizeFile(&w.parser, &w.text, binary, i)
		errs[i] = ferr
		if wrote {
			results.Add(1)
		}
		if summarized {
			summaries.Add(1)
		}
		if didParse {
			parsed.Add(1)
		}
	})
	out := r.res.Errors
	for _, e := range errs {
		if e != nil {
			out = append(out, *e)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Path < out[b].Path })
	return SummaryStats{
		Files: r.sources.len(), Results: int(results.Load()), Summaries: int(summaries.Load()), Parsed: int(parsed.Load()),
		Duration: time.Since(start),
	}, out
}

// summarizeFile writes file i's result and parse summary (see Summarize).
func (r *run) summarizeFile(parser **cudaparse.Parser, text *rule.Text, binary []byte, i int) (wrote, summarized, parsed bool, ferr *FileError) {
	shown := r.sources.shown(i)
	src, err := ReadSource(r.sources.abs(i))
	if err == nil {
		err = binaryError(src)
	}
	if err != nil {
		return false, false, false, &FileError{Path: shown, Message: cleanErr(err).Error()}
	}
	s := r.settingsFor(r.sources.abs(i))
	text.Reset(src)
	res, how, ref, answers := checkText(parser, text, s, &r.opts, shown, &projectInput{})
	if res.Err != nil {
		return false, false, how == parsedIt, res.Err
	}
	wrote = len(answers.firing) > 0
	parsed = how == parsedIt
	if sum := ref.get(); sum != nil {
		// The check's parse made the summary the link step would make,
		// but for what the file's findings want of its translation units.
		plain := *sum
		plain.UnitWants = nil
		if data, err := encodeSummary(&plain); err == nil {
			r.opts.Cache.Put(summaryKey(binary, src, s.Additions), data)
			return wrote, true, parsed, nil
		}
	}
	// The files the link step parses for their summaries (as in
	// noteProjectFacts).
	loader := text.ContainsAny(kernelLoadSpellings...) || text.ContainsAny(s.Additions.LoadSpellings()...)
	clock := text.ContainsAny(hostClockSpellings...) || text.ContainsAny(s.Additions.ClockSpellings()...)
	if !loader && !clock {
		return wrote, false, parsed, nil
	}
	sum, again := parsedSummary(parser, &r.opts, binary, shown, src, s.Additions)
	return wrote, sum != nil, parsed || again, nil
}

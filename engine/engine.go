// Package engine runs rules over files: it walks folders, reads files,
// decides cheaply which need a parse, parses them on one worker per core,
// runs the rules and returns findings in a deterministic order. It does all
// the I/O; rules do none.
package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/rule"
)

// Options configure a run.
type Options struct {
	// Paths are files and folders to check.
	Paths []string
	// Rules to run.
	Rules []*rule.Rule
	// RuleOptions override rule options: rule ID -> option -> value.
	RuleOptions map[string]map[string]string
	// Workers is the number of parsing goroutines (0: one per core).
	Workers int
	// LowConfidence keeps findings inside code the parser did not
	// understand (ERROR nodes), marked as such; by default they are dropped.
	LowConfidence bool
	// ParseLimit bounds the time one file may take to parse.
	ParseLimit time.Duration
	// BaseDir is the folder paths in the result are relative to (default:
	// the working directory).
	BaseDir string
	// ReportUnusedSuppressions reports suppression comments that name
	// lazylint but silence no finding (as LL000).
	ReportUnusedSuppressions bool
}

// Finding is a rule's finding located in a file.
type Finding struct {
	rule.Finding
	Path       string // relative to Options.BaseDir when below it
	Start, End cudaparse.Position
	Related    []Related
	// Suppression is set on findings a comment silenced (Result.Suppressed).
	Suppression *Suppression
	// Snippet is the text of the finding's first line with runs of white
	// space made one space: what fingerprints and baselines key on, so that
	// moving code does not change them.
	Snippet string
}

// Related is a related location, with its position.
type Related struct {
	Path       string
	Start, End cudaparse.Position
	Message    string
}

// FileError is a file that could not be walked, read or parsed.
type FileError struct {
	Path    string
	Message string
}

func (e FileError) Error() string { return e.Path + ": " + e.Message }

// Stats describe a run.
type Stats struct {
	Files    int           // source files found
	Bytes    int64         // bytes read
	Parsed   int           // files that needed a parse
	Duration time.Duration // wall time
}

// Result is the outcome of a run.
type Result struct {
	Findings []Finding
	// Suppressed are the findings that suppression comments silenced; they
	// do not count for the exit code.
	Suppressed []Finding
	Errors     []FileError
	Stats      Stats
}

// binaryProbe is how much of a file is searched for NUL bytes.
const binaryProbe = 8000

// Run checks the files under opts.Paths.
func Run(opts Options) Result {
	start := time.Now()
	walked := collect(opts.Paths)
	res := Result{Errors: walked.errors}
	base := opts.BaseDir
	if base == "" {
		base, _ = os.Getwd()
	}
	// Go files go to the cgo analyzers; the rest to the C/C++/CUDA rules.
	var goFiles, sources []string
	for _, p := range walked.files {
		if strings.HasSuffix(p, ".go") {
			goFiles = append(goFiles, p)
		} else {
			sources = append(sources, p)
		}
	}
	walked.files = sources
	res.Stats.Files = len(sources) + len(goFiles)
	goFindings, goErrors := checkGo(goFiles, opts.Rules, base)
	goFindings, goSuppressed := suppressGo(goFiles, goFindings, base, opts)
	res.Findings = append(res.Findings, goFindings...)
	res.Suppressed = append(res.Suppressed, goSuppressed...)
	res.Errors = append(res.Errors, goErrors...)
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	checker := &Checker{Rules: opts.Rules, RuleOptions: opts.RuleOptions, LowConfidence: opts.LowConfidence, ParseLimit: opts.ParseLimit}

	type fileResult struct {
		findings   []Finding
		suppressed []Finding
		err        *FileError
		bytes      int64
		parsed     bool
	}
	results := make([]fileResult, len(walked.files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(1, len(walked.files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var parser *cudaparse.Parser // created on first need, one per worker
			defer func() {
				if parser != nil {
					parser.Close()
				}
			}()
			for i := range jobs {
				path := walked.files[i]
				shown := relPath(base, path)
				src, err := os.ReadFile(path)
				if err != nil {
					results[i].err = &FileError{Path: shown, Message: cleanErr(err).Error()}
					continue
				}
				results[i].bytes = int64(len(src))
				out, parsed, err := checker.check(&parser, shown, src)
				results[i].parsed = parsed
				results[i].findings, results[i].suppressed = suppressions(shown, src, false, out, opts.Rules, opts.ReportUnusedSuppressions)
				if err != nil {
					results[i].err = &FileError{Path: shown, Message: err.Error()}
				}
			}
		}()
	}
	for i := range walked.files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	for i := range results {
		r := &results[i]
		res.Findings = append(res.Findings, r.findings...)
		res.Suppressed = append(res.Suppressed, r.suppressed...)
		if r.err != nil {
			res.Errors = append(res.Errors, *r.err)
		}
		res.Stats.Bytes += r.bytes
		if r.parsed {
			res.Stats.Parsed++
		}
	}
	for i := range res.Errors {
		res.Errors[i].Path = relPath(base, res.Errors[i].Path)
	}
	SortFindings(res.Findings)
	SortFindings(res.Suppressed)
	sort.SliceStable(res.Errors, func(i, j int) bool { return res.Errors[i].Path < res.Errors[j].Path })
	res.Stats.Duration = time.Since(start)
	return res
}

// Checker checks single files' contents; the CLI, the LSP server and tests
// share it.
type Checker struct {
	Rules         []*rule.Rule
	RuleOptions   map[string]map[string]string
	LowConfidence bool
	ParseLimit    time.Duration
}

// Check checks one file's contents with a parser of its own.
func (c *Checker) Check(path string, src []byte) ([]Finding, error) {
	var p *cudaparse.Parser
	defer func() {
		if p != nil {
			p.Close()
		}
	}()
	out, _, err := c.check(&p, path, src)
	return out, err
}

// check checks src with *parser, creating it when the file needs a parse.
// A panic anywhere in parsing or facts becomes an error for this file: the
// run goes on with the others.
func (c *Checker) check(parser **cudaparse.Parser, path string, src []byte) (findings []Finding, parsed bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			findings = nil
			err = fmt.Errorf("internal error while checking this file: %v; please report it", v)
		}
	}()
	if i := bytes.IndexByte(src[:min(len(src), binaryProbe)], 0); i >= 0 {
		return nil, false, fmt.Errorf("binary file (NUL byte at offset %d); not checked", i)
	}
	var rules []*rule.Rule
	for _, r := range c.Rules {
		if mayFire(r, src) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return nil, false, nil
	}
	if *parser == nil {
		p, err := cudaparse.NewParser()
		if err != nil {
			return nil, false, err
		}
		*parser = p
	}
	(*parser).Limit = c.ParseLimit
	f, err := (*parser).Parse(path, src)
	if err != nil {
		if errors.Is(err, cudaparse.ErrParseLimit) {
			return nil, true, fmt.Errorf("not checked: %w (%s); raise it with --parse-limit", err, (*parser).Limit)
		}
		return nil, true, fmt.Errorf("cannot parse: %w", err)
	}
	for _, r := range rules {
		out, rerr := runRule(r, f, c.RuleOptions[r.ID])
		if rerr != nil {
			err = errors.Join(err, rerr)
		}
		for _, fd := range out {
			if fd.LowConfidence && !c.LowConfidence {
				continue
			}
			findings = append(findings, locate(f, path, fd))
		}
	}
	SortFindings(findings)
	return findings, true, err
}

// runRule runs one rule, turning a panic into an error for this file.
func runRule(r *rule.Rule, f *cudaparse.File, options map[string]string) (out []rule.Finding, err error) {
	defer func() {
		if v := recover(); v != nil {
			out = nil
			err = fmt.Errorf("internal error in rule %s (%s): %v; please report it", r.ID, r.Name, v)
		}
	}()
	r.Run(rule.NewPass(r, f, options, func(fd rule.Finding) { out = append(out, fd) }))
	return out, nil
}

// mayFire reports whether src can give a finding of the rule: its
// prefilter says so, or it contains one of the rule's triggers.
func mayFire(r *rule.Rule, src []byte) bool {
	if r.Prefilter != nil {
		return r.Prefilter(src)
	}
	return len(r.Triggers) == 0 || rule.ContainsAny(src, r.Triggers...)
}

func locate(f *cudaparse.File, path string, fd rule.Finding) Finding {
	out := Finding{Finding: fd, Path: path, Start: f.Position(fd.Range.Start), End: f.Position(fd.Range.End)}
	for _, r := range fd.Related {
		out.Related = append(out.Related, Related{Path: path, Start: f.Position(r.Range.Start), End: f.Position(r.Range.End), Message: r.Message})
	}
	return out
}

// SortFindings sorts by path, line, column, rule and message: the order
// never depends on the number of workers.
func SortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Path != b.Path:
			return a.Path < b.Path
		case a.Start.Line != b.Start.Line:
			return a.Start.Line < b.Start.Line
		case a.Start.Column != b.Start.Column:
			return a.Start.Column < b.Start.Column
		case a.Rule.ID != b.Rule.ID:
			return a.Rule.ID < b.Rule.ID
		}
		return a.Message < b.Message
	})
}

// relPath shows path relative to base when it lies below it.
func relPath(base, path string) string {
	if base == "" {
		return path
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return path
	}
	return rel
}

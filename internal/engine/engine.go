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
	"sync/atomic"
	"time"

	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/fastread"
	"github.com/lazylint/lazylint/internal/rule"
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
	// MaxParseBytes bounds the size of a file that is parsed (0: the
	// default, DefaultMaxParseBytes; negative: no bound). Parsing takes
	// about 15 times a file's size in memory.
	MaxParseBytes int64
	// BaseDir is the folder paths in the result are relative to (default:
	// the working directory).
	BaseDir string
	// ReportUnusedSuppressions reports suppression comments that name
	// lazylint but silence no finding (as LL000).
	ReportUnusedSuppressions bool
	// SettingsFor, when set, gives the settings of each file by its
	// absolute path (a config's per-path overrides); Rules and RuleOptions
	// are then not used.
	SettingsFor func(absPath string) Settings
	// Exclude, when set, leaves out files and folders by absolute path,
	// those named in Paths included (a config's exclude globs).
	Exclude func(absPath string, isDir bool) bool
	// Progress, when set, is called after each file is checked, from the
	// worker goroutines, with the number done and the total.
	Progress func(done, total int)
	// Cache, when set, keeps the results of files that need a parse,
	// keyed on their bytes, this binary and the settings.
	Cache *cache.Cache
}

// Settings are what applies to one file: the rules to run, their options
// and severities.
type Settings struct {
	Rules       []*rule.Rule
	RuleOptions map[string]map[string]string
	// Severities override rules' own severities, by rule ID.
	Severities map[string]rule.Severity
}

// settingsFor returns the function giving each file's settings.
func (o *Options) settingsFor() func(string) Settings {
	if o.SettingsFor != nil {
		return o.SettingsFor
	}
	s := Settings{Rules: o.Rules, RuleOptions: o.RuleOptions}
	return func(string) Settings { return s }
}

// severity returns the severity of a finding of r under s.
func (s *Settings) severity(r *rule.Rule) rule.Severity {
	if sev, ok := s.Severities[r.ID]; ok {
		return sev
	}
	return r.Severity
}

// Finding is a rule's finding located in a file.
type Finding struct {
	rule.Finding
	Path       string // relative to Options.BaseDir when below it
	Start, End cudaparse.Position
	Related    []Related
	// Suppression is set on findings a comment silenced (Result.Suppressed).
	Suppression *Suppression
	// Severity is the rule's, or the one a config gave it for this file.
	Severity rule.Severity
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
	Excluded int           // files and folders left out by Options.Exclude
	Cached   int           // files whose result came from the cache
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

// DefaultMaxParseBytes is the largest file parsed by default: a 50 MB
// generated header took 740 MB and 6.6 s before any limit could stop it.
const DefaultMaxParseBytes = 16 << 20

// binaryProbe is how much of a file is searched for NUL bytes.
const binaryProbe = 8000

// Run checks the files under opts.Paths.
func Run(opts Options) Result {
	start := time.Now()
	walked := collect(opts.Paths, opts.Exclude)
	res := Result{Errors: walked.errors}
	res.Stats.Excluded = walked.excluded
	base := opts.BaseDir
	if base == "" {
		base, _ = os.Getwd()
	}
	settingsFor := opts.settingsFor()
	if opts.Cache != nil {
		if _, err := cache.BinaryHash(); err != nil {
			opts.Cache = nil // no key without the binary: run uncached
		}
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
	total := len(sources) + len(goFiles)
	res.Stats.Files = total
	goRes := checkGo(goFiles, settingsFor, base, os.ReadFile, opts)
	res.Findings = append(res.Findings, goRes.findings...)
	res.Suppressed = append(res.Suppressed, goRes.suppressed...)
	res.Errors = append(res.Errors, goRes.errors...)
	var done atomic.Int64
	done.Store(int64(len(goFiles)))
	if opts.Progress != nil && len(goFiles) > 0 {
		opts.Progress(len(goFiles), total)
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}

	type fileResult struct {
		FileResult
		bytes int64
		how   checked
	}
	results := make([]fileResult, len(sources))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, max(1, len(sources))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var parser *cudaparse.Parser // created on first need, one per worker
			var text rule.Text           // the prefilters' view of each file, its index reused
			defer func() {
				if parser != nil {
					parser.Close()
				}
			}()
			for i := range jobs {
				path := sources[i]
				shown := relPath(base, path)
				src, _, err := fastread.ReadFile(path)
				if err != nil {
					results[i].Err = &FileError{Path: shown, Message: cleanErr(err).Error()}
				} else {
					results[i].bytes = int64(len(src))
					results[i].FileResult, results[i].how = checkSource(&parser, &text, settingsFor(absPath(path)), opts, shown, src)
				}
				if opts.Progress != nil {
					opts.Progress(int(done.Add(1)), total)
				}
			}
		}()
	}
	for i := range sources {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	for i := range results {
		r := &results[i]
		res.Findings = append(res.Findings, r.Findings...)
		res.Suppressed = append(res.Suppressed, r.Suppressed...)
		if r.Err != nil {
			res.Errors = append(res.Errors, *r.Err)
		}
		res.Stats.Bytes += r.bytes
		switch r.how {
		case parsedIt:
			res.Stats.Parsed++
		case fromCache:
			res.Stats.Cached++
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

// FileResult is the outcome for one file.
type FileResult struct {
	Findings   []Finding
	Suppressed []Finding
	Err        *FileError
}

// CheckSource checks one file's contents as Run would check the file at
// path (its settings, suppressions and severities): the LSP server uses it
// for the unsaved text of an editor. Findings show path relative to
// opts.BaseDir. A Go file is checked with the other cgo files of its folder
// as they are on disk.
func CheckSource(opts Options, path string, src []byte) FileResult {
	base := opts.BaseDir
	if base == "" {
		base, _ = os.Getwd()
	}
	abs := absPath(path)
	if opts.Exclude != nil && opts.Exclude(abs, false) {
		return FileResult{}
	}
	settingsFor := opts.settingsFor()
	if strings.HasSuffix(path, ".go") {
		var siblings []string
		entries, _ := os.ReadDir(filepath.Dir(abs))
		for _, e := range entries {
			p := filepath.Join(filepath.Dir(abs), e.Name())
			if strings.HasSuffix(p, ".go") && !e.IsDir() && p != abs && (opts.Exclude == nil || !opts.Exclude(p, false)) {
				siblings = append(siblings, p)
			}
		}
		read := func(p string) ([]byte, error) {
			if p == abs {
				return src, nil
			}
			return os.ReadFile(p)
		}
		g := checkGo(append(siblings, abs), settingsFor, base, read, opts)
		shown := relPath(base, abs)
		out := FileResult{}
		for _, f := range g.findings {
			if f.Path == shown {
				out.Findings = append(out.Findings, f)
			}
		}
		for _, f := range g.suppressed {
			if f.Path == shown {
				out.Suppressed = append(out.Suppressed, f)
			}
		}
		for _, e := range g.errors {
			if e.Path == shown {
				e := e
				out.Err = &e
			}
		}
		return out
	}
	var parser *cudaparse.Parser
	defer func() {
		if parser != nil {
			parser.Close()
		}
	}()
	out, _ := checkSource(&parser, new(rule.Text), settingsFor(abs), opts, relPath(base, abs), src)
	return out
}

// checked says how checkSource got a file's result.
type checked int

const (
	skipped   checked = iota // no rule could fire: not parsed
	parsedIt                 // parsed and checked
	fromCache                // taken from the cache
)

// checkSource checks one C/C++/CUDA file's contents under settings s and
// applies its suppression comments, through the cache when there is one.
func checkSource(parser **cudaparse.Parser, text *rule.Text, s Settings, opts Options, shown string, src []byte) (FileResult, checked) {
	var key cache.Key
	src, _, err := decodeSource(src)
	if err != nil {
		return FileResult{Err: &FileError{Path: shown, Message: err.Error()}}, skipped
	}
	text.Reset(src)
	firing := firingRules(s.Rules, text)
	cacheable := opts.Cache != nil && len(firing) > 0
	if cacheable {
		binary, _ := cache.BinaryHash()
		key = cacheKey(binary, &s, &opts, src)
		if data, ok := opts.Cache.Get(key); ok {
			if r, ok := decodeEntry(data, &s, shown); ok {
				return r, fromCache
			}
		}
	}
	checker := &Checker{Rules: s.Rules, RuleOptions: s.RuleOptions, LowConfidence: opts.LowConfidence, ParseLimit: opts.ParseLimit, MaxParseBytes: opts.MaxParseBytes}
	found, parsed, err := checker.checkRules(parser, shown, src, firing)
	setSeverities(found, &s)
	var out FileResult
	out.Findings, out.Suppressed = suppressions(shown, text, false, found, s.Rules, opts.ReportUnusedSuppressions)
	if err != nil {
		out.Err = &FileError{Path: shown, Message: err.Error()}
	} else if cacheable {
		// Errors are not kept: a parse limit or a bug may go away.
		if data, err := encodeEntry(out); err == nil {
			opts.Cache.Put(key, data)
		}
	}
	how := skipped
	if parsed {
		how = parsedIt
	}
	return out, how
}

// firingRules returns the rules that may fire on the text (the others need
// no parse): each prefilter runs once per file.
func firingRules(rules []*rule.Rule, text *rule.Text) []*rule.Rule {
	var out []*rule.Rule
	for _, r := range rules {
		if mayFire(r, text) {
			out = append(out, r)
		}
	}
	return out
}

// setSeverities gives each finding its severity under s.
func setSeverities(fs []Finding, s *Settings) {
	for i := range fs {
		fs[i].Severity = s.severity(fs[i].Rule)
	}
}

// absPath returns path made absolute (path itself if that fails).
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// Checker checks single files' contents; the CLI, the LSP server and tests
// share it.
type Checker struct {
	Rules         []*rule.Rule
	RuleOptions   map[string]map[string]string
	LowConfidence bool
	ParseLimit    time.Duration
	MaxParseBytes int64 // as Options.MaxParseBytes
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
	return c.checkRules(parser, path, src, firingRules(c.Rules, rule.NewText(src)))
}

// checkRules is check with the rules that may fire on src already chosen.
func (c *Checker) checkRules(parser **cudaparse.Parser, path string, src []byte, rules []*rule.Rule) (findings []Finding, parsed bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			findings = nil
			err = fmt.Errorf("internal error while checking this file: %v; please report it", v)
		}
	}()
	if i := bytes.IndexByte(src[:min(len(src), binaryProbe)], 0); i >= 0 {
		return nil, false, fmt.Errorf("binary file (NUL byte at offset %d); not checked", i)
	}
	if len(rules) == 0 {
		return nil, false, nil
	}
	if limit := c.maxParseBytes(); limit >= 0 && int64(len(src)) > limit {
		return nil, false, fmt.Errorf("not checked: %.1f MiB is over the %.0f MiB parse limit; raise it with --max-parse-mib", float64(len(src))/(1<<20), float64(limit)/(1<<20))
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

// maxParseBytes is the size bound in force: negative for none.
func (c *Checker) maxParseBytes() int64 {
	if c.MaxParseBytes == 0 {
		return DefaultMaxParseBytes
	}
	return c.MaxParseBytes
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

// mayFire is r.MayFire, where a prefilter that panics says yes: the rule
// then runs, where a panic is reported.
func mayFire(r *rule.Rule, text *rule.Text) (yes bool) {
	defer func() {
		if recover() != nil {
			yes = true
		}
	}()
	return r.MayFire(text)
}

func locate(f *cudaparse.File, path string, fd rule.Finding) Finding {
	out := Finding{Finding: fd, Path: path, Severity: fd.Rule.Severity, Start: f.Position(fd.Range.Start), End: f.Position(fd.Range.End)}
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

// Package engine runs rules over files: it walks folders, reads files,
// decides cheaply which need a parse, parses them on one worker per core,
// runs the rules and returns findings in a deterministic order. It does all
// the I/O; rules do none.
package engine

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/cache"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/knowledge"
)

// Options configure a run.
type Options struct {
	// Paths are files and folders to check.
	Paths []string
	// Rules to run.
	Rules []*rule.Rule
	// Catalog is every rule the tool has, run or not: a suppression
	// comment naming one of them is no typo (nil: only the rules that
	// run are known).
	Catalog []*rule.Rule
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
	// default, DefaultMaxParseBytes; negative: no bound). A check takes
	// about ParseMemoryFactor times a parsed file's size in memory.
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
	// Extensions are file endings to check beyond the usual ones (the
	// configuration's extensions:, lower case with the dot).
	Extensions []string
	// Parser, when set, is the parser CheckSource uses (and does not
	// close) instead of one of its own: an editor's incremental parser for
	// one document, used by one check at a time.
	Parser *cudaparse.Parser
	// Progress, when set, is called after each file is checked, from the
	// worker goroutines, with the number done and the total.
	Progress func(done, total int)
	// Cache, when set, keeps the results of files that need a parse,
	// keyed on their bytes, this binary and the settings.
	Cache *cache.Cache
	// ProjectRoot, when set, is a folder whose other files take part in
	// project-wide analysis without being checked: the repository of the
	// files named on a pre-commit hook's command line, or of an editor's
	// file.
	ProjectRoot string
	// IncludeDirs are folders where #include "..." and <...> are looked
	// for (after the includer's own folder), absolute.
	IncludeDirs []string
	// GlobalMacros are renaming macros every file sees (a compile
	// database's -D definitions).
	GlobalMacros []cudaparse.Macro
	// NeedProject makes Run build Result.Project even when a memo of the
	// project step would do (the language server keeps the project).
	NeedProject bool
	// NoProject checks each file alone, without the facts of the others
	// (the per-file analysis of earlier versions).
	NoProject bool
	// Project, for CheckSource, is the project's linked facts (the
	// language server keeps them); Run builds its own.
	Project *link.Project
	// Trace, when set, receives a line per phase of Run: its name, what
	// it did and the time since the run began (for bench/).
	Trace io.Writer
}

// Settings are what applies to one file: the rules to run, their options
// and severities.
type Settings struct {
	Rules       []*rule.Rule
	RuleOptions map[string]map[string]string
	// Severities override rules' own severities, by rule ID.
	Severities map[string]rule.Severity
	// Additions are the team's own launch and preload helpers, clocks and
	// timer classes (the configuration's launchers, preloads, clocks and
	// timers): the prefilters, the parser and so the rules see them.
	Additions *knowledge.Additions
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
	Files    int   // source files checked (found, less those skipped with an error)
	Bytes    int64 // bytes read
	Parsed   int   // files that needed a parse
	Excluded int   // files and folders left out by Options.Exclude
	Cached   int   // files whose result came from the cache
	// Project-wide analysis: function definitions linked, files parsed
	// only for their summary, files checked again with the project's facts.
	ProjectFunctions int
	LinkParsed       int
	Rechecked        int
	Duration         time.Duration // wall time
}

// Result is the outcome of a run.
type Result struct {
	Findings []Finding
	// Suppressed are the findings that suppression comments silenced; they
	// do not count for the exit code.
	Suppressed []Finding
	Errors     []FileError
	Stats      Stats
	// ExcludedNamed are the files and folders named in Options.Paths that
	// Options.Exclude left out: not checked, and not silently.
	ExcludedNamed []string
	// Project is the project's linked facts (nil with NoProject): the
	// language server keeps it for the files it checks one by one.
	Project *link.Project
}

// DefaultMaxParseBytes is the largest file parsed by default. A check
// takes 100 to 190 times a parsed file's size in memory (bench/bigfile.sh:
// 8 MiB, 1.0 GB; 16 MiB, 1.8 GB and 232 s): at 4 MiB, 420-570 MB, so that
// a CI runner with 1 GB is not killed by one generated file.
const DefaultMaxParseBytes = 4 << 20

// ParseMemoryFactor is about how many times its size a file's check takes
// in memory (bench/bigfile.sh measures 100-190x; the error for a file over
// the limit says what it would take).
const ParseMemoryFactor = 150

// binaryProbe is how much of a file is searched for NUL bytes.
const binaryProbe = 8000

// finish adds the checked files' results to the run's, in a stable order.
func (res Result) finish(results sourceResults, base string, start time.Time) Result {
	for i, how := range results.how {
		out := results.result(i)
		res.Findings = append(res.Findings, out.Findings...)
		res.Suppressed = append(res.Suppressed, out.Suppressed...)
		if out.Err != nil {
			res.Errors = append(res.Errors, *out.Err)
			res.Stats.Files-- // read, binary, too large, or over the parse limit: skipped, not checked
		}
		switch how {
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

// sourceResults are the C/C++/CUDA files' results in a run, by file, with
// how each was had. Most files have no finding, nothing suppressed and no
// error: their outcome is kept by none, so a file costs the byte of how
// (a FileResult in place was 56 bytes of every file of the tree to the end
// of the run, and a pointer beside how 16: 5.7 MB of sixteen copies of
// the 38-project corpus checked as one project, where 2,000 of 356,640
// files had an outcome). The bytes read are counted by the run
// (run.bytesRead), not here. Outcomes may be set from several workers.
type sourceResults struct {
	how  []checked
	outs *fileOutcomes
}

// fileOutcomes are the outcomes of the files that have one.
type fileOutcomes struct {
	mu sync.Mutex
	of map[int]*FileResult
}

func newSourceResults(n int) sourceResults {
	return sourceResults{how: make([]checked, n), outs: &fileOutcomes{of: map[int]*FileResult{}}}
}

// len returns the number of files.
func (s sourceResults) len() int { return len(s.how) }

// upTo returns the results of the first n files (sharing their outcomes).
func (s sourceResults) upTo(n int) sourceResults { return sourceResults{s.how[:n], s.outs} }

func (s sourceResults) outcome(i int) *FileResult {
	s.outs.mu.Lock()
	defer s.outs.mu.Unlock()
	return s.outs.of[i]
}

// result returns file i's outcome.
func (s sourceResults) result(i int) FileResult {
	if out := s.outcome(i); out != nil {
		return *out
	}
	return FileResult{}
}

// findings returns file i's findings.
func (s sourceResults) findings(i int) []Finding {
	if out := s.outcome(i); out != nil {
		return out.Findings
	}
	return nil
}

// set makes out file i's outcome.
func (s sourceResults) set(i int, out FileResult) {
	s.outs.mu.Lock()
	defer s.outs.mu.Unlock()
	if len(out.Findings) == 0 && len(out.Suppressed) == 0 && out.Err == nil {
		delete(s.outs.of, i)
		return
	}
	s.outs.of[i] = &out
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
	parser := opts.Parser
	defer func() {
		if parser != nil && parser != opts.Parser {
			parser.Close()
		}
	}()
	shown := relPath(base, abs)
	src, _, err := decodeSource(src)
	if err != nil {
		return FileResult{Err: &FileError{Path: shown, Message: err.Error()}}
	}
	text := rule.NewText(src)
	var digest [32]byte
	if opts.Project != nil && !opts.NoProject {
		text.Give(rule.Loaders, callsProjectLoader(opts.Project, shown, cudaparse.ScanNames(src).Calls, spelledIn(src), nil))
		digest = opts.Project.FileDigest(shown)
	}
	out, _, _, _ := checkText(&parser, text, settingsFor(abs), &opts, shown, &projectInput{project: opts.Project, digest: digest})
	return out
}

// checked says how checkText got a file's result.
type checked uint8

const (
	skipped   checked = iota // no rule could fire: not parsed
	parsedIt                 // parsed and checked
	fromCache                // taken from the cache
)

// projectInput is what the project gives one file's check: its linked
// facts (nil: none) and their digest for this file, the renaming macros of
// the project headers the file includes, the other files' functions it
// calls that read a host clock, the device summaries of the other files of
// its translation units. keep, when set, is handed the file if it is
// parsed, with its summary (the project step may check it again without a
// second parse); parsed, when set, is the file to check instead of parsing
// it.
type projectInput struct {
	project *link.Project
	digest  [32]byte
	// What the providers give (providers.go) beside what they tell the
	// prefilters (rule.Text.Give) and the rules (rule.Given, from
	// project): what the file's parse is given (the header macros it
	// spells, the clocks of other files it calls, the device code of its
	// units), the timer classes of other files it declares objects of.
	facts  cudaparse.ProjectFacts
	timers []knowledge.TimerClass
	keep   func(*cudaparse.File, *cudaparse.FileSummary)
	parsed *cudaparse.ParsedText
	// noSummary: the project holds a parse's summary of the file already
	// (a recheck), so none is made (it is not in a cache entry either).
	noSummary bool
}

// checkText checks one C/C++/CUDA file's text (its project flags set)
// under settings s and applies its suppression comments, through the cache
// when there is one, with what the project gives it (in). It also returns
// the file's summary when it was parsed or cached.
func checkText(parser **cudaparse.Parser, text *rule.Text, s Settings, opts *Options, shown string, in *projectInput) (FileResult, checked, *summaryRef, *prefilterAnswers) {
	var key cache.Key
	src := text.Src
	text.SetAdditions(s.Additions.LoadSpellings(), s.Additions.ClockSpellings())
	answers := askPrefilters(s.Rules, text)
	firing := answers.firing
	cacheable := opts.Cache != nil && len(firing) > 0
	if cacheable {
		binary, _ := cache.BinaryHash()
		key = cacheKey(binary, &s, opts, src, in.digest, in.noSummary)
		if data, ok := opts.Cache.Get(key); ok {
			if r, sum, ok := decodeEntry(data, &s, shown); ok {
				return r, fromCache, sum, answers
			}
		}
	}
	checker := &Checker{Rules: s.Rules, RuleOptions: s.RuleOptions, LowConfidence: opts.LowConfidence, ParseLimit: opts.ParseLimit, MaxParseBytes: opts.MaxParseBytes, Given: given(in.project), Facts: in.facts, Additions: s.Additions, keep: in.keep, parsed: in.parsed, noSummary: in.noSummary}
	found, parsed, sum, err := checker.checkRules(parser, shown, src, firing)
	setSeverities(found, &s)
	var out FileResult
	out.Findings, out.Suppressed = suppressions(shown, text, false, found, opts.Catalog, s.Rules, opts.ReportUnusedSuppressions)
	if err != nil {
		out.Err = &FileError{Path: shown, Message: err.Error()}
	} else if cacheable {
		// Errors are not kept: a parse limit or a bug may go away.
		if data, err := encodeEntry(out, sum); err == nil {
			opts.Cache.Put(key, data)
		}
	}
	how := skipped
	if parsed {
		how = parsedIt
	}
	if sum == nil {
		return out, how, nil, answers
	}
	return out, how, &summaryRef{sum: sum}, answers
}

// firingRules returns the rules that may fire on the text (the others need
// no parse): each prefilter runs once per file.
//
// HIP code written for AMD GPUs alone gets none: CUDA's lazy loading does
// not apply to it (docs/parsing.md).
func firingRules(rules []*rule.Rule, text *rule.Text) []*rule.Rule {
	return askPrefilters(rules, text).firing
}

// prefilterAnswers are the rules whose prefilters admit a file (firing),
// and those that did not but asked for a project fact (askers): only
// these may answer otherwise once the project's facts are known.
type prefilterAnswers struct {
	firing, askers []*rule.Rule
	// Which facts were asked for (rule.Text.Asked).
	askedLoader, askedClock bool
}

// askPrefilters asks each rule's prefilter about the text.
func askPrefilters(rules []*rule.Rule, text *rule.Text) *prefilterAnswers {
	a := &prefilterAnswers{}
	for _, r := range rules {
		switch fire, asked := mayFire(r, text); {
		case fire:
			a.firing = append(a.firing, r)
		case asked:
			a.askers = append(a.askers, r)
		}
	}
	a.askedLoader, a.askedClock = text.Asked(rule.Loaders), text.Asked(rule.Clocks)
	// Asked only of files some rule may fire on: most files are not, and
	// the question reads the whole text.
	if len(a.firing) > 0 && cudaparse.HIPOnly(text.Src) {
		return &prefilterAnswers{}
	}
	return a
}

// firesWith reports whether one of the askers fires with the project's
// facts set as given (on a file that is not HIP's alone).
func (a *prefilterAnswers) firesWith(text *rule.Text, callsLoader, callsClock bool) bool {
	text.Give(rule.Loaders, callsLoader)
	text.Give(rule.Clocks, callsClock)
	defer func() {
		text.Give(rule.Loaders, false)
		text.Give(rule.Clocks, false)
	}()
	for _, r := range a.askers {
		if fire, _ := mayFire(r, text); fire {
			return len(a.firing) > 0 || !cudaparse.HIPOnly(text.Src)
		}
	}
	return false
}

// setSeverities gives each finding its severity under s.
func setSeverities(fs []Finding, s *Settings) {
	for i := range fs {
		fs[i].Severity = s.severity(fs[i].Rule)
		if fs[i].Capped && fs[i].Severity > fs[i].Cap {
			fs[i].Severity = fs[i].Cap
		}
	}
}

// absFrom returns path made absolute against the folder wd.
func absFrom(wd, path string) string {
	if filepath.IsAbs(path) || wd == "" {
		return filepath.Clean(path)
	}
	return filepath.Join(wd, path)
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
	// Given, when set, gives rules the facts of the project's other files.
	Given rule.Given
	// Facts are what the project's other files give the file's parse:
	// the renaming macros of the headers it includes, the functions of
	// other files that read a host clock, the device code of its units.
	Facts cudaparse.ProjectFacts
	// Additions are the team's own launch and preload helpers, clocks and
	// timer classes (Settings.Additions).
	Additions *knowledge.Additions
	keep      func(*cudaparse.File, *cudaparse.FileSummary)
	parsed    *cudaparse.ParsedText
	noSummary bool // as projectInput's
}

// Check checks one file's contents with a parser of its own.
func (c *Checker) Check(path string, src []byte) ([]Finding, error) {
	var p *cudaparse.Parser
	defer func() {
		if p != nil {
			p.Close()
		}
	}()
	out, _, _, err := c.check(&p, path, src)
	return out, err
}

// check checks src with *parser, creating it when the file needs a parse.
// A panic anywhere in parsing or facts becomes an error for this file: the
// run goes on with the others.
func (c *Checker) check(parser **cudaparse.Parser, path string, src []byte) (findings []Finding, parsed bool, sum *cudaparse.FileSummary, err error) {
	text := rule.NewText(src)
	text.SetAdditions(c.Additions.LoadSpellings(), c.Additions.ClockSpellings())
	return c.checkRules(parser, path, src, firingRules(c.Rules, text))
}

// checkRules is check with the rules that may fire on src already chosen.
func (c *Checker) checkRules(parser **cudaparse.Parser, path string, src []byte, rules []*rule.Rule) (findings []Finding, parsed bool, sum *cudaparse.FileSummary, err error) {
	defer func() {
		if v := recover(); v != nil {
			findings = nil
			err = fmt.Errorf("internal error while checking this file: %v; please report it", v)
		}
	}()
	if len(rules) == 0 {
		return nil, false, nil, binaryError(src)
	}
	var f *cudaparse.File
	if c.parsed != nil {
		f = c.parsed.File(c.Facts, c.Additions)
	} else if f, err = c.parse(parser, path, src, deviceCodeOnly(rules)); f == nil {
		if errors.Is(err, cudaparse.ErrNoDeviceCode) {
			return nil, false, nil, nil // as if no prefilter had admitted it
		}
		return nil, err != nil && !errors.Is(err, errNotParsed), nil, err
	}
	if !c.noSummary {
		sum = f.Summary()
	}
	if c.keep != nil {
		c.keep(f, sum)
	}
	for _, r := range rules {
		out, rerr := runRule(r, f, c.RuleOptions[r.ID], c.Given)
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
	if sum != nil && usesUnitDevice(findings) {
		// What the project step looks for in the files sharing its
		// translation units.
		sum.UnitWants = f.UnitWants()
	}
	return findings, true, sum, err
}

// deviceCodeOnly reports whether every rule reports only in device code
// (rule.Rule.DeviceCodeOnly): then a file without any is not parsed.
func deviceCodeOnly(rules []*rule.Rule) bool {
	for _, r := range rules {
		if !r.DeviceCodeOnly {
			return false
		}
	}
	return len(rules) > 0
}

// errNotParsed marks a file refused before its parse (binary, too large).
var errNotParsed = errors.New("not parsed")

// binaryError returns an error for a file that holds a NUL byte early on.
func binaryError(src []byte) error {
	if i := bytes.IndexByte(src[:min(len(src), binaryProbe)], 0); i >= 0 {
		return fmt.Errorf("binary file (NUL byte at offset %d); not checked", i)
	}
	return nil
}

// parse parses src with *parser, creating it on first need; files that are
// binary or over the size bound are refused with an error that wraps
// errNotParsed.
func (c *Checker) parse(parser **cudaparse.Parser, path string, src []byte, deviceCodeOnly bool) (*cudaparse.File, error) {
	if err := binaryError(src); err != nil {
		return nil, fmt.Errorf("%w%.0w", err, errNotParsed)
	}
	if limit := c.maxParseBytes(); limit >= 0 && int64(len(src)) > limit {
		// Not "raise the limit": that is how a CI runner runs out of memory.
		return nil, fmt.Errorf("not checked: %.1f MiB is over the %.0f MiB parse limit (parsing it would take about %.1f GB of memory; a generated file is best left out with exclude: in .lazylint.yml, or --max-parse-mib raises the limit where that much memory is free)%.0w",
			float64(len(src))/(1<<20), float64(limit)/(1<<20), float64(len(src))*ParseMemoryFactor/1e9, errNotParsed)
	}
	if *parser == nil {
		p, err := cudaparse.NewParser()
		if err != nil {
			return nil, err
		}
		*parser = p
	}
	(*parser).Limit = c.ParseLimit
	(*parser).Project = c.Facts
	(*parser).Additions = c.Additions
	(*parser).DeviceCodeOnly = deviceCodeOnly
	f, err := (*parser).Parse(path, src)
	if errors.Is(err, cudaparse.ErrNoDeviceCode) {
		return nil, err
	}
	if err != nil {
		if errors.Is(err, cudaparse.ErrParseLimit) {
			return nil, fmt.Errorf("not checked: %w (%s); raise it with --parse-limit", err, (*parser).Limit)
		}
		return nil, fmt.Errorf("cannot parse: %w", err)
	}
	return f, nil
}

// maxParseBytes is the size bound in force: negative for none.
func (c *Checker) maxParseBytes() int64 {
	if c.MaxParseBytes == 0 {
		return DefaultMaxParseBytes
	}
	return c.MaxParseBytes
}

// runRule runs one rule, turning a panic into an error for this file.
func runRule(r *rule.Rule, f *cudaparse.File, options map[string]string, given rule.Given) (out []rule.Finding, err error) {
	defer func() {
		if v := recover(); v != nil {
			out = nil
			err = fmt.Errorf("internal error in rule %s (%s): %v; please report it", r.ID, r.Name, v)
		}
	}()
	pass := rule.NewPass(r, f, options, given, func(fd rule.Finding) { out = append(out, fd) })
	r.Run(pass)
	return out, nil
}

// mayFire is r.MayFire, where a prefilter that panics says yes: the rule
// then runs, where a panic is reported.
func mayFire(r *rule.Rule, text *rule.Text) (yes, asked bool) {
	defer func() {
		if recover() != nil {
			yes = true
		}
	}()
	return r.MayFireAsking(text)
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
	return relFromAbs(base, path, abs)
}

// relFromAbs is relPath for a path whose absolute form is known (Abs asks
// for the working directory each time).
func relFromAbs(base, path, abs string) string {
	if base == "" {
		return path
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return path
	}
	return rel
}

// trace writes a line of Options.Trace.
func (o *Options) trace(start time.Time, phase, format string, args ...any) {
	if o.Trace != nil {
		fmt.Fprintf(o.Trace, "%-8s %7.3fs  %s\n", phase, time.Since(start).Seconds(), fmt.Sprintf(format, args...))
	}
}

func countParsed(results sourceResults) int {
	n := 0
	for _, how := range results.how {
		if how == parsedIt {
			n++
		}
	}
	return n
}

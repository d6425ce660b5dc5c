// Package rule is the contract between lazylint's rules and the engine that
// runs them: a Rule is metadata plus a pure function from a parsed file to
// findings. Rules do no I/O.
package rule

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
)

// Severity of a finding.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

var severityNames = [...]string{"info", "warning", "error"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return "unknown"
	}
	return severityNames[s]
}

// ParseSeverity parses "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if strings.EqualFold(s, n) {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want info, warning or error)", s)
}

// Option is a rule option with its default, documented with the rule.
type Option struct {
	Name    string
	Default string
	Doc     string
	// Numeric options must parse as numbers (checked when they are set),
	// within Range when it is set.
	Numeric bool
	Range   *Range
}

// Range bounds a numeric option: Min < value when MinOpen, else Min <=
// value; value <= Max.
type Range struct {
	Min, Max float64
	MinOpen  bool
}

func (r *Range) String() string {
	open := "["
	if r.MinOpen {
		open = "("
	}
	// 'f' with the shortest precision: 1048576, not %g's 1.048576e+06.
	return open + strconv.FormatFloat(r.Min, 'f', -1, 64) + ", " + strconv.FormatFloat(r.Max, 'f', -1, 64) + "]"
}

// Check reports whether value is acceptable for the option.
func (o Option) Check(value string) error {
	if o.Numeric {
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("option %s wants a number, not %q", o.Name, value)
		}
		if r := o.Range; r != nil && (v > r.Max || v < r.Min || r.MinOpen && v == r.Min || v != v) {
			return fmt.Errorf("option %s wants a number in %s, not %s", o.Name, r, value)
		}
	}
	return nil
}

// Rule is one check.
type Rule struct {
	ID       string // LL001
	Name     string // whole-vram-allocation: names the pattern
	Severity Severity
	Since    string // version that introduced the rule
	Summary  string // one line
	// Doc is the rule's documentation in Markdown with the sections
	// "What it does", "Why it fails under lazy loading", "Example", "Fix"
	// and "Suppress". Example code blocks are checked as fixtures.
	Doc     string
	Options []Option
	// Triggers are literal byte strings; a file that contains none of them
	// cannot give a finding, and is not parsed for this rule.
	Triggers []string
	// Prefilter, when set, decides instead of Triggers whether a file can
	// give a finding: a cheap byte search, never a parse.
	Prefilter func(*Text) bool
	// DeviceCodeOnly says the rule reports only in functions declared
	// __device__ or __global__ (directly or through a qualifier macro the
	// pre-pass knows). A file whose pre-pass finds no such qualifier is
	// not given to the parser for it: the pre-pass is a quarter of a
	// parse, and most files with a spin-like read have no device code.
	DeviceCodeOnly bool
	// Requires are the kinds of project facts, beyond those every rule
	// sees, that can remove the rule's findings: the engine computes them
	// for a file only when a finding of a rule that requires them may
	// change.
	Requires []*Fact
	Run      func(*Pass)
}

// Fact is a kind of fact that other files of the project give about a
// file. A rule declares the kinds it reads (Rule.Requires), as a
// go/analysis pass declares its FactTypes.
type Fact struct {
	Name string // kebab-case, for docs and traces
	Doc  string // what the fact says and where a rule reads it
	// EveryRule: every rule sees the fact, none requires it (it is applied
	// while a file is parsed or linked).
	EveryRule bool
}

// The kinds of project facts every rule sees.
var (
	// Loaders: the functions of other files that launch or preload
	// kernels, and which (Pass.Loaders; a call of one from a function
	// that measures is a timed launch).
	Loaders = &Fact{Name: "loaders", Doc: "the functions of other files that launch or preload kernels, and which kernels", EveryRule: true}
	// Clocks: the functions of other files that read a host clock, and
	// the timer classes of other files a file declares objects of (calls
	// and objects of them read the clock while the file is parsed).
	Clocks = &Fact{Name: "clocks", Doc: "the functions and timer classes of other files that read a clock", EveryRule: true}
	// HeaderMacros: the calls renamed by macros of the project headers a
	// file includes, applied while it is parsed.
	HeaderMacros = &Fact{Name: "header-macros", Doc: "the calls renamed by macros of the project headers a file includes", EveryRule: true}
)

// The kinds of project facts a rule may require.
var (
	// CallerLoads: what a function's callers, in any file, launch or
	// preload before calling it (Pass.CallerLoads). The engine
	// looks for the callers of the functions that hold a finding.
	CallerLoads = &Fact{Name: "caller-loads", Doc: "what the callers of a function launch or preload before calling it"}
	// ProjectPreloads: whether the program preloads every kernel elsewhere
	// (Pass.PreloadsEveryKernel). The engine checks a file with a
	// finding again when the project has such a preload.
	ProjectPreloads = &Fact{Name: "project-preloads", Doc: "whether the program preloads every kernel somewhere else"}
	// UnitDevice: the device code of the other files of the file's
	// translation units (cudaparse.File.UnitDevice). The engine parses
	// those files and checks the file again with their device summaries.
	UnitDevice = &Fact{Name: "unit-device", Doc: "the device code of the other files of the file's translation units"}
)

// Facts are every kind of project fact: those every rule sees, then those
// a rule may require.
var Facts = []*Fact{Loaders, Clocks, HeaderMacros, CallerLoads, ProjectPreloads, UnitDevice}

// RequiresFact reports whether the rule reads facts of kind k: every rule
// reads those every rule sees.
func (r *Rule) RequiresFact(k *Fact) bool {
	if k.EveryRule {
		return true
	}
	for _, f := range r.Requires {
		if f == k {
			return true
		}
	}
	return false
}

// DocsBaseURL is where the rule pages of docs/rules/ are published.
const DocsBaseURL = "https://github.com/lazylint/lazylint/blob/main/docs/rules/"

// DocURL is where the rule's doc page is published.
func (r *Rule) DocURL() string { return DocsBaseURL + r.ID + ".md" }

// Pass is one run of a rule over one file.
type Pass struct {
	Rule *Rule
	File *cudaparse.File
	// given are the project's facts about the file, by kind (Fact);
	// nil when the file is checked alone.
	given   Given
	options map[string]string
	report  func(Finding)
}

// Given holds what the project's other files give one file's check, by
// kind of fact: the value a rule that requires the kind reads (Pass.Fact).
// The engine's providers fill it; a kind they give nothing for, or a nil
// Given (the file checked alone), reads as "nothing known".
type Given map[*Fact]any

// Fact returns what the project gives the file for facts of kind k, nil
// when nothing is given. It panics when the rule does not require k (as
// go/analysis does for a fact type a pass does not declare): the engine
// checks a file again when a kind its rules require changes, so a rule
// reading another kind would keep a stale result.
func (p *Pass) Fact(k *Fact) any {
	if !p.Rule.RequiresFact(k) {
		panic(fmt.Sprintf("rule %s reads facts of kind %s but does not require them", p.Rule.ID, k.Name))
	}
	return p.given[k]
}

// LoaderFacts are the questions the Loaders fact answers: which functions
// of other files a call reaches, and what they launch or preload.
type LoaderFacts interface {
	Defines(name string) bool
	Definitions(name string) []*link.ProjectFunction
	Names() []string
	Kernels(fn *link.ProjectFunction) *link.KernelFacts
	Bases(class string) []string
	ResolveCall(callerClass, name, qualifier string, arity int, method bool, fromFile string) *link.ProjectFunction
}

// CallerFacts are the questions the CallerLoads fact answers: a function
// as the project knows it, and what its callers load before calling it.
type CallerFacts interface {
	Function(file, name string, line int) *link.ProjectFunction
	LoadedOnEntry(fn *link.ProjectFunction) *link.KernelFacts
}

// PreloadFacts is the question the ProjectPreloads fact answers: whether
// the program preloads every kernel before the file's code runs.
type PreloadFacts interface {
	PreloadsEveryKernel(from string) bool
}

// Loaders returns the Loaders fact. The answers of a file checked alone
// are those of an empty project.
func (p *Pass) Loaders() LoaderFacts {
	if v, ok := p.Fact(Loaders).(LoaderFacts); ok {
		return v
	}
	return (*link.Project)(nil)
}

// CallerLoads returns the CallerLoads fact (the rule must require it).
func (p *Pass) CallerLoads() CallerFacts {
	if v, ok := p.Fact(CallerLoads).(CallerFacts); ok {
		return v
	}
	return (*link.Project)(nil)
}

// PreloadsEveryKernel reports the ProjectPreloads fact for the file (the
// rule must require it): false when nothing is known.
func (p *Pass) PreloadsEveryKernel() bool {
	v, ok := p.Fact(ProjectPreloads).(PreloadFacts)
	return ok && v.PreloadsEveryKernel(p.File.Path)
}

// ProjectFunction returns fn as the project knows it (for its callers'
// facts), or nil. The rule must require CallerLoads.
func (p *Pass) ProjectFunction(fn *cudaparse.Function) *link.ProjectFunction {
	if fn == nil {
		return nil
	}
	return p.CallerLoads().Function(p.File.Path, fn.Name, p.File.Position(fn.Node.Start()).Line)
}

// ResolveCall returns the definition in another file that a call of the
// file reaches, or nil (none, ambiguous, or defined in this file).
func (p *Pass) ResolveCall(c *cudaparse.Call) *link.ProjectFunction {
	if c == nil || c.Name == "" || p.File.FunctionNamed(c.Name) != nil {
		return nil
	}
	qualifier, method := cudaparse.CalleeQualifier(c), c.Callee.Is("field_expression")
	if method {
		qualifier = p.File.ReceiverClass(c) // the object's class
	}
	pf := p.Loaders().ResolveCall(cudaparse.CallerClass(c), c.Name, qualifier, len(c.Args), method, p.File.Path)
	if pf == nil || pf.File() == p.File.Path {
		return nil
	}
	return pf
}

// NewPass returns a pass of r over f that hands findings to report.
// options override the rule's defaults by name; given are the project's
// facts about the file (nil: checked alone).
func NewPass(r *Rule, f *cudaparse.File, options map[string]string, given Given, report func(Finding)) *Pass {
	return &Pass{Rule: r, File: f, given: given, options: options, report: report}
}

// Option returns the value of a rule option as text.
func (p *Pass) Option(name string) string {
	if v, ok := p.options[name]; ok {
		return v
	}
	for _, o := range p.Rule.Options {
		if o.Name == name {
			return o.Default
		}
	}
	panic(fmt.Sprintf("rule %s has no option %q", p.Rule.ID, name))
}

// FloatOption returns a numeric rule option. Values are checked with
// Option.Check when they are set, so a bad one here is a programming error.
func (p *Pass) FloatOption(name string) float64 {
	v, err := strconv.ParseFloat(p.Option(name), 64)
	if err != nil {
		panic(fmt.Sprintf("rule %s: option %s: %v", p.Rule.ID, name, err))
	}
	return v
}

// Report records a finding at node n.
func (p *Pass) Report(n cudaparse.Node, msg string, opts ...FindingOption) {
	f := Finding{
		Rule:          p.Rule,
		Range:         n.Range(),
		Message:       msg,
		LowConfidence: n.InError(),
	}
	for _, o := range opts {
		o(&f)
	}
	p.report(f)
}

// Reportf is Report with a format.
func (p *Pass) Reportf(n cudaparse.Node, format string, args ...any) {
	p.Report(n, fmt.Sprintf(format, args...))
}

// FindingOption adds to a finding.
type FindingOption func(*Finding)

// Related adds a related location.
func Related(n cudaparse.Node, msg string) FindingOption {
	return func(f *Finding) {
		f.Related = append(f.Related, RelatedLocation{Range: n.Range(), Message: msg})
	}
}

// AtMost caps the finding's severity, whatever the rule's or the
// configuration's: a finding the rule itself judges of small consequence.
func AtMost(sev Severity) FindingOption {
	return func(f *Finding) { f.Capped, f.Cap = true, sev }
}

// WithFix adds a suggested fix.
func WithFix(fix Fix) FindingOption { return func(f *Finding) { f.Fixes = append(f.Fixes, fix) } }

// Finding is one reported problem.
type Finding struct {
	Rule    *Rule
	Range   cudaparse.Range
	Message string
	Related []RelatedLocation
	Fixes   []Fix
	// LowConfidence is set when the finding's node lies inside code the
	// parser did not understand (an ERROR node).
	LowConfidence bool
	// Capped findings are reported at Cap at most (AtMost).
	Capped bool     `json:",omitempty"`
	Cap    Severity `json:",omitempty"`
}

// RelatedLocation points at another place that explains a finding.
type RelatedLocation struct {
	Range   cudaparse.Range
	Message string
}

// Fix is a suggested change: text edits to the file.
type Fix struct {
	Message string
	Edits   []TextEdit
}

// TextEdit replaces the byte range with NewText.
type TextEdit struct {
	Range   cudaparse.Range
	NewText string
}

// ApplyEdits returns src with the edits applied. Edits must lie inside src
// and not overlap; insertions at one offset keep their order.
func ApplyEdits(src []byte, edits []TextEdit) ([]byte, error) {
	sorted := append([]TextEdit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Range.Start < sorted[j].Range.Start })
	var out []byte
	at := 0
	for _, e := range sorted {
		if e.Range.Start < at || e.Range.End < e.Range.Start || e.Range.End > len(src) {
			return nil, fmt.Errorf("edit %d-%d overlaps another or lies outside the %d-byte file", e.Range.Start, e.Range.End, len(src))
		}
		out = append(out, src[at:e.Range.Start]...)
		out = append(out, e.NewText...)
		at = e.Range.End
	}
	return append(out, src[at:]...), nil
}

// MayFire reports whether the text can give a finding of r: its prefilter
// says so, or, without one, it contains one of r's triggers (a rule with
// neither may fire on anything).
func (r *Rule) MayFire(text *Text) bool {
	if r.Prefilter != nil {
		return r.Prefilter(text)
	}
	return len(r.Triggers) == 0 || text.ContainsAny(r.Triggers...)
}

// MayFireAsking is MayFire that also reports whether the prefilter asked
// for a project fact (Text.Gives): a prefilter that did not answers the
// same whatever the facts.
func (r *Rule) MayFireAsking(text *Text) (fire, asked bool) {
	before := text.asked
	text.asked = 0
	defer func() {
		asked = text.asked != 0
		text.asked |= before
	}()
	return r.MayFire(text), false
}

// SortRules sorts rules by ID.
func SortRules(rs []*Rule) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
}

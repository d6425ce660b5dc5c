// Package config reads .lazylint.yml: which rules run, their severities and
// options, which files are left out, per-path overrides, and other files it
// extends. Every mistake is reported with the file, line and column it is at.
//
//	extends: ../lazylint-base.yml      # a file or a list; theirs first, ours on top
//	enable: [LL001, LL002]             # run only these ("all": every rule)
//	disable: [LL008]                   # do not run these
//	severity: {LL002: error}           # info, warning or error
//	options: {LL001: {threshold: 0.8}}
//	exclude: [third_party/, "**/*.pb.cu"]   # gitignore patterns, relative to this file
//	overrides:
//	  - files: [tests/]                # gitignore patterns, relative to this file
//	    disable: [LL002]
//	report-unused-suppressions: true
//	low-confidence: false
//	fail-on: warning                   # lowest severity that fails a run (info, warning, error)
//	include-dirs: [include, third_party/cub]  # where #include "..." is looked for, relative to this file
//	extensions: [.impl, .cuinc]              # more file endings to check as C/C++/CUDA
//	compile-commands: build/compile_commands.json  # -I flags from a compile database
//	launchers: [{name: launch_on, kernel: 1}]       # the team's own launch helpers (additions.go)
//	preloads: [{name: warm_kernel, kernel: 0}]      # ... preload helpers
//	clocks: [what_time_is_it_now]                   # ... clock functions
//	timers: [{class: ScopedTimer, reads: [stop], constructor: true}]  # ... timer classes
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"gopkg.in/yaml.v3"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/knowledge"
)

// FileNames are the names looked for, in this order, in each folder from
// the working directory up to the file system's root.
var FileNames = []string{".lazylint.yml", ".lazylint.yaml"}

// maxExtendsDepth bounds chains of extends (cycles are caught earlier; this
// stops a generated chain from recursing without end).
const maxExtendsDepth = 32

// Config is a loaded configuration: the file, the files it extends, and the
// settings they make.
type Config struct {
	// Path is the file that was loaded; Files are all files read, the
	// extended ones first.
	Path  string
	Files []string
	// ReportUnusedSuppressions and LowConfidence are nil when no file set
	// them.
	ReportUnusedSuppressions *bool
	LowConfidence            *bool
	// FailOn is the lowest severity that fails a run, when a file set it.
	FailOn *rule.Severity
	// IncludeDirs are the include folders the files name (absolute), in
	// file order; CompileCommands the compile databases they name.
	IncludeDirs     []string
	CompileCommands []string
	// Extensions are further file endings the files ask to check as C,
	// C++ or CUDA (".impl", ".cuinc"), lower case with the dot.
	Extensions []string
	// Additions are the team's own launch and preload helpers, clocks
	// and timer classes (launchers, preloads, clocks, timers), nil when
	// the files name none.
	Additions *knowledge.Additions

	layers    []layer    // from the extended files to Path
	overrides []override // in the order the files were read
	exclude   []pattern
	// where says where each top-level setting was written (file:line):
	// by key for single values, "key/value" for each entry of a list.
	where map[string]string
}

// Selection changes the rule settings: a file's top level, an override, or
// the command line's flags.
type Selection struct {
	// Enable, when not nil, is the only rules to run ("all" resets to every
	// rule). Disable removes rules after that.
	Enable  []*rule.Rule
	Disable []*rule.Rule
	// Severities and Options override by rule ID.
	Severities map[string]rule.Severity
	Options    map[string]map[string]string
	// Where says where each part was written, for `lazylint config`: a
	// file and line, or a flag; keyed "enable", "disable", "severity.ID"
	// and "options.ID.name".
	Where map[string]string
}

type layer struct {
	file string
	sel  Selection
}

type override struct {
	file  string
	line  int
	files []pattern
	sel   Selection
}

// pattern is a gitignore pattern with the folder it is relative to.
type pattern struct {
	text string
	dir  string // absolute folder of the file that wrote it
	p    gitignore.Pattern
	at   string // file:line where it was written
}

// Error is a mistake in a config file.
type Error struct {
	Path         string
	Line, Column int
	Message      string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Column, e.Message)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Message)
	}
	return e.Path + ": " + e.Message
}

// Find returns the config file nearest to dir: in dir or the closest folder
// above it. It returns "" when there is none.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		for _, name := range FileNames {
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", nil
		}
		d = parent
	}
}

// Load reads the config file at path and the files it extends. The error
// joins every mistake found, each an *Error with its place.
//
// catalog is every rule there is, the vocabulary of enable, disable and
// the other rule-keyed settings (the CLI's rules.All).
func Load(path string, catalog []*rule.Rule) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	c := &Config{Path: abs, where: map[string]string{}}
	l := &loader{cfg: c, visiting: map[string]bool{}, catalog: catalog}
	l.load(abs, nil, 0)
	if len(l.errs) > 0 {
		sort.SliceStable(l.errs, func(i, j int) bool {
			a, b := l.errs[i], l.errs[j]
			if a.Path != b.Path {
				return a.Path < b.Path
			}
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Column < b.Column
		})
		errs := make([]error, len(l.errs))
		for i, e := range l.errs {
			errs[i] = e
		}
		return nil, errors.Join(errs...)
	}
	c.Additions = knowledge.NewAdditions(knowledge.AdditionsList{Launchers: l.adds.launchers, Preloads: l.adds.preloads, Clocks: l.adds.clocks, Timers: l.adds.timers})
	return c, nil
}

// Excluded reports whether the file or folder at abs is left out.
func (c *Config) Excluded(abs string, isDir bool) bool {
	if c == nil {
		return false
	}
	for _, p := range c.exclude {
		if p.matches(abs, isDir) {
			return true
		}
	}
	return false
}

// Settings returns the settings for the file at abs: the files' top-level
// selections, then the overrides whose patterns match it, then the extra
// selections (the command line's) on top, over every rule of catalog at
// its defaults.
func (c *Config) Settings(catalog []*rule.Rule, abs string, extra ...Selection) engine.Settings {
	var sels []Selection
	if c != nil {
		for _, l := range c.layers {
			sels = append(sels, l.sel)
		}
		for _, o := range c.overrides {
			for _, p := range o.files {
				if p.matches(abs, false) {
					sels = append(sels, o.sel)
					break
				}
			}
		}
	}
	s := Resolve(catalog, append(sels, extra...)...)
	if c != nil {
		s.Additions = c.Additions
	}
	return s
}

// Resolve applies selections in order to every rule of catalog at its
// defaults.
func Resolve(catalog []*rule.Rule, sels ...Selection) engine.Settings {
	on := map[*rule.Rule]bool{}
	for _, r := range catalog {
		on[r] = true
	}
	s := engine.Settings{RuleOptions: map[string]map[string]string{}, Severities: map[string]rule.Severity{}}
	for _, sel := range sels {
		if sel.Enable != nil {
			clear(on)
			for _, r := range sel.Enable {
				on[r] = true
			}
		}
		for _, r := range sel.Disable {
			delete(on, r)
		}
		for id, sev := range sel.Severities {
			s.Severities[id] = sev
		}
		for id, opts := range sel.Options {
			if s.RuleOptions[id] == nil {
				s.RuleOptions[id] = map[string]string{}
			}
			for k, v := range opts {
				s.RuleOptions[id][k] = v
			}
		}
	}
	for _, r := range catalog {
		if on[r] {
			s.Rules = append(s.Rules, r)
		}
	}
	return s
}

// matches reports whether abs, below the pattern's folder, matches it.
func (p pattern) matches(abs string, isDir bool) bool {
	rel, err := filepath.Rel(p.dir, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	// A pattern that names a folder covers what is inside it, as in
	// .gitignore, where a folder's files are never reached.
	for i := 1; i < len(parts); i++ {
		if p.p.Match(parts[:i], true) == gitignore.Exclude {
			return true
		}
	}
	return p.p.Match(parts, isDir) == gitignore.Exclude
}

// loader reads one file and, first, the files it extends.
type loader struct {
	cfg      *Config
	catalog  []*rule.Rule // every rule there is (Load)
	visiting map[string]bool
	errs     []*Error
	adds     additions // launchers, preloads, clocks, timers (additions.go)
}

// at is where node n of the file at path is, as `lazylint config` shows it.
func at(path string, n *yaml.Node) string {
	return fmt.Sprintf("%s:%d", path, n.Line)
}

func (l *loader) errorf(path string, n *yaml.Node, format string, args ...any) {
	e := &Error{Path: path, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	l.errs = append(l.errs, e)
}

// yamlLine finds the line yaml.v3 puts in its syntax errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// load reads the file at abs; from is the extends entry that named it.
func (l *loader) load(abs string, from *Error, depth int) {
	fail := func(msg string) {
		if from != nil {
			l.errs = append(l.errs, &Error{Path: from.Path, Line: from.Line, Column: from.Column, Message: msg})
			return
		}
		l.errs = append(l.errs, &Error{Path: abs, Message: msg})
	}
	if l.visiting[abs] {
		fail("extends " + abs + " again: the files extend each other in a cycle")
		return
	}
	if depth > maxExtendsDepth {
		fail(fmt.Sprintf("more than %d files extend each other", maxExtendsDepth))
		return
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		fail(fmt.Sprintf("cannot read %s: %v", abs, err))
		return
	}
	l.visiting[abs] = true
	defer delete(l.visiting, abs)

	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			line = strings.TrimSpace(line)
			if m := yamlLine.FindStringSubmatch(line); m != nil {
				n, _ := strconv.Atoi(m[1])
				l.errs = append(l.errs, &Error{Path: abs, Line: n, Message: m[2]})
			} else if line != "" && line != "yaml: unmarshal errors:" {
				l.errs = append(l.errs, &Error{Path: abs, Message: strings.TrimPrefix(line, "yaml: ")})
			}
		}
		return
	}
	if len(doc.Content) == 0 {
		l.cfg.Files = append(l.cfg.Files, abs) // an empty file changes nothing
		return
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		l.errorf(abs, top, "want a mapping of settings (enable, disable, severity, options, exclude, overrides, extends)")
		return
	}
	dir := filepath.Dir(abs)
	fields := l.fieldsOf(abs, top, topKeys)
	if n := fields["extends"]; n != nil {
		for _, e := range l.strings(abs, n) {
			target := e.Value
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			l.load(filepath.Clean(target), &Error{Path: abs, Line: e.Line, Column: e.Column}, depth+1)
		}
	}
	l.cfg.Files = append(l.cfg.Files, abs)
	l.cfg.layers = append(l.cfg.layers, layer{file: abs, sel: l.selection(abs, fields)})
	l.additions(abs, fields)
	if n := fields["exclude"]; n != nil {
		l.cfg.exclude = append(l.cfg.exclude, l.patterns(abs, dir, n)...)
	}
	for _, key := range []string{"report-unused-suppressions", "low-confidence", "fail-on"} {
		if n := fields[key]; n != nil {
			l.cfg.where[key] = at(abs, n)
		}
	}
	for _, name := range []string{"report-unused-suppressions", "low-confidence"} {
		n := fields[name]
		if n == nil {
			continue
		}
		var b bool
		if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
			l.errorf(abs, n, "%s wants true or false", name)
			continue
		}
		if name == "low-confidence" {
			l.cfg.LowConfidence = &b
		} else {
			l.cfg.ReportUnusedSuppressions = &b
		}
	}
	if n := fields["fail-on"]; n != nil {
		sev, err := rule.ParseSeverity(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			l.errorf(abs, n, "fail-on wants info, warning or error, not %q", n.Value)
		} else {
			l.cfg.FailOn = &sev
		}
	}
	if n := fields["extensions"]; n != nil {
		for _, e := range l.strings(abs, n) {
			ext := strings.ToLower(strings.TrimSpace(e.Value))
			if !strings.HasPrefix(ext, ".") || len(ext) < 2 || strings.ContainsAny(ext, `/\ *?`) {
				l.errs = append(l.errs, &Error{Path: abs, Line: e.Line, Column: e.Column, Message: fmt.Sprintf("extensions: %q is not a file ending such as .impl", e.Value)})
				continue
			}
			l.cfg.Extensions = append(l.cfg.Extensions, ext)
			l.cfg.where["extensions/"+ext] = at(abs, e)
		}
	}
	for _, key := range []string{"include-dirs", "compile-commands"} {
		n := fields[key]
		if n == nil {
			continue
		}
		for _, e := range l.strings(abs, n) {
			target := e.Value
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			target = filepath.Clean(target)
			st, err := os.Stat(target)
			switch {
			case err != nil:
				l.errs = append(l.errs, &Error{Path: abs, Line: e.Line, Column: e.Column, Message: fmt.Sprintf("%s: %s does not exist", key, e.Value)})
			case key == "include-dirs" && !st.IsDir():
				l.errs = append(l.errs, &Error{Path: abs, Line: e.Line, Column: e.Column, Message: fmt.Sprintf("include-dirs: %s is not a folder", e.Value)})
			case key == "include-dirs":
				l.cfg.IncludeDirs = append(l.cfg.IncludeDirs, target)
				l.cfg.where[key+"/"+target] = at(abs, e)
			default:
				l.cfg.CompileCommands = append(l.cfg.CompileCommands, target)
				l.cfg.where[key+"/"+target] = at(abs, e)
			}
		}
	}
	if n := fields["overrides"]; n != nil {
		if n.Kind != yaml.SequenceNode {
			l.errorf(abs, n, "overrides wants a list of {files: [...], enable/disable/severity/options}")
			return
		}
		for _, item := range n.Content {
			if item.Kind != yaml.MappingNode {
				l.errorf(abs, item, "an override wants a mapping with files and settings")
				continue
			}
			before := len(l.errs)
			of := l.fieldsOf(abs, item, overrideKeys)
			o := override{file: abs, line: item.Line, sel: l.selection(abs, of)}
			if of["files"] == nil {
				// After an unknown key (file: for files:) its error says
				// it all.
				if len(l.errs) == before {
					l.errorf(abs, item, "an override needs files: the patterns of the paths it applies to")
				}
				continue
			}
			o.files = l.patterns(abs, dir, of["files"])
			l.cfg.overrides = append(l.cfg.overrides, o)
		}
	}
}

var (
	selectionKeys = []string{"enable", "disable", "severity", "options"}
	topKeys       = append(append([]string{"extends", "exclude", "overrides", "report-unused-suppressions", "low-confidence", "include-dirs", "compile-commands", "fail-on", "extensions"}, selectionKeys...), additionKeys...)
	overrideKeys  = append([]string{"files"}, selectionKeys...)
)

// fieldsOf returns a mapping's values by key, reporting unknown and
// repeated keys.
func (l *loader) fieldsOf(path string, m *yaml.Node, known []string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case !slices.Contains(known, k.Value):
			if near := nearest(k.Value, known); near != "" {
				l.errorf(path, k, "unknown setting %q (did you mean %s? want one of %s)", k.Value, near, strings.Join(known, ", "))
			} else {
				l.errorf(path, k, "unknown setting %q (want one of %s)", k.Value, strings.Join(known, ", "))
			}
		case seen[k.Value]:
			l.errorf(path, k, "%s is set twice", k.Value)
		case v.Tag == "!!null":
			seen[k.Value] = true // "enable:" with nothing after it sets nothing
		default:
			seen[k.Value] = true
			out[k.Value] = v
		}
	}
	return out
}

// nearest returns the known key that key is a slip of (one or two edits
// away: file for files, exclued for exclude), or "".
func nearest(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(key), k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// strings returns a scalar or a list of scalars.
func (l *loader) strings(path string, n *yaml.Node) []*yaml.Node {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return nil
		}
		return []*yaml.Node{n}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				l.errorf(path, c, "want a string")
				continue
			}
			out = append(out, c)
		}
		return out
	}
	l.errorf(path, n, "want a string or a list of strings")
	return nil
}

func (l *loader) patterns(path, dir string, n *yaml.Node) []pattern {
	var out []pattern
	for _, s := range l.strings(path, n) {
		text := strings.TrimSpace(s.Value)
		if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "!") {
			l.errorf(path, s, "%q is not a path pattern (negations and comments are not supported)", s.Value)
			continue
		}
		out = append(out, pattern{text: text, dir: dir, p: gitignore.ParsePattern(text, nil), at: at(path, s)})
	}
	return out
}

// rules returns the rules a list of enable or disable entries names (see
// Rules: the command line's vocabulary).
func (l *loader) rules(path string, n *yaml.Node) []*rule.Rule {
	out := []*rule.Rule{}
	for _, s := range l.strings(path, n) {
		rs, err := Rules(l.catalog, s.Value)
		if err != nil {
			l.errorf(path, s, "%v", err)
			continue
		}
		out = append(out, rs...)
	}
	return out
}

// ruleMap returns a mapping keyed by rule (an ID, a name or a glob, as in
// enable), with its rules.
func (l *loader) ruleMap(path, what string, n *yaml.Node, each func(r *rule.Rule, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		l.errorf(path, n, "%s wants a mapping by rule, e.g. {LL001: ...}", what)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		rs, err := Rules(l.catalog, k.Value)
		if err != nil {
			l.errorf(path, k, "%v", err)
			continue
		}
		for _, r := range rs {
			each(r, v)
		}
	}
}

func (l *loader) selection(path string, f map[string]*yaml.Node) Selection {
	s := Selection{Where: map[string]string{}}
	for _, key := range []string{"enable", "disable"} {
		if n := f[key]; n != nil {
			s.Where[key] = at(path, n)
		}
	}
	if n := f["enable"]; n != nil {
		s.Enable = l.rules(path, n)
	}
	if n := f["disable"]; n != nil {
		s.Disable = l.rules(path, n)
	}
	if n := f["severity"]; n != nil {
		s.Severities = map[string]rule.Severity{}
		l.ruleMap(path, "severity", n, func(r *rule.Rule, v *yaml.Node) {
			sev, err := rule.ParseSeverity(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil {
				l.errorf(path, v, "severity of %s: want info, warning or error, not %q", r.ID, v.Value)
				return
			}
			s.Severities[r.ID] = sev
			s.Where["severity."+r.ID] = at(path, v)
		})
	}
	if n := f["options"]; n != nil {
		s.Options = map[string]map[string]string{}
		l.ruleMap(path, "options", n, func(r *rule.Rule, v *yaml.Node) {
			if v.Kind != yaml.MappingNode {
				l.errorf(path, v, "options of %s want a mapping, e.g. {%s: value}", r.ID, optionNames(r))
				return
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, val := v.Content[i], v.Content[i+1]
				opt, ok := option(r, k.Value)
				switch {
				case !ok:
					l.errorf(path, k, "%s has no option %q (it has: %s)", r.ID, k.Value, optionNames(r))
				case val.Kind != yaml.ScalarNode:
					l.errorf(path, val, "option %s.%s wants a value", r.ID, k.Value)
				default:
					if err := opt.Check(val.Value); err != nil {
						l.errorf(path, val, "%s: %v", r.ID, err)
						continue
					}
					if s.Options[r.ID] == nil {
						s.Options[r.ID] = map[string]string{}
					}
					s.Options[r.ID][k.Value] = val.Value
					s.Where["options."+r.ID+"."+k.Value] = at(path, val)
				}
			}
		})
	}
	return s
}

func option(r *rule.Rule, name string) (rule.Option, bool) {
	for _, o := range r.Options {
		if o.Name == name {
			return o, true
		}
	}
	return rule.Option{}, false
}

func optionNames(r *rule.Rule) string {
	if len(r.Options) == 0 {
		return "none"
	}
	var names []string
	for _, o := range r.Options {
		names = append(names, o.Name)
	}
	return strings.Join(names, ", ")
}

// Effective is what applies to one file, or to the run as a whole, as
// `lazylint config` prints it: every setting, and in Sources where each
// came from.
type Effective struct {
	Files                    []string          `yaml:"files-read"`
	File                     string            `yaml:"file,omitempty"`
	Excluded                 *bool             `yaml:"excluded,omitempty"`
	Rules                    []EffectiveRule   `yaml:"rules"`
	Disabled                 []string          `yaml:"disabled,flow"`
	Exclude                  []string          `yaml:"exclude"`
	Overrides                []EffectiveMatch  `yaml:"overrides,omitempty"`
	ReportUnusedSuppressions bool              `yaml:"report-unused-suppressions"`
	LowConfidence            bool              `yaml:"low-confidence"`
	FailOn                   string            `yaml:"fail-on"`
	IncludeDirs              []string          `yaml:"include-dirs"`
	CompileCommands          []string          `yaml:"compile-commands"`
	Extensions               []string          `yaml:"extensions"`
	Launchers                []EffectiveHelper `yaml:"launchers"`
	Preloads                 []EffectiveHelper `yaml:"preloads"`
	Clocks                   []string          `yaml:"clocks"`
	Timers                   []EffectiveTimer  `yaml:"timers"`
	// Sources say where each setting came from ("default", a file:line,
	// a flag), keyed by its place in the YAML: "fail-on",
	// "rules.LL001", "rules.LL001.severity", "rules.LL001.options.threshold",
	// "disabled.LL008", and "exclude/ENTRY" (include-dirs, compile-commands,
	// extensions alike) for each entry of a list, "launchers/NAME"
	// (preloads, clocks, timers alike) for each addition.
	Sources map[string]string `yaml:"-"`
}

// EffectiveRule is one enabled rule with its settings.
type EffectiveRule struct {
	ID       string            `yaml:"id"`
	Name     string            `yaml:"name"`
	Severity string            `yaml:"severity"`
	Options  map[string]string `yaml:"options,omitempty"`
}

// EffectiveMatch is an override: where it was written and its patterns.
type EffectiveMatch struct {
	At      string   `yaml:"at"`
	Files   []string `yaml:"files,flow"`
	Applies *bool    `yaml:"applies,omitempty"`
}

// Default is the source of a setting nothing set.
const Default = "default"

// Effective returns the settings for the file at abs ("" for the run as a
// whole, without per-path overrides), with extra selections on top, over
// every rule of catalog.
func (c *Config) Effective(catalog []*rule.Rule, abs string, extra ...Selection) Effective {
	e := Effective{Sources: map[string]string{}}
	var sels []Selection
	if c != nil {
		for _, l := range c.layers {
			sels = append(sels, l.sel)
		}
		if abs != "" {
			for _, o := range c.overrides {
				for _, p := range o.files {
					if p.matches(abs, false) {
						sels = append(sels, o.sel)
						break
					}
				}
			}
		}
	}
	sels = append(sels, extra...)
	s := Resolve(catalog, sels...)
	if abs != "" {
		e.File = abs
		excluded := c.Excluded(abs, false)
		e.Excluded = &excluded
	}
	// Where each rule was enabled or disabled, its severity and options
	// set: the last selection that did it.
	why := map[string]string{}
	for _, r := range catalog {
		why[r.ID] = Default
	}
	for _, sel := range sels {
		if sel.Enable != nil {
			named := map[*rule.Rule]bool{}
			for _, r := range sel.Enable {
				named[r] = true
			}
			for _, r := range catalog {
				why[r.ID] = sel.Where["enable"]
				if !named[r] {
					why[r.ID] += " (not in enable)"
				}
			}
		}
		for _, r := range sel.Disable {
			why[r.ID] = sel.Where["disable"]
		}
		for id := range sel.Severities {
			e.Sources["rules."+id+".severity"] = sel.Where["severity."+id]
		}
		for id, opts := range sel.Options {
			for name := range opts {
				e.Sources["rules."+id+".options."+name] = sel.Where["options."+id+"."+name]
			}
		}
	}
	on := map[string]bool{}
	for _, r := range s.Rules {
		on[r.ID] = true
		e.Sources["rules."+r.ID] = why[r.ID]
		er := EffectiveRule{ID: r.ID, Name: r.Name, Severity: r.Severity.String()}
		if sev, ok := s.Severities[r.ID]; ok {
			er.Severity = sev.String()
		} else {
			e.Sources["rules."+r.ID+".severity"] = Default
		}
		for _, o := range r.Options {
			if er.Options == nil {
				er.Options = map[string]string{}
			}
			er.Options[o.Name] = o.Default
			if v, ok := s.RuleOptions[r.ID][o.Name]; ok {
				er.Options[o.Name] = v
			} else {
				e.Sources["rules."+r.ID+".options."+o.Name] = Default
			}
		}
		e.Rules = append(e.Rules, er)
	}
	e.Disabled = []string{}
	for _, r := range catalog {
		if !on[r.ID] {
			e.Disabled = append(e.Disabled, r.ID)
			e.Sources["disabled."+r.ID] = why[r.ID]
		}
	}
	e.FailOn = rule.Warning.String()
	e.Exclude, e.IncludeDirs, e.CompileCommands, e.Extensions = []string{}, []string{}, []string{}, []string{}
	c.effectiveAdditions(&e)
	for _, key := range []string{"report-unused-suppressions", "low-confidence", "fail-on"} {
		e.Sources[key] = Default
	}
	if c == nil {
		return e
	}
	e.Files = c.Files
	for key, where := range c.where {
		e.Sources[key] = where
	}
	if c.ReportUnusedSuppressions != nil {
		e.ReportUnusedSuppressions = *c.ReportUnusedSuppressions
	}
	if c.LowConfidence != nil {
		e.LowConfidence = *c.LowConfidence
	}
	if c.FailOn != nil {
		e.FailOn = c.FailOn.String()
	}
	e.IncludeDirs = append(e.IncludeDirs, c.IncludeDirs...)
	e.CompileCommands = append(e.CompileCommands, c.CompileCommands...)
	e.Extensions = append(e.Extensions, c.Extensions...)
	for _, p := range c.exclude {
		shown := filepath.Join(p.dir, p.text) + suffixSlash(p.text)
		e.Exclude = append(e.Exclude, shown)
		e.Sources["exclude/"+shown] = p.at
	}
	for _, o := range c.overrides {
		m := EffectiveMatch{At: fmt.Sprintf("%s:%d", o.file, o.line)}
		applies := false
		for _, p := range o.files {
			m.Files = append(m.Files, p.text)
			applies = applies || abs != "" && p.matches(abs, false)
		}
		if abs != "" {
			m.Applies = &applies
		}
		e.Overrides = append(e.Overrides, m)
	}
	return e
}

// suffixSlash keeps the trailing slash of a folder pattern, which
// filepath.Join drops.
func suffixSlash(p string) string {
	if strings.HasSuffix(p, "/") {
		return "/"
	}
	return ""
}

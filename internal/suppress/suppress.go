// Package suppress reads the comments that silence findings:
//
//	// NOLINT(lazylint-LL001)              clang-tidy's: this line
//	// NOLINTNEXTLINE(lazylint-*)          the next line
//	// NOLINTBEGIN(lazylint-LL003) ... // NOLINTEND(lazylint-LL003)
//	// lazylint:ignore LL001 <reason>      this line (after code) or the next
//	// lazylint:file-ignore LL008 <reason> the whole file
//	//nolint:lazylint // reason            golangci-lint's, in Go files
//
// It scans comments only (string and character literals are skipped), and
// needs no parse.
package suppress

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/internal/rule"
)

// Kinds of directive.
const (
	KindNOLINT         = "NOLINT"
	KindNOLINTNEXTLINE = "NOLINTNEXTLINE"
	KindNOLINTBEGIN    = "NOLINTBEGIN"
	KindIgnore         = "lazylint:ignore"
	KindFileIgnore     = "lazylint:file-ignore"
	KindGoNolint       = "nolint"
)

// Directive is one suppression comment.
type Directive struct {
	Kind   string
	Text   string // the directive as written, e.g. NOLINT(lazylint-LL001)
	Line   int    // 1-based line of the comment
	Column int    // 1-based byte column of the comment
	// Checks are the patterns it names; nil means every check (a bare
	// NOLINT or //nolint).
	Checks []string
	// Reason is the justification given (required for lazylint:ignore).
	Reason string
	// FromLine and ToLine are the lines it covers.
	FromLine, ToLine int
	// Explicit is set when it names lazylint (or a lazylint rule): only
	// those can be reported as unused, since a bare NOLINT may be meant for
	// clang-tidy.
	Explicit bool
	Used     bool
	// usedChecks marks the patterns of Checks that silenced a finding, so
	// an unused rule inside a multi-rule directive can be reported.
	usedChecks []bool
}

// Problem is a malformed or unmatched directive.
type Problem struct {
	Line, Column int
	Message      string
}

// Set is the directives of one file.
type Set struct {
	Directives []*Directive
	Problems   []Problem
}

// markers are the words every directive, or a misspelling of one that
// gets a hint, holds: a file without them has none, and is not searched
// for comments.
var markers = []string{"NOLINT", "nolint", "Nolint", "NoLint", "lazylint", "LAZYLINT", "Lazylint", "LazyLint"}

var (
	nolintRE = regexp.MustCompile(`\bNOLINT(NEXTLINE|BEGIN|END)?\b(\(([^)]*)\))?`)
	ignoreRE = regexp.MustCompile(`lazylint:(file-)?ignore\b[ \t]*([A-Za-z0-9_*?,\-]*)[ \t]*(.*)`)
	goRE     = regexp.MustCompile(`^//nolint(:([\w,\-]+))?(\s.*)?$`)
	// Near misses: another case, or spaces around the colon.
	ignoreLikeRE = regexp.MustCompile(`(?i)\blazylint[ \t]*:[ \t]*(file[-_ ]?)?ignore\b`)
	nolintLikeRE = regexp.MustCompile(`(?i)\bnolint(nextline|begin|end)?[ \t]*\([ \t]*lazylint`)
)

// Parse reads the directives of src. goSyntax selects Go's golangci-lint
// form; C, C++ and CUDA files use the clang-tidy and native forms.
func Parse(src []byte, goSyntax bool) *Set {
	if !containsMarker(src) {
		return &Set{}
	}
	return parse(src, goSyntax)
}

// parse is Parse once a marker is known to be in src.
func parse(src []byte, goSyntax bool) *Set {
	s := &Set{}
	lines := lineStarts(src)
	var open []*Directive // NOLINTBEGINs waiting for their END
	for _, c := range comments(src, goSyntax) {
		line, col := position(lines, c.start)
		text := string(src[c.start:c.end])
		codeBefore := len(bytes.TrimSpace(src[lines[line-1]:c.start])) > 0
		next := line + 1
		if goSyntax {
			if d := parseGo(text, line, col, codeBefore); d != nil {
				s.Directives = append(s.Directives, d)
			}
			continue
		}
		// Every form below names lazylint (in any case) or is NOLINT in
		// capitals: other comments need no regular expression (a template
		// library has thousands).
		if !strings.Contains(text, "NOLINT") && !containsFold(text, "lazylint") {
			continue
		}
		// A block comment's "*/" is not part of a rule list or reason.
		if m := ignoreRE.FindStringSubmatch(strings.TrimSuffix(text, "*/")); m != nil {
			kind := KindIgnore
			if m[1] != "" {
				kind = KindFileIgnore
			}
			d := &Directive{Kind: kind, Line: line, Column: col, Explicit: true,
				Text: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[0]), "*/"))}
			d.Reason = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m[3]), "*/"))
			if m[2] == "" {
				s.Problems = append(s.Problems, Problem{line, col, fmt.Sprintf("%s names no rule: write `%s LL001 <reason>`", kind, kind)})
				continue
			}
			if d.Reason == "" {
				s.Problems = append(s.Problems, Problem{line, col, fmt.Sprintf("%s %s needs a reason after the rule, e.g. `%s %s headroom is reserved by the caller`", kind, m[2], kind, m[2])})
				continue
			}
			d.Checks = splitList(m[2])
			d.FromLine, d.ToLine = line, line
			switch {
			case kind == KindFileIgnore:
				d.FromLine, d.ToLine = 1, len(lines)
			case !codeBefore:
				d.FromLine, d.ToLine = next, next
			}
			s.Directives = append(s.Directives, d)
			continue
		}
		if m := ignoreLikeRE.FindString(text); m != "" {
			want := KindIgnore
			if strings.Contains(strings.ToLower(m), "file") {
				want = KindFileIgnore
			}
			s.Problems = append(s.Problems, Problem{line, col, fmt.Sprintf("%q is not a lazylint directive and silences nothing: write `%s RULE <reason>` (lower case, no spaces around the colon)", m, want)})
			continue
		}
		for _, loc := range nolintLikeRE.FindAllStringIndex(text, -1) {
			if m := text[loc[0]:loc[1]]; !strings.HasPrefix(m, "NOLINT") || strings.ContainsAny(m[:len(m)-len("lazylint")], " \t") {
				s.Problems = append(s.Problems, Problem{line, col, fmt.Sprintf("%q is not read as a suppression: clang-tidy's form is NOLINT, NOLINTNEXTLINE, NOLINTBEGIN or NOLINTEND in capitals, the parenthesis right after it, e.g. `NOLINT(lazylint-LL001)`", m+"...")})
			}
		}
		for _, m := range nolintRE.FindAllStringSubmatch(text, -1) {
			d := &Directive{Kind: "NOLINT" + m[1], Text: m[0], Line: line, Column: col}
			if m[2] != "" {
				d.Checks = splitList(m[3])
				if len(d.Checks) == 0 {
					continue // NOLINT() names nothing
				}
			}
			d.Explicit = namesLazylint(d.Checks)
			if d.Checks != nil && !mayNameLazylint(d.Checks) {
				continue // for another tool's checks
			}
			switch d.Kind {
			case KindNOLINT:
				d.FromLine, d.ToLine = line, line
			case KindNOLINTNEXTLINE:
				d.FromLine, d.ToLine = next, next
			case KindNOLINTBEGIN:
				d.FromLine = line
				open = append(open, d)
				continue
			case "NOLINTEND":
				i := len(open) - 1
				for ; i >= 0 && strings.Join(open[i].Checks, ",") != strings.Join(d.Checks, ","); i-- {
				}
				if i < 0 {
					s.Problems = append(s.Problems, Problem{line, col, m[0] + " has no matching NOLINTBEGIN"})
					continue
				}
				b := open[i]
				open = append(open[:i], open[i+1:]...)
				b.ToLine = line
				s.Directives = append(s.Directives, b)
				continue
			}
			s.Directives = append(s.Directives, d)
		}
	}
	for _, b := range open {
		s.Problems = append(s.Problems, Problem{b.Line, b.Column, b.Text + " has no matching NOLINTEND"})
	}
	return s
}

func parseGo(text string, line, col int, codeBefore bool) *Directive {
	m := goRE.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	d := &Directive{Kind: KindGoNolint, Text: strings.TrimSpace(strings.SplitN(text, "//", 3)[1]), Line: line, Column: col}
	d.Text = "//" + d.Text
	if m[1] != "" {
		linters := splitList(m[2])
		found := false
		for _, l := range linters {
			found = found || l == "lazylint"
		}
		if !found {
			return nil
		}
		d.Checks, d.Explicit = []string{"*"}, true
	}
	if _, reason, ok := strings.Cut(m[3], "//"); ok {
		d.Reason = strings.TrimSpace(reason)
	}
	d.FromLine, d.ToLine = line, line
	if !codeBefore {
		d.FromLine, d.ToLine = line+1, line+1
	}
	return d
}

func splitList(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func namesLazylint(checks []string) bool {
	for _, c := range checks {
		if strings.HasPrefix(c, "lazylint-") {
			return true
		}
	}
	return false
}

// mayNameLazylint reports whether a check pattern can match a lazylint
// check: its literal part before the first glob character must fit
// "lazylint-" ("*", "lazy*", "lazylint-LL00?" can; "bugprone-*" cannot).
func mayNameLazylint(patterns []string) bool {
	const prefix = "lazylint-"
	for _, p := range patterns {
		lit := p
		if i := strings.IndexAny(p, "*?["); i >= 0 {
			lit = p[:i]
			if len(lit) <= len(prefix) && prefix[:len(lit)] == lit {
				return true // the glob can still grow into "lazylint-..."
			}
		}
		if strings.HasPrefix(lit, prefix) {
			return true
		}
	}
	return false
}

// covers reports whether the directive silences rule r.
func (d *Directive) covers(r *rule.Rule) bool { return d.coveringCheck(r) != noCheck }

const (
	noCheck   = -1 // the directive does not cover the rule
	allChecks = -2 // it covers every rule (a bare NOLINT, //nolint:lazylint)
)

// coveringCheck returns the index in Checks of the first pattern that names
// rule r, allChecks, or noCheck.
func (d *Directive) coveringCheck(r *rule.Rule) int {
	if d.Checks == nil || d.Kind == KindGoNolint {
		return allChecks // golangci-lint's form names the linter, so every lazylint rule
	}
	for i, p := range d.Checks {
		if patternNames(d.Kind, p, r) {
			return i
		}
	}
	return noCheck
}

// patternNames reports whether check pattern p of a directive of kind names
// rule r: lazylint's own directives name IDs and names, clang-tidy's
// "lazylint-" and the ID or name.
func patternNames(kind, p string, r *rule.Rule) bool {
	names := []string{"lazylint-" + r.ID, "lazylint-" + r.Name}
	if kind == KindIgnore || kind == KindFileIgnore {
		names = []string{r.ID, r.Name}
	}
	for _, n := range names {
		if ok, _ := path.Match(p, n); ok || strings.EqualFold(p, n) {
			return true
		}
	}
	return false
}

// Match returns the first directive that silences a finding of rule r on
// line, and marks it (and the pattern that named r) used.
func (s *Set) Match(r *rule.Rule, line int) *Directive {
	for _, d := range s.Directives {
		if line < d.FromLine || line > d.ToLine {
			continue
		}
		if i := d.coveringCheck(r); i != noCheck {
			d.Used = true
			if i >= 0 {
				if d.usedChecks == nil {
					d.usedChecks = make([]bool, len(d.Checks))
				}
				d.usedChecks[i] = true
			}
			return d
		}
	}
	return nil
}

// CheckNames adds a problem for each rule pattern of an explicit directive
// that names none of the known rules (a typo such as LL01 or
// lazylint-whole-vram): such a directive would silently silence nothing.
// Patterns for other tools' checks are not lazylint's and are left alone.
func (s *Set) CheckNames(known []*rule.Rule) {
	for _, d := range s.Directives {
		if !d.Explicit || d.Kind == KindGoNolint {
			continue
		}
		for _, p := range d.Checks {
			if d.Kind != KindIgnore && d.Kind != KindFileIgnore && !mayNameLazylint([]string{p}) {
				continue
			}
			found := false
			for _, r := range known {
				if found = patternNames(d.Kind, p, r); found {
					break
				}
			}
			if !found {
				s.Problems = append(s.Problems, Problem{d.Line, d.Column, fmt.Sprintf("%s: %q names no lazylint rule (rules are LL001... or their names; `lazylint rules` lists them), so it silences nothing", d.Text, p)})
			}
		}
	}
}

// UnusedCheck is a rule pattern of a multi-rule directive that silenced no
// finding while another of its patterns did.
type UnusedCheck struct {
	Directive *Directive
	Check     string
}

// UnusedChecks returns the patterns of used explicit directives that name
// one of the rules that ran but silenced nothing (`lazylint:ignore
// LL001,LL002 reason` where only LL001 fires). Wholly unused directives are
// Unused's.
func (s *Set) UnusedChecks(ran []*rule.Rule) []UnusedCheck {
	var out []UnusedCheck
	for _, d := range s.Directives {
		if !d.Used || !d.Explicit || len(d.Checks) < 2 || d.Kind == KindGoNolint {
			continue
		}
		for i, p := range d.Checks {
			if i < len(d.usedChecks) && d.usedChecks[i] {
				continue
			}
			for _, r := range ran {
				if patternNames(d.Kind, p, r) {
					out = append(out, UnusedCheck{d, p})
					break
				}
			}
		}
	}
	return out
}

// Unused returns the explicit directives that silenced nothing and name at
// least one of the rules that ran.
func (s *Set) Unused(ran []*rule.Rule) []*Directive {
	var out []*Directive
	for _, d := range s.Directives {
		if d.Used || !d.Explicit {
			continue
		}
		for _, r := range ran {
			if d.covers(r) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

func containsMarker(src []byte) bool {
	for _, m := range markers {
		if bytes.Contains(src, []byte(m)) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}

// ParseText is Parse of a file prefilters have looked at: its index
// answers "no directive here" for most files without a scan.
func ParseText(t *rule.Text, goSyntax bool) *Set {
	if !t.ContainsAny(markers...) {
		return &Set{}
	}
	return parse(t.Src, goSyntax)
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func position(starts []int, off int) (line, col int) {
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, off - starts[lo] + 1
}

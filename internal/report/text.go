package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// Text writes the findings for people, in the form of gcc and clang-tidy so
// that editors' and CI systems' problem matchers read it:
//
//	path:line:col: warning: message [LL001]
//	   30 |   cudaMalloc(&arena, free * 0.97);
//	      |   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//	path:line:col: note: memory queried here
//	   28 |   cudaMemGetInfo(&free, &total);
//	      |   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
//	  = LL001 whole-vram-allocation: https://.../LL001.md
//
// then the per-rule counts (Extras.Statistics) and a summary line. Code
// frames need Extras.Source; the concise form (Extras.Concise) is the first
// line of each finding and its notes only. File errors go to errw,
// `path: error: message`. With a probe run each finding carries
// [confirmed: ...] or [not confirmed: ...], and the runs follow.
func Text(w, errw io.Writer, res engine.Result, x Extras) error {
	b := bufio.NewWriter(w)
	for _, f := range res.Findings {
		var marks []string
		if f.LowConfidence {
			marks = append(marks, "[low confidence: the code around it did not parse cleanly]")
		}
		if c := x.confirmation(f); c != nil {
			switch {
			case c.Status == diffrun.Confirmed && c.Source == "trace":
				marks = append(marks, fmt.Sprintf("[confirmed: %s]", c.Reason))
			case c.Status == diffrun.Confirmed:
				marks = append(marks, fmt.Sprintf("[confirmed: %s]", c.Verdict))
			case c.Status == diffrun.NotExercised:
				marks = append(marks, fmt.Sprintf("[not exercised: %s]", c.Reason))
			default:
				marks = append(marks, fmt.Sprintf("[not confirmed: %s]", c.Reason))
			}
		}
		marks = append(marks, "["+f.Rule.ID+"]")
		place := fmt.Sprintf("%s:%d:%d:", f.Path, f.Start.Line, f.Start.Column)
		sev := severityWord(f.Severity)
		head := place + " " + sev + ": " + oneLine(f.Message) + " " + strings.Join(marks, " ")
		lines := x.wrap(head, len(place)+len(sev)+3)
		lines[0] = x.paint(bold, place) + " " + x.paint(severityColor[f.Severity], sev+":") + lines[0][len(place)+len(sev)+2:]
		for _, l := range lines {
			fmt.Fprintln(b, l)
		}
		if !x.Concise {
			x.frame(b, f.Path, f.Start, f.End)
		}
		for _, r := range f.Related {
			rplace := fmt.Sprintf("%s:%d:%d:", r.Path, r.Start.Line, r.Start.Column)
			for i, l := range x.wrap(rplace+" note: "+oneLine(r.Message), len(rplace)+7) {
				if i == 0 {
					l = x.paint(bold, rplace) + " " + x.paint(dim, "note:") + l[len(rplace)+6:]
				}
				fmt.Fprintln(b, l)
			}
			if !x.Concise {
				x.frame(b, r.Path, r.Start, r.End)
			}
		}
		if !x.Concise {
			fmt.Fprintf(b, "  %s\n", x.paint(dim, fmt.Sprintf("= %s %s: %s", f.Rule.ID, f.Rule.Name, f.Rule.DocURL())))
		}
	}
	if x.Statistics {
		Statistics(b, res)
	}
	if !x.Concise {
		fmt.Fprintln(b, summaryLine(res))
	}
	if x.Probe != nil {
		ProbeText(b, x.Probe)
	}
	if err := b.Flush(); err != nil {
		return err
	}
	for _, e := range res.Errors {
		if _, err := fmt.Fprintf(errw, "%s: error: %s\n", e.Path, e.Message); err != nil {
			return err
		}
	}
	if st := x.Baseline; st != nil && (st.Known > 0 || st.Stale > 0) {
		msg := fmt.Sprintf("lazylint: the baseline hid %d known finding(s)", st.Known)
		if st.Stale > 0 {
			msg += fmt.Sprintf("; %d of its entries match nothing any more (rewrite it with --write-baseline)", st.Stale)
		}
		if _, err := fmt.Fprintln(errw, msg); err != nil {
			return err
		}
	}
	return nil
}

// severityWord is a severity as gcc and clang-tidy spell it; info, which
// they lack, is "info" (problem matchers that know only warning and error
// leave it out, as they should).
func severityWord(s rule.Severity) string { return s.String() }

// oneLine keeps a message on its line: a line break in it would start a
// line that problem matchers misread.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// wrap breaks s into lines of at most x.Width columns at spaces, the
// continuation lines indented by four spaces; the first prefix bytes (the
// location and severity) are never broken. Without a width, s is one line.
func (x Extras) wrap(s string, prefix int) []string {
	if x.Width <= 0 || utf8.RuneCountInString(s) <= x.Width {
		return []string{s}
	}
	const indent = "    "
	var lines []string
	line, width := s[:prefix], utf8.RuneCountInString(s[:prefix])
	for _, word := range strings.Fields(s[prefix:]) {
		n := utf8.RuneCountInString(word)
		switch {
		case width == 0 || (len(lines) == 0 && line == s[:prefix]):
			line, width = line+word, width+n
		case width+1+n > x.Width:
			lines = append(lines, line)
			line, width = indent+word, len(indent)+n
		default:
			line, width = line+" "+word, width+1+n
		}
	}
	return append(lines, line)
}

// frame writes the code frame of a location: its first line, numbered, and
// a caret under its start with tildes to its end on that line. Nothing when
// the source cannot be had or the line is not in it.
func (x Extras) frame(b *bufio.Writer, path string, start, end cudaparse.Position) {
	if x.Source == nil || start.Line < 1 {
		return
	}
	src := x.Source(path)
	text, ok := lineOf(src, start.Line)
	if !ok {
		return
	}
	runes := []rune(text)
	from := min(max(start.Column-1, 0), len(runes))
	to := from + 1
	if end.Line == start.Line && end.Column-1 > from {
		to = end.Column - 1
	} else if end.Line > start.Line {
		to = len(runes)
	}
	to = min(max(to, from+1), max(len(runes), from+1))
	var marker strings.Builder
	for _, r := range runes[:from] {
		if r == '\t' {
			marker.WriteByte('\t')
		} else {
			marker.WriteByte(' ')
		}
	}
	marker.WriteByte('^')
	for i := from + 1; i < to; i++ {
		marker.WriteByte('~')
	}
	gutter := fmt.Sprintf("%5d | ", start.Line)
	fmt.Fprintf(b, "%s%s\n", x.paint(dim, gutter), text)
	fmt.Fprintf(b, "%s%s\n", x.paint(dim, strings.Repeat(" ", len(gutter)-2)+"| "), x.paint(bold+";32", marker.String()))
}

// lineOf returns line n (1-based) of src without its line break.
func lineOf(src []byte, n int) (string, bool) {
	if len(src) == 0 {
		return "", false
	}
	for i := 1; i < n; i++ {
		k := bytes.IndexByte(src, '\n')
		if k < 0 {
			return "", false
		}
		src = src[k+1:]
	}
	if len(src) == 0 {
		return "", false
	}
	if k := bytes.IndexByte(src, '\n'); k >= 0 {
		src = src[:k]
	}
	return strings.TrimSuffix(string(src), "\r"), true
}

// Statistics writes how many findings each rule gave, most first, and how
// many of them --fix can fix.
func Statistics(w io.Writer, res engine.Result) {
	type row struct {
		r            *rule.Rule
		count, fixes int
	}
	byID := map[string]*row{}
	var rows []*row
	for _, f := range res.Findings {
		r := byID[f.Rule.ID]
		if r == nil {
			r = &row{r: f.Rule}
			byID[f.Rule.ID] = r
			rows = append(rows, r)
		}
		r.count++
		if len(f.Fixes) > 0 {
			r.fixes++
		}
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].count != rows[j].count {
			return rows[i].count > rows[j].count
		}
		return rows[i].r.ID < rows[j].r.ID
	})
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "%6s  %-6s %-32s %s\n", "count", "rule", "name", "fixable")
	for _, r := range rows {
		fixable := ""
		if r.fixes > 0 {
			fixable = fmt.Sprint(r.fixes)
		}
		fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%6d  %-6s %-32s %s", r.count, r.r.ID, r.r.Name, fixable), " "))
	}
}

// summaryLine counts the findings by severity, the files they are in, the
// files checked (a file skipped with an error is not) and the errors, and
// what --fix can fix: "3 warnings, 1 error in 2 files (12 files checked,
// 1 error); 2 fixable with --fix".
func summaryLine(res engine.Result) string {
	counts := map[rule.Severity]int{}
	files := map[string]bool{}
	fixable := 0
	for _, f := range res.Findings {
		counts[f.Severity]++
		files[f.Path] = true
		if len(f.Fixes) > 0 {
			fixable++
		}
	}
	checked := plural(res.Stats.Files, "file") + " checked"
	if len(res.Findings) == 0 {
		s := "no findings (" + checked
		if n := len(res.Errors); n > 0 {
			s += ", " + plural(n, "error")
		}
		return s + ")"
	}
	var parts []string
	for _, sev := range []rule.Severity{rule.Error, rule.Warning, rule.Info} {
		if n := counts[sev]; n > 0 {
			parts = append(parts, plural(n, sev.String()))
		}
	}
	s := strings.Join(parts, ", ") + " in " + plural(len(files), "file") + " (" + checked
	if n := len(res.Errors); n > 0 {
		s += ", " + plural(n, "error")
	}
	s += ")"
	if fixable > 0 {
		s += fmt.Sprintf("; %d fixable with --fix", fixable)
	}
	return s
}

// plural is "1 file", "2 files"; "info" stays "info".
func plural(n int, word string) string {
	if n == 1 || word == "info" {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ANSI SGR sequences of the text format's colors.
const (
	bold   = "1"
	dim    = "2"
	red    = "31"
	yellow = "33"
	cyan   = "36"
)

var severityColor = map[rule.Severity]string{rule.Error: bold + ";" + red, rule.Warning: bold + ";" + yellow, rule.Info: bold + ";" + cyan}

// paint wraps s in an SGR sequence when colors are asked for.
func (x Extras) paint(sgr, s string) string {
	if !x.Color || sgr == "" {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

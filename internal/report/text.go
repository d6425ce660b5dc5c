package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// Text writes one line per finding to w, `path:line:col: ID message
// (name)`, a form terminals and editors turn into links, and one line per
// file error to errw, `path: error: message`. With a probe run each finding
// ends in [confirmed: VERDICT] or [not confirmed: ...], and the runs follow.
func Text(w, errw io.Writer, res engine.Result, x Extras) error {
	b := bufio.NewWriter(w)
	for _, f := range res.Findings {
		low := ""
		if f.LowConfidence {
			low = " [low confidence: the code around it did not parse cleanly]"
		}
		mark := ""
		if c := x.confirmation(f); c != nil {
			switch {
			case c.Status == diffrun.Confirmed && c.Source == "trace":
				mark = fmt.Sprintf(" [confirmed: %s]", c.Reason)
			case c.Status == diffrun.Confirmed:
				mark = fmt.Sprintf(" [confirmed: %s]", c.Verdict)
			case c.Status == diffrun.NotExercised:
				mark = fmt.Sprintf(" [not exercised: %s]", c.Reason)
			default:
				mark = fmt.Sprintf(" [not confirmed: %s]", c.Reason)
			}
		}
		place := fmt.Sprintf("%s:%d:%d:", f.Path, f.Start.Line, f.Start.Column)
		fmt.Fprintf(b, "%s %s %s %s%s%s\n", x.paint(bold, place), x.paint(severityColor[f.Severity], f.Rule.ID), f.Message, x.paint(dim, "("+f.Rule.Name+")"), low, mark)
		for _, r := range f.Related {
			fmt.Fprintf(b, "\t%s %s\n", x.paint(dim, fmt.Sprintf("%s:%d:%d:", r.Path, r.Start.Line, r.Start.Column)), r.Message)
		}
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

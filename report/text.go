package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/lazylint/lazylint/engine"
)

// Text writes one line per finding to w, `path:line:col: ID message
// (name)`, a form terminals and editors turn into links, and one line per
// file error to errw, `path: error: message`.
func Text(w, errw io.Writer, res engine.Result) error {
	b := bufio.NewWriter(w)
	for _, f := range res.Findings {
		low := ""
		if f.LowConfidence {
			low = " [low confidence: the code around it did not parse cleanly]"
		}
		fmt.Fprintf(b, "%s:%d:%d: %s %s (%s)%s\n", f.Path, f.Start.Line, f.Start.Column, f.Rule.ID, f.Message, f.Rule.Name, low)
		for _, r := range f.Related {
			fmt.Fprintf(b, "\t%s:%d:%d: %s\n", r.Path, r.Start.Line, r.Start.Column, r.Message)
		}
	}
	if err := b.Flush(); err != nil {
		return err
	}
	for _, e := range res.Errors {
		if _, err := fmt.Fprintf(errw, "%s: error: %s\n", e.Path, e.Message); err != nil {
			return err
		}
	}
	return nil
}

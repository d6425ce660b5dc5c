package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lazylint/lazylint/internal/engine"
)

// GitHub writes GitHub Actions workflow commands: one annotation per
// finding (::error or ::warning, ::notice for info) and per file error.
// Suppressed findings are left out.
func GitHub(w io.Writer, res engine.Result, x Extras) error {
	b := bufio.NewWriter(w)
	for _, f := range res.Findings {
		level := "warning"
		switch f.Severity.String() {
		case "error":
			level = "error"
		case "info":
			level = "notice"
		}
		msg := f.Message
		if c := x.confirmation(f); c != nil {
			msg += fmt.Sprintf(" [%s: %s]", c.Status, c.Verdict)
		}
		fmt.Fprintf(b, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n", level,
			ghProperty(f.Path), f.Start.Line, f.Start.Column, f.End.Line, f.End.Column,
			ghProperty(f.Rule.ID+" "+f.Rule.Name), ghData(msg))
	}
	for _, e := range res.Errors {
		fmt.Fprintf(b, "::error file=%s,title=lazylint::%s\n", ghProperty(e.Path), ghData(e.Message))
	}
	return b.Flush()
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

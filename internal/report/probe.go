package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// ProbeText writes a differential run for people: one line per run, the
// verdict, its reason and evidence.
func ProbeText(w io.Writer, rep *diffrun.Report) {
	fmt.Fprintf(w, "probe: %s\n", strings.Join(rep.Command, " "))
	for _, r := range rep.Runs {
		var end string
		switch {
		case r.TimedOut:
			end = "timed out, process group killed"
		case r.Signal != "":
			end = "killed by " + r.Signal
		default:
			end = fmt.Sprintf("exit %d", r.ExitCode)
		}
		var notes []string
		if r.OutOfMemory {
			notes = append(notes, "out of memory")
		}
		if r.LoadError {
			notes = append(notes, "load error")
		}
		note := ""
		if len(notes) > 0 {
			note = " (" + strings.Join(notes, ", ") + " in output)"
		}
		fmt.Fprintf(w, "  %-5s  %-32s %9.1f ms%s\n", r.Mode, end, r.WallMS, note)
	}
	fmt.Fprintf(w, "verdict: %s: %s\n", rep.Verdict, rep.Reason)
	for _, e := range rep.Evidence {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// Package report writes the result of a run in the output formats.
package report

import (
	"fmt"
	"io"
	"sort"

	"github.com/lazylint/lazylint/engine"
)

// Formats are the names of the output formats.
var Formats = []string{"text", "json"}

// Write writes res to w in the named format; formats without a place for
// file errors write them to errw.
func Write(w, errw io.Writer, format string, res engine.Result) error {
	switch format {
	case "text":
		return Text(w, errw, res)
	case "json":
		return JSON(w, res)
	}
	names := append([]string(nil), Formats...)
	sort.Strings(names)
	return fmt.Errorf("unknown format %q (want one of %v)", format, names)
}

// Package report writes the result of a run in the output formats.
package report

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/internal/rule"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// Formats are the names of the output formats.
var Formats = []string{"text", "concise", "json", "sarif", "github", "checkstyle", "gitlab", "junit"}

// Extras are what a run adds to the static result.
type Extras struct {
	// Probe is the differential run of `check --confirm`; with it every
	// finding is marked confirmed or not confirmed.
	Probe *diffrun.Report
	// Rules are every rule the tool has, for formats that describe them
	// (SARIF's rule list); nil: the rules of the findings.
	Rules []*rule.Rule
	// ToolVersion is lazylint's version, for formats that name the tool.
	ToolVersion string
	// Color asks the text format for ANSI colors.
	Color bool
	// Baseline, when a baseline file was used, counts what it hid.
	Baseline *BaselineStats
	// Evidence, when set, gives a finding's confirmation from a trace of
	// the run (probe trace); nil means the trace has nothing to say and
	// the program-level verdict decides.
	Evidence func(engine.Finding) *diffrun.Confirmation

	// Source returns the text of a finding's file (its path as in the
	// finding), for the text format's code frames; nil or a nil result
	// means no frame.
	Source func(path string) []byte
	// Width, when positive, wraps the text format's long lines to it (a
	// terminal's width; never in pipes).
	Width int
	// Concise asks the text format for one line per finding and note, no
	// code frames, no summary (the "concise" format).
	Concise bool
	// Statistics adds per-rule counts to the text format.
	Statistics bool
	// Root is the folder that formats with project-relative paths (SARIF's
	// %SRCROOT%, GitLab's paths) are relative to, and BaseDir the folder
	// the findings' relative paths are relative to (both absolute). Empty:
	// paths are written as they are.
	Root, BaseDir string
}

// BaselineStats count what a baseline did: the findings it accepted (not
// reported) and its entries that matched no finding (fixed since).
type BaselineStats struct {
	Known, Stale int
}

// confirmation is the finding's mark, or nil without a probe run.
func (x Extras) confirmation(f engine.Finding) *diffrun.Confirmation {
	if x.Probe == nil {
		return nil
	}
	c := diffrun.Confirm(f.Rule.ID, x.Probe)
	if x.Evidence != nil {
		// The trace decides, unless it finds nothing while the program's
		// output does (a hang leaves no kernel records to show the wait),
		// or the runs proved nothing (both modes failed alike): then only
		// a trace that saw the hazard happen counts.
		if e := x.Evidence(f); e != nil && (e.Status != diffrun.NotConfirmed || c.Status != diffrun.Confirmed) &&
			(x.Probe.Verdict.Exercised() || e.Status == diffrun.Confirmed) {
			e.Verdict = x.Probe.Verdict
			return e
		}
	}
	return &c
}

// rootRelative returns a finding's path relative to x.Root, with forward
// slashes, and true; or the absolute path and false when the file is
// outside the root (or no root is known: the path as it is, and true when
// it is relative).
func (x Extras) rootRelative(path string) (string, bool) {
	if x.Root == "" {
		return filepath.ToSlash(path), !filepath.IsAbs(path)
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(x.BaseDir, path)
	}
	rel, err := filepath.Rel(x.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs), false
	}
	return filepath.ToSlash(rel), true
}

// Write writes res to w in the named format; formats without a place for
// file errors write them to errw.
func Write(w, errw io.Writer, format string, res engine.Result, x Extras) error {
	switch format {
	case "text":
		return Text(w, errw, res, x)
	case "concise":
		x.Concise = true
		return Text(w, errw, res, x)
	case "json":
		return JSON(w, res, x)
	case "sarif":
		return SARIF(w, res, x)
	case "github":
		return GitHub(w, res, x)
	case "checkstyle":
		return Checkstyle(w, res, x)
	case "gitlab":
		return GitLab(w, res, x)
	case "junit":
		return JUnit(w, res, x)
	}
	names := append([]string(nil), Formats...)
	sort.Strings(names)
	return fmt.Errorf("unknown format %q (want one of %v)", format, names)
}

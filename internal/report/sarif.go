package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/suppress"
	"github.com/lazylint/lazylint/rules"
)

// FingerprintKey names lazylint's entry in a SARIF result's
// partialFingerprints: a hash of the rule, the path, the finding's line text
// (white space normalized) and its occurrence among findings with the same
// three, so that it survives code moving up or down.
const FingerprintKey = "lazylintContent/v1"

// sarifRules are the rules a SARIF run describes: every rule and LL000.
func sarifRules() []*rule.Rule {
	return append([]*rule.Rule{suppress.Rule}, rules.All...)
}

func sarifLevel(s rule.Severity) string {
	switch s.String() {
	case "error":
		return "error"
	case "info":
		return "note"
	}
	return "warning"
}

// SARIF writes the result as a SARIF 2.1.0 log with one run. Suppressed
// findings are results with an inSource suppression and its justification.
func SARIF(w io.Writer, res engine.Result, x Extras) error {
	rep := sarif.NewReport()
	run := sarif.NewRunWithInformationURI("lazylint", "https://github.com/lazylint/lazylint")
	if x.ToolVersion != "" {
		run.Tool.Driver.Version = &x.ToolVersion
	}
	run.WithColumnKind("unicodeCodePoints")
	index := map[string]int{}
	for i, r := range sarifRules() {
		d := run.AddRule(r.ID)
		d.Name = &r.Name
		d.ShortDescription = sarif.NewMultiformatMessageString().WithText(r.Summary)
		d.FullDescription = sarif.NewMultiformatMessageString().WithText(r.Summary)
		d.Help = sarif.NewMultiformatMessageString().WithText(r.Summary).WithMarkdown(r.Doc)
		uri := r.DocURL()
		d.HelpURI = &uri
		d.DefaultConfiguration = sarif.NewReportingConfiguration().WithLevel(sarifLevel(r.Severity))
		index[r.ID] = i
	}
	seen := map[string]int{}
	add := func(f engine.Finding) {
		result := sarif.NewRuleResult(f.Rule.ID)
		if i, ok := index[f.Rule.ID]; ok {
			result.WithRuleIndex(i)
		}
		result.WithLevel(sarifLevel(f.Severity))
		msg := f.Message
		if c := x.confirmation(f); c != nil {
			msg += fmt.Sprintf(" [%s: %s]", c.Status, c.Verdict)
			result.WithProperties(sarif.NewPropertyBag().Add("confirmation", c))
		}
		result.WithMessage(sarif.NewTextMessage(msg))
		result.AddLocation(sarifLocation(f.Path, f.Start.Line, f.Start.Column, f.End.Line, f.End.Column, ""))
		for _, r := range f.Related {
			result.RelatedLocations = append(result.RelatedLocations, sarifLocation(r.Path, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, r.Message))
		}
		key := f.Rule.ID + "\x00" + filepath.ToSlash(f.Path) + "\x00" + f.Snippet
		seen[key]++
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, seen[key])))
		result.WithPartialFingerprints(map[string]string{FingerprintKey: hex.EncodeToString(sum[:16])})
		if s := f.Suppression; s != nil {
			sup := sarif.NewSuppression().WithKind("inSource").WithStatus("accepted")
			if s.Justification != "" {
				sup.WithJustification(s.Justification)
			}
			sup.WithLocation(sarifLocation(f.Path, s.Line, 1, s.Line, 1, s.Directive))
			result.AddSuppression(sup)
		}
		run.AddResult(result)
	}
	for _, f := range res.Findings {
		add(f)
	}
	for _, f := range res.Suppressed {
		add(f)
	}
	inv := sarif.NewInvocation().WithExecutionSuccessful(len(res.Errors) == 0)
	for _, e := range res.Errors {
		n := sarif.NewNotification().WithLevel("error").WithMessage(sarif.NewTextMessage(e.Path + ": " + e.Message))
		n.WithLocations([]*sarif.Location{sarifLocation(e.Path, 0, 0, 0, 0, "")})
		inv.AddToolExecutionNotification(n)
	}
	run.AddInvocation(inv)
	rep.AddRun(run)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// sarifLocation is a file region; line 0 means the whole file.
func sarifLocation(path string, line, col, endLine, endCol int, message string) *sarif.Location {
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(filepath.ToSlash(path)))
	if line > 0 {
		region := sarif.NewRegion().WithStartLine(line).WithStartColumn(col)
		if endLine >= line {
			region.WithEndLine(endLine)
			if endCol > 0 {
				region.WithEndColumn(endCol)
			}
		}
		phys.WithRegion(region)
	}
	loc := sarif.NewLocationWithPhysicalLocation(phys)
	if message != "" {
		loc.WithMessage(sarif.NewTextMessage(message))
	}
	return loc
}

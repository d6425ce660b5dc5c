package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/suppress"
)

// FingerprintKey names lazylint's entry in a SARIF result's
// partialFingerprints: a hash of the rule, the path, the finding's line text
// (white space normalized) and its occurrence among findings with the same
// three, so that it survives code moving up or down.
const FingerprintKey = "lazylintContent/v1"

// fingerprinter gives findings their content fingerprints, in order: a
// hash of the rule, the path, the finding's line text (white space
// normalized) and its occurrence among findings with the same three.
type fingerprinter map[string]int

func newFingerprinter() fingerprinter { return fingerprinter{} }

func (seen fingerprinter) next(f engine.Finding) string {
	key := f.Rule.ID + "\x00" + filepath.ToSlash(f.Path) + "\x00" + f.Snippet
	seen[key]++
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, seen[key])))
	return hex.EncodeToString(sum[:16])
}

// sarifRules are the rules a SARIF run describes: every rule the tool has
// (or, not told, those of the findings) and LL000.
func sarifRules(res engine.Result, x Extras) []*rule.Rule {
	all := x.Rules
	if all == nil {
		seen := map[*rule.Rule]bool{suppress.Rule: true}
		for _, fs := range [][]engine.Finding{res.Findings, res.Suppressed} {
			for _, f := range fs {
				if !seen[f.Rule] {
					seen[f.Rule] = true
					all = append(all, f.Rule)
				}
			}
		}
		rule.SortRules(all)
	}
	return append([]*rule.Rule{suppress.Rule}, all...)
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
	for i, r := range sarifRules(res, x) {
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
	prints := newFingerprinter()
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
		result.AddLocation(x.sarifLocation(f.Path, f.Start.Line, f.Start.Column, f.End.Line, f.End.Column, ""))
		for _, r := range f.Related {
			result.RelatedLocations = append(result.RelatedLocations, x.sarifLocation(r.Path, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column, r.Message))
		}
		result.WithPartialFingerprints(map[string]string{FingerprintKey: prints.next(f)})
		if s := f.Suppression; s != nil {
			sup := sarif.NewSuppression().WithKind("inSource").WithStatus("accepted")
			if s.Justification != "" {
				sup.WithJustification(s.Justification)
			}
			sup.WithLocation(x.sarifLocation(f.Path, s.Line, 1, s.Line, 1, s.Directive))
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
		n.WithLocations([]*sarif.Location{x.sarifLocation(e.Path, 0, 0, 0, 0, "")})
		inv.AddToolExecutionNotification(n)
	}
	run.AddInvocation(inv)
	if x.Root != "" {
		root := x.Root
		if !strings.HasSuffix(root, string(filepath.Separator)) {
			root += string(filepath.Separator)
		}
		run.OriginalUriBaseIds = map[string]sarif.ArtifactLocation{srcRoot: {URI: ptr(fileURI(root))}}
	}
	rep.AddRun(run)
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	// go-sarif writes the schema's "not given" defaults (-1 for ids,
	// indexes, offsets, ranks) as values; consumers take them for real
	// ones, so they go. In SARIF 2.1.0 -1 is never a meaningful value.
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // <, > and & as written: C++ templates and && stay readable
	return enc.Encode(dropUnset(doc))
}

// srcRoot is the uriBaseId of paths inside the project's root.
const srcRoot = "%SRCROOT%"

func ptr[T any](v T) *T { return &v }

// dropUnset removes, recursively, the members whose value is -1.
func dropUnset(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, m := range v {
			if n, ok := m.(float64); ok && n == -1 {
				delete(v, k)
				continue
			}
			v[k] = dropUnset(m)
		}
	case []any:
		for i, m := range v {
			v[i] = dropUnset(m)
		}
	}
	return v
}

// artifactLocation is a file's SARIF location: a percent-encoded URI
// relative to %SRCROOT% for files inside the root, an absolute file URI
// for the others.
func (x Extras) artifactLocation(path string) *sarif.ArtifactLocation {
	p, inside := x.rootRelative(path)
	loc := sarif.NewArtifactLocation()
	if !inside {
		return loc.WithURI(fileURI(p))
	}
	loc.WithURI(relativeURI(p))
	if x.Root != "" {
		loc.WithURIBaseID(srcRoot)
	}
	return loc
}

// relativeURI percent-encodes a relative slash path as a URI reference:
// spaces, '#', '%', '?' and non-ASCII bytes are escaped, and a first
// segment with a ':' gets "./" so that it is not read as a scheme.
func relativeURI(p string) string {
	u := strings.ReplaceAll((&url.URL{Path: p}).EscapedPath(), "?", "%3F")
	if first, _, _ := strings.Cut(u, "/"); strings.Contains(first, ":") {
		u = "./" + u
	}
	return u
}

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// sarifLocation is a file region; line 0 means the whole file.
func (x Extras) sarifLocation(path string, line, col, endLine, endCol int, message string) *sarif.Location {
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(x.artifactLocation(path))
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

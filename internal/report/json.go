package report

import (
	"encoding/json"
	"io"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/runtime-probe/diffrun"
)

// JSONVersion is the version of the JSON document's shape.
const JSONVersion = 1

type jsonDoc struct {
	Version  int           `json:"version"`
	Findings []jsonFinding `json:"findings"`
	// Suppressed are findings silenced by comments, each with its
	// "suppression".
	Suppressed []jsonFinding `json:"suppressed"`
	Errors     []jsonError   `json:"errors"`
	Stats      jsonStats     `json:"stats"`
	// Probe is the differential run of check --confirm.
	Probe *diffrun.Report `json:"probe,omitempty"`
}

// jsonSpan is a located range: 1-based lines, columns in characters.
type jsonSpan struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
}

func span(path string, start, end cudaparse.Position) jsonSpan {
	return jsonSpan{Path: path, Line: start.Line, Column: start.Column, EndLine: end.Line, EndColumn: end.Column}
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	jsonSpan
	Message       string        `json:"message"`
	LowConfidence bool          `json:"low_confidence,omitempty"`
	Related       []jsonRelated `json:"related,omitempty"`
	// Confirmation is set by check --confirm.
	Confirmation *diffrun.Confirmation `json:"confirmation,omitempty"`
	Suppression  *jsonSuppression      `json:"suppression,omitempty"`
}

type jsonSuppression struct {
	Kind          string `json:"kind"`
	Directive     string `json:"directive"`
	Line          int    `json:"line"`
	Justification string `json:"justification,omitempty"`
}

type jsonRelated struct {
	jsonSpan
	Message string `json:"message"`
}

type jsonError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

type jsonStats struct {
	Files      int   `json:"files"`
	Bytes      int64 `json:"bytes"`
	Parsed     int   `json:"parsed"`
	DurationMS int64 `json:"duration_ms"`
	// Excluded counts files and folders a config left out; Baselined the
	// findings a baseline hid, BaselineStale its entries that matched none.
	Excluded      int  `json:"excluded"`
	Cached        int  `json:"cached"`
	Baselined     *int `json:"baselined,omitempty"`
	BaselineStale *int `json:"baseline_stale,omitempty"`
	// Project-wide analysis: function definitions linked, files parsed
	// only for what callers of their functions need, files checked again
	// with the project's facts.
	ProjectFunctions int `json:"project_functions"`
	LinkParsed       int `json:"link_parsed"`
	Rechecked        int `json:"rechecked"`
}

// JSON writes the result as one JSON object (see README, "Output formats").
func JSON(w io.Writer, res engine.Result, x Extras) error {
	doc := jsonDoc{
		Version:    JSONVersion,
		Findings:   []jsonFinding{},
		Suppressed: []jsonFinding{},
		Errors:     []jsonError{},
		Stats: jsonStats{
			Files:      res.Stats.Files,
			Bytes:      res.Stats.Bytes,
			Parsed:     res.Stats.Parsed,
			DurationMS: res.Stats.Duration.Milliseconds(),
			Excluded:   res.Stats.Excluded,
			Cached:     res.Stats.Cached,

			ProjectFunctions: res.Stats.ProjectFunctions,
			LinkParsed:       res.Stats.LinkParsed,
			Rechecked:        res.Stats.Rechecked,
		},
		Probe: x.Probe,
	}
	if x.Baseline != nil {
		doc.Stats.Baselined, doc.Stats.BaselineStale = &x.Baseline.Known, &x.Baseline.Stale
	}
	for _, f := range res.Findings {
		doc.Findings = append(doc.Findings, toJSONFinding(f, x))
	}
	for _, f := range res.Suppressed {
		jf := toJSONFinding(f, x)
		jf.Suppression = &jsonSuppression{Kind: f.Suppression.Kind, Directive: f.Suppression.Directive, Line: f.Suppression.Line, Justification: f.Suppression.Justification}
		doc.Suppressed = append(doc.Suppressed, jf)
	}
	for _, e := range res.Errors {
		doc.Errors = append(doc.Errors, jsonError{Path: e.Path, Message: e.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // <, > and & as written: C++ templates and && stay readable
	return enc.Encode(doc)
}

func toJSONFinding(f engine.Finding, x Extras) jsonFinding {
	jf := jsonFinding{
		Rule: f.Rule.ID, Name: f.Rule.Name, Severity: f.Severity.String(),
		jsonSpan: span(f.Path, f.Start, f.End),
		Message:  f.Message, LowConfidence: f.LowConfidence,
		Confirmation: x.confirmation(f),
	}
	for _, r := range f.Related {
		jf.Related = append(jf.Related, jsonRelated{jsonSpan: span(r.Path, r.Start, r.End), Message: r.Message})
	}
	return jf
}

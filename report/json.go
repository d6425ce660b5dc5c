package report

import (
	"encoding/json"
	"io"

	"github.com/lazylint/lazylint/engine"
)

// JSONVersion is the version of the JSON document's shape.
const JSONVersion = 1

type jsonDoc struct {
	Version  int           `json:"version"`
	Findings []jsonFinding `json:"findings"`
	Errors   []jsonError   `json:"errors"`
	Stats    jsonStats     `json:"stats"`
}

type jsonFinding struct {
	Rule          string        `json:"rule"`
	Name          string        `json:"name"`
	Severity      string        `json:"severity"`
	Path          string        `json:"path"`
	Line          int           `json:"line"`
	Column        int           `json:"column"`
	EndLine       int           `json:"end_line"`
	EndColumn     int           `json:"end_column"`
	Message       string        `json:"message"`
	LowConfidence bool          `json:"low_confidence,omitempty"`
	Related       []jsonRelated `json:"related,omitempty"`
}

type jsonRelated struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Message   string `json:"message"`
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
}

// JSON writes the result as one JSON object (see README, "Output formats").
func JSON(w io.Writer, res engine.Result) error {
	doc := jsonDoc{
		Version:  JSONVersion,
		Findings: []jsonFinding{},
		Errors:   []jsonError{},
		Stats: jsonStats{
			Files:      res.Stats.Files,
			Bytes:      res.Stats.Bytes,
			Parsed:     res.Stats.Parsed,
			DurationMS: res.Stats.Duration.Milliseconds(),
		},
	}
	for _, f := range res.Findings {
		jf := jsonFinding{
			Rule: f.Rule.ID, Name: f.Rule.Name, Severity: f.Rule.Severity.String(),
			Path: f.Path, Line: f.Start.Line, Column: f.Start.Column, EndLine: f.End.Line, EndColumn: f.End.Column,
			Message: f.Message, LowConfidence: f.LowConfidence,
		}
		for _, r := range f.Related {
			jf.Related = append(jf.Related, jsonRelated{Path: r.Path, Line: r.Start.Line, Column: r.Start.Column, EndLine: r.End.Line, EndColumn: r.End.Column, Message: r.Message})
		}
		doc.Findings = append(doc.Findings, jf)
	}
	for _, e := range res.Errors {
		doc.Errors = append(doc.Errors, jsonError{Path: e.Path, Message: e.Message})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

package report

import (
	"encoding/xml"
	"io"

	"github.com/lazylint/lazylint/internal/engine"
)

type checkstyleDoc struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Version string           `xml:"version,attr"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// Checkstyle writes the findings and file errors as Checkstyle XML, one
// <file> per path in the findings' order. Suppressed findings are left out.
func Checkstyle(w io.Writer, res engine.Result, _ Extras) error {
	doc := checkstyleDoc{Version: "4.3"}
	file := groupByPath(&doc.Files, func(path string) checkstyleFile { return checkstyleFile{Name: path} })
	for _, f := range res.Findings {
		sev := f.Severity.String()
		fl := file(f.Path)
		fl.Errors = append(fl.Errors, checkstyleError{Line: f.Start.Line, Column: f.Start.Column, Severity: sev, Message: f.Message, Source: "lazylint." + f.Rule.ID})
	}
	for _, e := range res.Errors {
		fl := file(e.Path)
		fl.Errors = append(fl.Errors, checkstyleError{Severity: "error", Message: e.Message, Source: "lazylint"})
	}
	return writeXML(w, doc)
}

// writeXML writes doc as an indented XML document with its header.
func writeXML(w io.Writer, doc any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// groupByPath returns a function giving the group of a path in *groups,
// appending a new one (made by newGroup) the first time a path is asked
// for: groups stay in the order their paths first come.
func groupByPath[T any](groups *[]T, newGroup func(path string) T) func(path string) *T {
	byPath := map[string]int{}
	return func(path string) *T {
		i, ok := byPath[path]
		if !ok {
			i = len(*groups)
			byPath[path] = i
			*groups = append(*groups, newGroup(path))
		}
		return &(*groups)[i]
	}
}

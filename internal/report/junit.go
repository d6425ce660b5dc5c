package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/lazylint/lazylint/internal/engine"
)

// The JUnit XML shape that CI systems read (GitLab's artifacts:reports:junit,
// Jenkins, Azure, CircleCI): testsuites > testsuite > testcase, a failure
// or error element in a failed case.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnit writes the findings as JUnit XML: one test suite per file with
// findings or errors, one failed test case per finding (its name the rule
// and place, its failure text the finding with its notes) and one errored
// case per file that could not be checked. No findings: an empty report,
// which CI systems read as nothing failed. Suppressed findings are left out.
func JUnit(w io.Writer, res engine.Result, x Extras) error {
	doc := junitSuites{Name: "lazylint"}
	suite := groupByPath(&doc.Suites, func(path string) junitSuite { return junitSuite{Name: path} })
	for _, f := range res.Findings {
		path, _ := x.rootRelative(f.Path)
		var text strings.Builder
		fmt.Fprintf(&text, "%s:%d:%d: %s: %s [%s]\n", path, f.Start.Line, f.Start.Column, f.Severity, oneLine(f.Message), f.Rule.ID)
		for _, r := range f.Related {
			rpath, _ := x.rootRelative(r.Path)
			fmt.Fprintf(&text, "%s:%d:%d: note: %s\n", rpath, r.Start.Line, r.Start.Column, oneLine(r.Message))
		}
		fmt.Fprintf(&text, "%s %s: %s\n", f.Rule.ID, f.Rule.Name, f.Rule.DocURL())
		s := suite(path)
		s.Tests++
		s.Failures++
		s.Cases = append(s.Cases, junitCase{
			Name:      fmt.Sprintf("%s %s at %s:%d:%d", f.Rule.ID, f.Rule.Name, path, f.Start.Line, f.Start.Column),
			ClassName: "lazylint." + f.Rule.ID,
			File:      path,
			Line:      f.Start.Line,
			Failure:   &junitProblem{Message: oneLine(f.Message), Type: f.Severity.String(), Text: text.String()},
		})
	}
	for _, e := range res.Errors {
		path, _ := x.rootRelative(e.Path)
		s := suite(path)
		s.Tests++
		s.Errors++
		s.Cases = append(s.Cases, junitCase{
			Name:      "not checked: " + path,
			ClassName: "lazylint",
			File:      path,
			Error:     &junitProblem{Message: e.Message, Type: "file-error", Text: path + ": error: " + e.Message},
		})
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
	}
	return writeXML(w, doc)
}

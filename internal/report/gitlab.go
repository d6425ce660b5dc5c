package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"

	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
)

// gitlabIssue is one entry of a GitLab Code Quality report (the Code
// Climate issue subset GitLab reads: description, check_name, fingerprint,
// severity, location.path and location.lines.begin are required).
type gitlabIssue struct {
	Type        string         `json:"type"`
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Categories  []string       `json:"categories"`
	Location    gitlabLocation `json:"location"`
	Engine      string         `json:"engine_name"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// gitlabSeverity maps a severity onto GitLab's scale (info, minor, major,
// critical, blocker).
func gitlabSeverity(s rule.Severity) string {
	switch s {
	case rule.Error:
		return "critical"
	case rule.Info:
		return "info"
	}
	return "major"
}

// GitLab writes the findings as a GitLab Code Quality report (a JSON
// array; artifacts:reports:codequality), paths relative to the project's
// root. A file that could not be checked is an issue of its own, so the
// merge request shows it. Suppressed findings are left out.
func GitLab(w io.Writer, res engine.Result, x Extras) error {
	issues := []gitlabIssue{} // [] rather than null: GitLab wants an array
	prints := newFingerprinter()
	for _, f := range res.Findings {
		path, _ := x.rootRelative(f.Path)
		issues = append(issues, gitlabIssue{
			Type:        "issue",
			Description: f.Rule.ID + " " + oneLine(f.Message),
			CheckName:   f.Rule.ID,
			Fingerprint: prints.next(f),
			Severity:    gitlabSeverity(f.Severity),
			Categories:  []string{"Bug Risk"},
			Location:    gitlabLocation{Path: path, Lines: gitlabLines{Begin: f.Start.Line, End: max(f.End.Line, f.Start.Line)}},
			Engine:      "lazylint",
		})
	}
	for _, e := range res.Errors {
		path, _ := x.rootRelative(e.Path)
		sum := sha256.Sum256([]byte("file-error\x00" + path + "\x00" + e.Message))
		issues = append(issues, gitlabIssue{
			Type:        "issue",
			Description: "not checked: " + e.Message,
			CheckName:   "file-error",
			Fingerprint: hex.EncodeToString(sum[:16]),
			Severity:    "major",
			Categories:  []string{"Bug Risk"},
			Location:    gitlabLocation{Path: path, Lines: gitlabLines{Begin: 1}},
			Engine:      "lazylint",
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // <, > and & as written: C++ templates and && stay readable
	return enc.Encode(issues)
}

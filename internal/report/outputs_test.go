package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules"
)

// officialSARIFSchema is the OASIS SARIF 2.1.0 schema (errata 01) as the
// go-sarif module ships it in its source, read from the module cache so
// that no copy of it lives in this repository.
func officialSARIFSchema(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/owenrumney/go-sarif/v3").Output()
	if err != nil {
		t.Fatalf("locating go-sarif: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "pkg", "report", "v210", "sarif", "schema.go"))
	if err != nil {
		t.Fatal(err)
	}
	start, end := bytes.IndexByte(src, '`'), bytes.LastIndexByte(src, '`')
	if start < 0 || end <= start || !bytes.Contains(src[start:end], []byte("sarif-schema-2.1.0.json")) {
		t.Fatal("go-sarif's schema.go no longer holds the 2.1.0 schema as a raw string")
	}
	return string(src[start+1 : end])
}

// awkward is a result with paths that need percent-encoding and a file
// outside the root, as from a run in /repo/sub.
func awkward() (engine.Result, Extras) {
	inside := finding("LL001", filepath.Join("src", "a b#c%dé?.cu"), 4, "cudaMalloc(p, free_b);")
	inside.Related = []engine.Related{{Path: filepath.Join("src", "a b#c%dé?.cu"), Start: cudaparse.Position{Line: 2, Column: 3}, End: cudaparse.Position{Line: 2, Column: 9}, Message: "memory queried here"}}
	colon := finding("LL002", "c:d.cu", 7, "k<<<1, 1>>>();")
	outside := finding("LL003", filepath.Join("..", "..", "elsewhere", "spin.cu"), 7, "while (*flag == 0) {")
	res := engine.Result{Findings: []engine.Finding{inside, colon, outside}, Errors: []engine.FileError{{Path: "blob.cu", Message: "binary file"}}}
	res.Stats.Files = 5
	return res, Extras{Root: filepath.FromSlash("/repo"), BaseDir: filepath.FromSlash("/repo/sub")}
}

// The SARIF log, as written (not as go-sarif reads it back), validates
// against the official schema; URIs are percent-encoded and relative to
// %SRCROOT% inside the root, absolute file URIs outside it; no -1
// placeholders are left.
func TestSARIFAgainstTheOfficialSchema(t *testing.T) {
	res, x := awkward()
	var out bytes.Buffer
	if err := SARIF(&out, res, x); err != nil {
		t.Fatal(err)
	}
	result, err := gojsonschema.Validate(gojsonschema.NewStringLoader(officialSARIFSchema(t)), gojsonschema.NewBytesLoader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range result.Errors() {
		t.Errorf("schema: %s", e)
	}
	if bytes.Contains(out.Bytes(), []byte(": -1")) {
		t.Errorf("a -1 placeholder is left:\n%s", out.String())
	}
	var doc struct {
		Runs []struct {
			OriginalURIBaseIDs map[string]struct{ URI string } `json:"originalUriBaseIds"`
			Results            []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	run := doc.Runs[0]
	if got := run.OriginalURIBaseIDs["%SRCROOT%"].URI; got != "file:///repo/" {
		t.Errorf("originalUriBaseIds %%SRCROOT%% = %q", got)
	}
	want := [][2]string{
		{"sub/src/a%20b%23c%25d%C3%A9%3F.cu", "%SRCROOT%"},
		{"sub/c:d.cu", "%SRCROOT%"},
		{"file:///elsewhere/spin.cu", ""},
	}
	if filepath.Separator == '\\' {
		t.Skip("URIs of this test are written for slash paths")
	}
	for i, w := range want {
		loc := run.Results[i].Locations[0].PhysicalLocation.ArtifactLocation
		if loc.URI != w[0] || loc.URIBaseID != w[1] {
			t.Errorf("result %d: uri %q base %q, want %q %q", i, loc.URI, loc.URIBaseID, w[0], w[1])
		}
	}
	// The first segment "sub" makes the colon harmless already; a
	// top-level "c:d.cu" must not read as scheme "c".
	if got := relativeURI("c:d.cu"); got != "./c:d.cu" {
		t.Errorf("relativeURI(c:d.cu) = %q", got)
	}
}

// GitLab Code Quality: a JSON array whose issues have the fields GitLab's
// documentation requires, a severity from its scale, paths relative to the
// project root and fingerprints unique per issue.
func TestGitLabCodeQuality(t *testing.T) {
	res, x := awkward()
	var out bytes.Buffer
	if err := GitLab(&out, res, x); err != nil {
		t.Fatal(err)
	}
	var issues []map[string]any
	if err := json.Unmarshal(out.Bytes(), &issues); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(issues) != 4 {
		t.Fatalf("%d issues:\n%s", len(issues), out.String())
	}
	prints := map[string]bool{}
	scale := map[string]bool{"info": true, "minor": true, "major": true, "critical": true, "blocker": true}
	for i, is := range issues {
		for _, key := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, _ := is[key].(string); s == "" {
				t.Errorf("issue %d: no %s", i, key)
			}
		}
		if sev, _ := is["severity"].(string); !scale[sev] {
			t.Errorf("issue %d: severity %v is not on GitLab's scale", i, is["severity"])
		}
		fp, _ := is["fingerprint"].(string)
		if prints[fp] {
			t.Errorf("issue %d: fingerprint %s repeated", i, fp)
		}
		prints[fp] = true
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		if p, _ := loc["path"].(string); p == "" || lines["begin"] == nil {
			t.Errorf("issue %d: location %v", i, loc)
		}
	}
	if loc, _ := issues[0]["location"].(map[string]any); loc["path"] != "sub/src/a b#c%dé?.cu" {
		t.Errorf("path %q, want it relative to the root", loc["path"])
	}
	if issues[2]["severity"] != "critical" || issues[0]["severity"] != "major" {
		t.Errorf("severities %v %v", issues[0]["severity"], issues[2]["severity"])
	}
	out.Reset()
	if err := GitLab(&out, engine.Result{}, x); err != nil || strings.TrimSpace(out.String()) != "[]" {
		t.Errorf("no findings: %q, %v", out.String(), err)
	}
}

// JUnit: the testsuites > testsuite > testcase shape CI systems read, one
// failed case per finding and an errored one per file not checked, with
// counts that add up.
func TestJUnit(t *testing.T) {
	res, x := awkward()
	var out bytes.Buffer
	if err := JUnit(&out, res, x); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if doc.Tests != 4 || doc.Failures != 3 || doc.Errors != 1 || len(doc.Suites) != 4 {
		t.Fatalf("counts %d/%d/%d in %d suites:\n%s", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites), out.String())
	}
	c := doc.Suites[0].Cases[0]
	if c.Name == "" || c.ClassName != "lazylint.LL001" || c.Failure == nil || c.Failure.Type != "warning" ||
		!strings.Contains(c.Failure.Text, "sub/src/a b#c%dé?.cu:2:3: note: memory queried here") {
		t.Errorf("first case %+v", c)
	}
	if e := doc.Suites[3].Cases[0]; e.Error == nil || e.Failure != nil || e.Error.Message != "binary file" {
		t.Errorf("file error case %+v", e)
	}
}

// frameSource serves one file's text to the text report.
func frameSource(path, text string) func(string) []byte {
	return func(p string) []byte {
		if p == path {
			return []byte(text)
		}
		return nil
	}
}

// The text report: gcc's form, a code frame whose caret sits under the
// finding's column (tabs kept, characters counted, CR dropped), notes,
// the rule's doc line and a summary.
func TestTextFramesAndSummary(t *testing.T) {
	src := "int x;\r\n\tµµ cudaMalloc(p, free_b);\r\n"
	f := finding("LL001", "a.cu", 2, "")
	f.Start, f.End = cudaparse.Position{Line: 2, Column: 5}, cudaparse.Position{Line: 2, Column: 15}
	f.Message = "takes it all"
	f.Fixes = []rule.Fix{{Message: "fix"}}
	f.Related = []engine.Related{{Path: "a.cu", Start: cudaparse.Position{Line: 1, Column: 1}, End: cudaparse.Position{Line: 9, Column: 1}, Message: "here"}}
	g := finding("LL008", "b.cu", 1, "")
	g.Severity = rule.Info
	g.Message = "info"
	res := engine.Result{Findings: []engine.Finding{f, g}}
	res.Stats.Files = 3
	var out bytes.Buffer
	if err := Text(&out, &bytes.Buffer{}, res, Extras{Source: frameSource("a.cu", src), Statistics: true}); err != nil {
		t.Fatal(err)
	}
	want := `a.cu:2:5: warning: takes it all [LL001]
    2 | 	µµ cudaMalloc(p, free_b);
      | 	   ^~~~~~~~~~
a.cu:1:1: note: here
    1 | int x;
      | ^~~~~~
  = LL001 whole-vram-allocation: ` + rules.ByID("LL001").DocURL() + `
b.cu:1:3: info: info [LL008]
  = LL008 ` + rules.ByID("LL008").Name + `: ` + rules.ByID("LL008").DocURL() + `
 count  rule   name                             fixable
     1  LL001  whole-vram-allocation            1
     1  LL008  ` + rules.ByID("LL008").Name + `
1 warning, 1 info in 2 files (3 files checked); 1 fixable with --fix
`
	if out.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	if err := Text(&out, &bytes.Buffer{}, res, Extras{Source: frameSource("a.cu", src), Concise: true}); err != nil {
		t.Fatal(err)
	}
	if want := "a.cu:2:5: warning: takes it all [LL001]\na.cu:1:1: note: here\nb.cu:1:3: info: info [LL008]\n"; out.String() != want {
		t.Errorf("concise:\n%s", out.String())
	}

	out.Reset()
	empty := engine.Result{Errors: []engine.FileError{{Path: "x.cu", Message: "binary file"}}}
	empty.Stats.Files = 1
	if err := Text(&out, &bytes.Buffer{}, empty, Extras{}); err != nil || out.String() != "no findings (1 file checked, 1 error)\n" {
		t.Errorf("no findings: %q, %v", out.String(), err)
	}
}

// On a terminal long lines wrap at spaces to its width, the location and
// severity whole, continuation lines indented; a message's line breaks
// never start a line of their own.
func TestTextWraps(t *testing.T) {
	f := finding("LL002", "bench.cu", 3, "")
	f.Message = strings.Repeat("word ", 30) + "end\nnext"
	var out bytes.Buffer
	if err := Text(&out, &bytes.Buffer{}, engine.Result{Findings: []engine.Finding{f}}, Extras{Width: 60, Concise: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "bench.cu:3:3: warning: word") || !strings.HasSuffix(lines[len(lines)-1], "end next [LL002]") {
		t.Fatalf("wrapped:\n%s", out.String())
	}
	for _, l := range lines {
		if len(l) > 60 {
			t.Errorf("line over 60 columns: %q", l)
		}
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "    ") {
			t.Errorf("continuation not indented: %q", l)
		}
	}
}

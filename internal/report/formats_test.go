package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/engine"
	"github.com/lazylint/lazylint/rules"
)

func finding(id, path string, line int, snippet string) engine.Finding {
	f := engine.Finding{Path: path, Start: cudaparse.Position{Line: line, Column: 3}, End: cudaparse.Position{Line: line, Column: 13}, Snippet: snippet}
	f.Rule = rules.ByID(id)
	f.Severity = f.Rule.Severity
	f.Message = id + " message, with: commas\nand a newline"
	return f
}

func sample(shift int) engine.Result {
	suppressed := finding("LL002", "src/bench.cu", 20+shift, "k<<<1, 1>>>();")
	suppressed.Suppression = &engine.Suppression{Kind: "lazylint:ignore", Directive: "lazylint:ignore LL002 warmed up by the caller", Line: 20 + shift, Justification: "warmed up by the caller"}
	return engine.Result{
		Findings: []engine.Finding{
			finding("LL001", "src/arena.cu", 4+shift, "cudaMalloc(p, free_b);"),
			finding("LL001", "src/arena.cu", 9+shift, "cudaMalloc(p, free_b);"),
			finding("LL003", "src/spin.cu", 7, "while (*flag == 0) {"),
		},
		Suppressed: []engine.Finding{suppressed},
		Errors:     []engine.FileError{{Path: "blob.cu", Message: "binary file"}},
	}
}

func TestSARIFValidates(t *testing.T) {
	var out bytes.Buffer
	if err := SARIF(&out, sample(0), Extras{Rules: rules.All}); err != nil {
		t.Fatal(err)
	}
	rep, err := sarif.FromBytes(out.Bytes(), sarif.WithStrictValidation())
	if err != nil {
		t.Fatalf("reading back: %v", err)
	}
	if err := rep.Validate(); err != nil {
		t.Fatalf("schema: %v\n%s", err, out.String())
	}
	run := rep.Runs[0]
	if len(run.Results) != 4 || len(run.Tool.Driver.Rules) != len(rules.All)+1 {
		t.Fatalf("%d results, %d rules", len(run.Results), len(run.Tool.Driver.Rules))
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.HelpURI == nil || !strings.HasSuffix(*r.HelpURI, *r.ID+".md") || r.Help == nil || r.Help.Markdown == nil || *r.Help.Markdown == "" {
			t.Errorf("rule %s lacks help or its URI", *r.ID)
		}
	}
	res := run.Results[0]
	region := res.Locations[0].PhysicalLocation.Region
	if *res.RuleID != "LL001" || *region.StartLine != 4 || *region.StartColumn != 3 || *region.EndColumn != 13 {
		t.Errorf("first result %+v, region %+v", res, region)
	}
	last := run.Results[3]
	if len(last.Suppressions) != 1 || *last.Suppressions[0].Justification != "warmed up by the caller" || *last.Suppressions[0].Kind != "inSource" {
		t.Errorf("suppressed result: %+v", last.Suppressions)
	}
	if !strings.Contains(out.String(), `"columnKind": "unicodeCodePoints"`) {
		t.Error("columnKind missing")
	}
}

// Fingerprints depend on content, not lines: moving code keeps them, two
// identical lines in one file get different ones.
func TestFingerprintsSurviveMoves(t *testing.T) {
	prints := func(shift int) []string {
		var out bytes.Buffer
		if err := SARIF(&out, sample(shift), Extras{}); err != nil {
			t.Fatal(err)
		}
		rep, err := sarif.FromBytes(out.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		var fps []string
		for _, r := range rep.Runs[0].Results {
			fps = append(fps, r.PartialFingerprints[FingerprintKey])
		}
		return fps
	}
	a, b := prints(0), prints(30)
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("fingerprints changed when code moved: %v vs %v", a, b)
	}
	if a[0] == a[1] || a[0] == "" {
		t.Errorf("identical lines share a fingerprint: %v", a)
	}
}

func TestGitHubAnnotations(t *testing.T) {
	var out bytes.Buffer
	if err := GitHub(&out, sample(0), Extras{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), out.String())
	}
	want := "::warning file=src/arena.cu,line=4,col=3,endLine=4,endColumn=13,title=LL001 whole-vram-allocation::LL001 message, with: commas%0Aand a newline"
	if lines[0] != want {
		t.Errorf("got  %s\nwant %s", lines[0], want)
	}
	if !strings.HasPrefix(lines[2], "::error file=src/spin.cu") || !strings.HasPrefix(lines[3], "::error file=blob.cu,title=lazylint::binary file") {
		t.Errorf("levels: %q", lines[2:])
	}
}

func TestCheckstyle(t *testing.T) {
	var out bytes.Buffer
	if err := Checkstyle(&out, sample(0), Extras{}); err != nil {
		t.Fatal(err)
	}
	var doc checkstyleDoc
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(doc.Files) != 3 || doc.Files[0].Name != "src/arena.cu" || len(doc.Files[0].Errors) != 2 || doc.Files[0].Errors[0].Source != "lazylint.LL001" ||
		!strings.Contains(doc.Files[0].Errors[0].Message, "\n") {
		t.Errorf("doc %+v", doc)
	}
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The programs of testdata/gpu that runtime-probe/gpu-check.sh runs on a
// GPU: each llNNN_hazard.cu must be flagged by rule LLNNN, and its
// llNNN_fixed.cu twin by no rule at all.
func TestGPUPrograms(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "gpu"))
	if err != nil {
		t.Fatal(err)
	}
	programs, err := filepath.Glob(filepath.Join(dir, "ll*_*.cu"))
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^(ll\d{3})_(hazard|fixed|module)\.cu$`)
	hazards, twins := 0, 0
	for _, path := range programs {
		base := filepath.Base(path)
		m := name.FindStringSubmatch(base)
		if m == nil {
			t.Errorf("%s: want llNNN_hazard.cu, llNNN_fixed.cu or llNNN_module.cu", base)
			continue
		}
		wantRule, kind := strings.ToUpper(m[1]), m[2]
		if kind == "hazard" {
			if _, err := os.Stat(filepath.Join(dir, m[1]+"_fixed.cu")); err != nil {
				t.Errorf("%s has no fixed twin", base)
			}
		}
		t.Run(base, func(t *testing.T) {
			_, out, errs := run(t, dir, "check", "--format", "json", base)
			var doc struct {
				Findings []struct{ Rule, Message string }
				Errors   []struct{ Message string }
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s%s", err, out, errs)
			}
			if len(doc.Errors) > 0 {
				t.Fatalf("errors: %+v", doc.Errors)
			}
			var rules []string
			for _, f := range doc.Findings {
				rules = append(rules, f.Rule)
			}
			switch kind {
			case "hazard":
				hazards++
				found := false
				for _, r := range rules {
					found = found || r == wantRule
				}
				if !found {
					t.Errorf("hazard program not flagged by %s (findings: %v)", wantRule, rules)
				}
			default:
				twins++
				if len(rules) > 0 {
					t.Errorf("%s program flagged: %+v", kind, doc.Findings)
				}
			}
		})
	}
	if hazards < 3 || twins < 3 {
		t.Errorf("%d hazard programs and %d twins, want LL001-LL003 at least", hazards, twins)
	}
}

// The real_*.cu programs name in "// gpu-check: KERNEL RULE STATUS" lines
// the per-finding verdict gpu-check.sh expects on a GPU; statically, each
// line must name a finding lazylint makes (a finding of RULE whose line or
// message names KERNEL, any finding of RULE for "-"), or the GPU check
// would test nothing.
func TestGPURealProgramsExpectations(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "gpu"))
	if err != nil {
		t.Fatal(err)
	}
	programs, err := filepath.Glob(filepath.Join(dir, "real_*.cu"))
	if err != nil || len(programs) < 3 {
		t.Fatalf("real programs: %v %v", programs, err)
	}
	expectRE := regexp.MustCompile(`(?m)^// gpu-check: (\S+) (LL\d{3}) (confirmed|not-confirmed|not-exercised)$`)
	for _, path := range programs {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			expects := expectRE.FindAllStringSubmatch(string(src), -1)
			if len(expects) == 0 {
				t.Fatal("no // gpu-check: KERNEL RULE STATUS line")
			}
			_, out, errs := run(t, dir, "check", "--format", "json", base)
			var doc struct {
				Findings []struct{ Rule, Message, Snippet string }
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v\n%s%s", err, out, errs)
			}
			word := func(s, w string) bool {
				return regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`).MatchString(s)
			}
			for _, e := range expects {
				kernel, rule := e[1], e[2]
				found := false
				for _, f := range doc.Findings {
					found = found || f.Rule == rule && (kernel == "-" || word(f.Message+"\n"+f.Snippet, kernel))
				}
				if !found {
					t.Errorf("%s: no %s finding naming %s (findings: %+v)", e[0], rule, kernel, doc.Findings)
				}
			}
		})
	}
}

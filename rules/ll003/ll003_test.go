package ll003_test

import (
	"strings"
	"testing"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/ll003"
	"github.com/lazylint/lazylint/rules/ruletest"
)

func TestRule(t *testing.T) { ruletest.RunAll(t, ll003.Rule) }

// TestProjects runs LL003 on multi-file fixtures: access macros defined in
// a project header.
func TestProjects(t *testing.T) {
	positives, negatives := ruletest.RunProjects(t, ll003.Rule, "testdata/project")
	if positives < 2 || negatives < 1 {
		t.Errorf("%d positive and %d negative cases; want at least 2 and 1", positives, negatives)
	}
}

// TestUnseenWindowIsInfo: a waiter whose launches this file does not show,
// and that no kernel of the file releases, is reported at info severity;
// one that a kernel of the file releases is not capped.
func TestUnseenWindowIsInfo(t *testing.T) {
	src := `
__global__ void wait_host(volatile int *flag) {
  while (*flag == 0) {
  }
}
__global__ void wait_kernel(volatile int *handoff) {
  while (*handoff == 0) {
  }
}
__global__ void hand_over(int *handoff) { *handoff = 1; }
`
	p, err := cudaparse.NewParser()
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Parse("unseen.cu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	capped := map[string]bool{}
	ll003.Rule.Run(rule.NewPass(ll003.Rule, f, nil, nil, func(fd rule.Finding) {
		name := strings.Fields(fd.Message)[1]
		capped[name] = fd.Capped && fd.Cap == rule.Info
	}))
	if got, ok := capped["wait_host"]; !ok || !got {
		t.Errorf("wait_host: reported %v, capped at info %v; want reported at info", ok, got)
	}
	if got, ok := capped["wait_kernel"]; !ok || got {
		t.Errorf("wait_kernel: reported %v, capped at info %v; want reported, not capped", ok, got)
	}
}

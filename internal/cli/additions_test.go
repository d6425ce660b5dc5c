package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lazylint/lazylint/internal/engine"
)

// teamBench launches only through the team's helper and times only with
// the team's clock: nothing lazylint knows by itself.
const teamBench = `#include "team_runtime.h"

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

double measure(float *x, float *y, int n, cudaStream_t s) {
  double t0 = what_time_is_it_now();
  team::launch_on(s, saxpy, n, 2.0f, x, y, n);
  double t1 = what_time_is_it_now();
  return t1 - t0;
}
`

const teamConfig = `launchers:
  - {name: team::launch_on, kernel: 1}
clocks: [what_time_is_it_now]
`

// A team's own launch helper and clock, named in the config's launchers:
// and clocks:, make a timed first launch (issue 25 §3): under check and
// the language server's settings alike; without the config, no finding.
func TestConfigLaunchersAndClocks(t *testing.T) {
	dir := writeFiles(t, map[string]string{".lazylint.yml": teamConfig, "src/bench.cu": teamBench})
	code, doc := checkJSON(t, dir, "--no-cache", "src")
	if code != ExitFindings || len(doc.Findings) != 1 || doc.Findings[0].Rule != "LL002" || doc.Findings[0].Line != 10 ||
		!strings.Contains(doc.Findings[0].Message, "first launch of saxpy") {
		t.Fatalf("with the config: exit %d, %+v", code, doc.Findings)
	}
	if code, doc := checkJSON(t, dir, "--no-cache", "--no-config", "src"); code != ExitClean || len(doc.Findings) != 0 {
		t.Errorf("without the config: exit %d, %+v", code, doc.Findings)
	}
	// The language server's settings (the nearest config from the root).
	opts, err := configuredOptions(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "src", "bench.cu")
	if r := engine.CheckSource(opts, path, []byte(teamBench)); len(r.Findings) != 1 || r.Findings[0].Start.Line != 10 {
		t.Errorf("language server: %+v %v", r.Findings, r.Err)
	}
	// A warm-up through the helper before the clock starts, or the team's
	// preload helper, is a warm-up.
	warm := strings.Replace(teamBench, "  double t0", "  team::launch_on(s, saxpy, 1, 0.0f, x, y, 0);\n  double t0", 1)
	preload := strings.Replace(teamBench, "  double t0", "  warm_kernel(saxpy);\n  double t0", 1)
	writeFilesIn(t, dir, map[string]string{"src/warm.cu": warm, "src/preload.cu": preload,
		".lazylint.yml": teamConfig + "preloads: [warm_kernel]\n"})
	if _, doc := checkJSON(t, dir, "--no-cache", "src"); len(doc.Findings) != 1 || doc.Findings[0].Path != "src/bench.cu" {
		t.Errorf("warm-ups: %+v", doc.Findings)
	}
}

// The sections are part of the cache key: a changed config never gets
// the results of another from the cache, and the same one gets its own.
func TestConfigAdditionsInCacheKey(t *testing.T) {
	dir := writeFiles(t, map[string]string{".lazylint.yml": teamConfig, "src/bench.cu": teamBench})
	findings := func(want int, cached bool) {
		t.Helper()
		_, doc := checkJSON(t, dir, "src")
		if len(doc.Findings) != want || (doc.Stats.Cached > 0) != cached {
			t.Errorf("%d findings, %d cached; want %d, cached %v", len(doc.Findings), doc.Stats.Cached, want, cached)
		}
	}
	findings(1, false)
	findings(1, true)
	// Another clock: the file's uses are no clock reads any more.
	writeFilesIn(t, dir, map[string]string{".lazylint.yml": strings.Replace(teamConfig, "what_time_is_it_now", "other_clock", 1)})
	findings(0, false)
	// Another launcher: the file's helper launches nothing lazylint knows.
	writeFilesIn(t, dir, map[string]string{".lazylint.yml": strings.Replace(teamConfig, "team::launch_on", "team::run_on", 1)})
	findings(0, false)
	writeFilesIn(t, dir, map[string]string{".lazylint.yml": teamConfig})
	findings(1, true)
}

// lazylint config lists the additions, each with the place that set it.
func TestConfigCommandShowsAdditions(t *testing.T) {
	dir := writeFiles(t, map[string]string{".lazylint.yml": teamConfig + `timers:
  - {class: perf::ScopedTimer, constructor: true, destructor: true}
`})
	code, out, errs := run(t, dir, "config")
	cfg := filepath.Join(dir, ".lazylint.yml")
	for _, want := range []string{
		"launchers:\n  - {name: 'team::launch_on', kernel: 1} # " + cfg + ":2",
		"preloads: [] # default: only the built-in ones",
		"clocks:\n  - what_time_is_it_now # " + cfg + ":3",
		"timers:\n  - {class: 'perf::ScopedTimer', constructor: true, destructor: true} # " + cfg + ":5",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("config output lacks %q (exit %d, stderr %q):\n%s", want, code, errs, out)
		}
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := run(t, dir, "config", "--no-config"); !strings.Contains(out, "launchers: [] # default") {
		t.Errorf("--no-config:\n%s", out)
	}
}

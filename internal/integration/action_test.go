package integration

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The GitHub Action (action.yml) and the GitLab CI job (docs/ci/gitlab-ci.yml)
// run here as their files lay them out: each run step in bash with the
// environment the runner would give it (its env: with the expressions
// evaluated, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_ACTION_PATH), the outputs it
// writes handed to the later steps, the steps' if: conditions evaluated;
// the steps that use other actions (setup-go, cache, upload-sarif) are only
// checked for what they would be given. Issue 23.

type actionFile struct {
	Inputs  map[string]struct{ Default string } `yaml:"inputs"`
	Outputs map[string]struct{ Value string }   `yaml:"outputs"`
	Runs    struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

// actionRun is one simulated run of the action.
type actionRun struct {
	t       *testing.T
	root    string
	inputs  map[string]string
	outputs map[string]map[string]string // step id -> output -> value
	uses    map[string]map[string]string // action used -> its evaluated with:
	failed  string                       // the step that failed, if any
	log     strings.Builder
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// value evaluates a context reference: inputs.X, steps.ID.outputs.X, and
// the few runner and github values the action reads.
func (r *actionRun) value(ref string) string {
	switch {
	case strings.HasPrefix(ref, "inputs."):
		v, ok := r.inputs[strings.TrimPrefix(ref, "inputs.")]
		if !ok {
			r.t.Fatalf("the action reads %s, which it does not declare", ref)
		}
		return v
	case strings.HasPrefix(ref, "steps."):
		parts := strings.Split(ref, ".")
		if len(parts) != 4 || parts[2] != "outputs" {
			r.t.Fatalf("unexpected reference %s", ref)
		}
		return r.outputs[parts[1]][parts[3]]
	}
	known := map[string]string{"runner.os": "Linux", "runner.arch": "X64", "github.sha": "0123456789abcdef", "github.workspace": r.root}
	v, ok := known[ref]
	if !ok {
		r.t.Fatalf("the simulation does not know %s", ref)
	}
	return v
}

func (r *actionRun) expand(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return r.value(exprRE.FindStringSubmatch(m)[1])
	})
}

// condition evaluates the if: forms the action uses: terms joined by &&,
// each "REF == 'literal'" or "REF != 'literal'".
func (r *actionRun) condition(cond string) bool {
	cond = strings.TrimSpace(exprRE.ReplaceAllString(cond, "$1"))
	if cond == "" {
		return r.failed == "" // success(), the default
	}
	ok := r.failed == ""
	for _, term := range strings.Split(cond, "&&") {
		term = strings.TrimSpace(term)
		if term == "always()" {
			ok = true
			continue
		}
		m := regexp.MustCompile(`^([\w.-]+)\s*(==|!=)\s*'([^']*)'$`).FindStringSubmatch(term)
		if m == nil {
			r.t.Fatalf("the simulation cannot evaluate the condition %q", term)
		}
		if (r.value(m[1]) == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return ok
}

// runAction runs the action with inputs on top of its defaults.
func runAction(t *testing.T, root, work string, inputs map[string]string, env []string) *actionRun {
	t.Helper()
	var action actionFile
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using: %q", action.Runs.Using)
	}
	r := &actionRun{t: t, root: root, inputs: map[string]string{}, outputs: map[string]map[string]string{}, uses: map[string]map[string]string{}}
	for name, in := range action.Inputs {
		r.inputs[name] = in.Default
	}
	for name, v := range inputs {
		if _, ok := action.Inputs[name]; !ok {
			t.Fatalf("no input %s", name)
		}
		r.inputs[name] = v
	}
	pathFile := filepath.Join(work, "github_path")
	for i, st := range action.Runs.Steps {
		if !r.condition(st.If) {
			fmt.Fprintf(&r.log, "--- step %d %q skipped\n", i, st.Name)
			continue
		}
		if st.Uses != "" {
			with := map[string]string{}
			for k, v := range st.With {
				with[k] = r.expand(v)
			}
			r.uses[strings.SplitN(st.Uses, "@", 2)[0]] = with
			fmt.Fprintf(&r.log, "--- step %d %q: uses %s with %v\n", i, st.Name, st.Uses, with)
			continue
		}
		if st.Shell != "bash" || st.Run == "" {
			t.Fatalf("step %q: want shell: bash and run:", st.Name)
		}
		out := filepath.Join(work, fmt.Sprintf("output_%d", i))
		cmd := exec.Command("bash", "-e", "-c", st.Run)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), env...)
		cmd.Env = append(cmd.Env, "GITHUB_ACTION_PATH="+root, "GITHUB_OUTPUT="+out, "GITHUB_PATH="+pathFile,
			"GITHUB_STEP_SUMMARY="+filepath.Join(work, "summary.md"), "RUNNER_TEMP="+work)
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+r.expand(v))
		}
		b, err := cmd.CombinedOutput()
		fmt.Fprintf(&r.log, "--- step %d %q\n%s", i, st.Name, b)
		if st.ID != "" {
			r.outputs[st.ID] = readOutputs(t, out)
		}
		if err != nil {
			r.failed = st.Name
		}
	}
	return r
}

func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return out
	} else if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

// sarifResults counts the results of a SARIF report.
func sarifResults(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("%s: not a SARIF log of one run: %v", path, err)
	}
	return len(doc.Runs[0].Results)
}

// checkoutForAction is a copy of the examples, as a repository that uses
// the action would have them.
func checkoutForAction(t *testing.T, root string) string {
	t.Helper()
	work := t.TempDir()
	if out, err := exec.Command("cp", "-r", filepath.Join(root, "examples"), work).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	return work
}

func TestGitHubAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lazylint")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	root := repoRoot(t)
	home := t.TempDir()
	env := []string{"LAZYLINT_ACTION_HOME=" + home}
	work := checkoutForAction(t, root)

	// Built from a checkout (as the repository's own workflow does), with
	// the default fail-on: the examples' four warnings fail the job after
	// the report is written for upload.
	r := runAction(t, root, work, map[string]string{"version": root, "paths": "examples"}, env)
	if r.failed != "Fail on findings" || r.outputs["check"]["exit-code"] != "1" {
		t.Fatalf("failed step %q, outputs %v\n%s", r.failed, r.outputs, r.log.String())
	}
	sarif := filepath.Join(work, r.outputs["check"]["sarif-file"])
	if n := sarifResults(t, sarif); n != 4 {
		t.Errorf("%d results in the SARIF report, want the examples' 4", n)
	}
	if up := r.uses["github/codeql-action/upload-sarif"]; up == nil || up["sarif_file"] != "lazylint.sarif" || up["category"] != "lazylint" {
		t.Errorf("upload-sarif with %v\n%s", up, r.log.String())
	}
	cache := r.uses["actions/cache"] // the last one: the results
	if cache == nil || cache["path"] != filepath.Join(home, "cache") || !strings.HasPrefix(cache["key"], "lazylint-results-Linux-"+r.outputs["install"]["binary-hash"]+"-") {
		t.Errorf("results cache with %v", cache)
	}
	if entries, _ := os.ReadDir(filepath.Join(home, "cache")); len(entries) == 0 {
		t.Errorf("the check wrote no cache of results to %s", filepath.Join(home, "cache"))
	}
	if path, _ := os.ReadFile(filepath.Join(work, "github_path")); strings.TrimSpace(string(path)) != filepath.Join(home, "bin") {
		t.Errorf("GITHUB_PATH: %q", path)
	}
	if summary, _ := os.ReadFile(filepath.Join(work, "summary.md")); !strings.Contains(string(summary), "[LL002]") {
		t.Errorf("step summary:\n%s", summary)
	}

	// A pinned version whose binary the cache restored: no go install
	// (none could reach a published module here). fail-on never reports
	// without failing; no upload when asked for none.
	r = runAction(t, root, work, map[string]string{"version": "v0.1.0", "paths": "examples", "fail-on": "never", "upload-sarif": "false"}, env)
	if r.failed != "" || r.outputs["check"]["exit-code"] != "0" || !strings.Contains(r.log.String(), "using the cached") {
		t.Fatalf("failed step %q, outputs %v\n%s", r.failed, r.outputs, r.log.String())
	}
	if r.uses["github/codeql-action/upload-sarif"] != nil {
		t.Error("uploaded with upload-sarif: false")
	}
	if bin := r.uses["actions/cache"]; bin == nil {
		t.Error("no cache step for a pinned version")
	}

	// A bad fail-on stops at the check, before any upload.
	r = runAction(t, root, work, map[string]string{"version": "v0.1.0", "paths": "examples", "fail-on": "sometimes"}, env)
	if r.failed != "lazylint check" || !strings.Contains(r.log.String(), `fail-on: want info, warning, error or never, not "sometimes"`) {
		t.Errorf("failed step %q\n%s", r.failed, r.log.String())
	}
}

// The documented GitLab job's script, with the binary its cache would
// hold, writes a code quality report of the examples' findings and fails
// on them.
func TestGitLabJob(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lazylint")
	}
	root := repoRoot(t)
	var jobs map[string]struct {
		Variables map[string]string `yaml:"variables"`
		Script    []string          `yaml:"script"`
		Artifacts struct {
			When    string            `yaml:"when"`
			Reports map[string]string `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	data, err := os.ReadFile(filepath.Join(root, "docs", "ci", "gitlab-ci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &jobs); err != nil {
		t.Fatal(err)
	}
	job, ok := jobs["lazylint"]
	if !ok || job.Artifacts.When != "always" || job.Artifacts.Reports["codequality"] == "" {
		t.Fatalf("job %+v", job)
	}
	work := checkoutForAction(t, root)
	bin := filepath.Join(work, ".lazylint", "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "lazylint"), filepath.Join(root, "cmd", "lazylint")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "CI_PROJECT_DIR="+work)
	for k, v := range job.Variables {
		if k == "LAZYLINT_VERSION" {
			v = "v0.1.0" // a pinned version, restored from the job's cache
		}
		env = append(env, k+"="+os.Expand(v, func(name string) string {
			if name == "CI_PROJECT_DIR" {
				return work
			}
			return ""
		}))
	}
	cmd := exec.Command("bash", "-e", "-c", strings.Join(job.Script, "\n"))
	cmd.Dir, cmd.Env = work, env
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("want exit 1 (findings), got %v\n%s", err, out)
	}
	data, err = os.ReadFile(filepath.Join(work, job.Artifacts.Reports["codequality"]))
	if err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		CheckName string `json:"check_name"`
		Location  struct {
			Path string `json:"path"`
		} `json:"location"`
	}
	if err := json.Unmarshal(data, &issues); err != nil || len(issues) != 4 {
		t.Errorf("code quality report: %v, %d issues\n%s", err, len(issues), data)
	}
	if entries, _ := os.ReadDir(filepath.Join(work, ".lazylint", "cache")); len(entries) == 0 {
		t.Error("no cache of results under .lazylint/cache, which the job keeps")
	}
}

package repotest

import (
	"os/exec"
	"strings"
	"testing"
)

// The layers point one way: the rule registry (rules) and the rules
// themselves (rules/llNNN) are imported by the command line, the code
// generator and tests, never by the engine, the config, the language
// server or the parser, which take the catalog they are given (issue 24).
func TestOnlyTheCLIImportsTheRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/lazylint/lazylint/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const module = "github.com/lazylint/lazylint/"
	allowed := map[string]bool{module + "internal/cli": true, module + "internal/gen/cmd": true}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := fields[0]
		checked++
		if strings.HasPrefix(pkg, module+"rules") {
			continue // the rules import their helpers and each other's registry
		}
		for _, imp := range fields[1:] {
			if (imp == module+"rules" || strings.HasPrefix(imp, module+"rules/ll")) && !allowed[pkg] {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
	if checked < 20 {
		t.Errorf("go list named %d packages", checked)
	}
}

// Package ll007 reports CUDA_MODULE_LOADING and CUDA_MODULE_DATA_LOADING set
// from code after CUDA has initialized, when the setting no longer has an
// effect, and settings to values that are not loading modes.
package ll007

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

//go:embed doc.md
var doc string

// Rule is LL007.
var Rule = &rule.Rule{
	ID:       "LL007",
	Name:     "late-loading-env",
	Severity: rule.Warning,
	Since:    "0.1.0",
	Summary:  "CUDA_MODULE_LOADING is set after CUDA initialized (no effect) or to a value that is not a loading mode",
	Doc:      doc,
	Triggers: []string{"CUDA_MODULE_"},
	Run:      run,
}

func run(p *rule.Pass) {
	a := newAnalysis(p.File)
	for _, c := range p.File.Calls {
		set, ok := a.loadingSetting(c)
		if !ok {
			continue
		}
		if r, late := a.lateSetting(c); late {
			p.Report(c.Callee, lateMessage(c, set, r), r.related()...)
		}
		for _, v := range set.values {
			if !knowledge.LoadingModes[v] {
				p.Report(c.Callee, valueMessage(c, set, v))
				break
			}
		}
	}
}

func lateMessage(c *cudaparse.Call, set setting, r reason) string {
	when := "after " + r.what
	if r.caller != nil {
		when = fmt.Sprintf("when %s calls %s after %s", callerName(r.caller), c.Func.Name, r.what)
	}
	return fmt.Sprintf("%s of %s %s has no effect: CUDA reads the variable once, when it initializes (measured: still lazy after cudaFree(0)), and changing the environment races with getenv in other threads; set it before the first CUDA call, or in the environment that starts the program",
		c.Name, set.name, when)
}

func callerName(c *cudaparse.Call) string {
	if c.Func == nil {
		return "a static initializer"
	}
	return c.Func.Name
}

func valueMessage(c *cudaparse.Call, set setting, value string) string {
	hint := ""
	switch upper := strings.ToUpper(strings.TrimSpace(value)); {
	case knowledge.LoadingModes[upper]:
		hint = fmt.Sprintf(": write %q", upper)
	case value == "":
		hint = ": unset the variable instead of setting it empty"
	}
	return fmt.Sprintf("%s sets %s to %q, which is not a loading mode: CUDA expects LAZY, EAGER or DEFAULT, in upper case%s",
		c.Name, set.name, value, hint)
}

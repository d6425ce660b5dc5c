// Package ll006 reports cuModuleGetLoadingMode called before CUDA is
// initialized: the query then fails with CUDA_ERROR_NOT_INITIALIZED instead
// of telling the program whether kernels load lazily.
package ll006

import (
	_ "embed"
	"fmt"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/fix"
)

//go:embed doc.md
var doc string

// Rule is LL006.
var Rule = &rule.Rule{
	ID:       "LL006",
	Name:     "loading-mode-before-init",
	Severity: rule.Warning,
	Since:    "0.1.0",
	Summary:  "cuModuleGetLoadingMode is called before CUDA is initialized and fails with CUDA_ERROR_NOT_INITIALIZED",
	Doc:      doc,
	Triggers: []string{queryName},
	Run:      run,
}

const queryName = "cuModuleGetLoadingMode"

func run(p *rule.Pass) {
	a := newAnalysis(p.File)
	for _, c := range p.File.Calls {
		if c.Name != queryName {
			continue
		}
		if c.Func != nil && c.Func.Name == queryName {
			continue // an interposer or shim that forwards the query to the driver
		}
		if handlesNotInitialized(c) {
			continue
		}
		cov := a.coverage(c.Func, c.Node, nil)
		if cov.initialized {
			continue
		}
		p.Report(c.Callee, message(c, cov), a.findingOptions(c, cov)...)
	}
}

const problem = queryName + " before cuInit returns CUDA_ERROR_NOT_INITIALIZED"

func message(c *cudaparse.Call, cov coverage) string {
	if cov.caller != nil {
		caller := "a static initializer"
		if cov.caller.Func != nil {
			caller = cov.caller.Func.Name
		}
		return fmt.Sprintf("%s; %s calls %s before CUDA is initialized: call cuInit(0) before the query (it does nothing when CUDA is already initialized)",
			problem, caller, c.Func.Name)
	}
	return problem + "; call cuInit(0) before the query (it does nothing when CUDA is already initialized), or make a CUDA runtime call such as cudaFree(0) first"
}

func (a *analysis) findingOptions(c *cudaparse.Call, cov coverage) []rule.FindingOption {
	var opts []rule.FindingOption
	if cov.caller != nil {
		opts = append(opts, rule.Related(cov.caller.Node, "called here before CUDA is initialized"))
	}
	if s, ok := a.missedInit(c.Func, c.Node); ok {
		why := "CUDA is initialized here, which may not run before the query"
		if s.Node.Start() >= c.Node.End() {
			why = "CUDA is initialized only here, after the query"
		}
		opts = append(opts, rule.Related(s.Node, why))
	}
	// cuInit is idempotent, so inserting it is safe wherever the query is.
	if edit, ok := fix.InsertBeforeStatement(a.file, c.Node, "cuInit(0);"); ok {
		opts = append(opts, rule.WithFix(rule.Fix{Message: "initialize CUDA with cuInit(0) before the query", Edits: []rule.TextEdit{edit}}))
	}
	return opts
}

// handlesNotInitialized reports whether the code holding the query tests
// for CUDA_ERROR_NOT_INITIALIZED after it: code that probes on purpose
// whether CUDA is initialized yet.
func handlesNotInitialized(c *cudaparse.Call) bool {
	scope := c.Node.Ancestor("function_definition")
	if !scope.Valid() {
		scope = c.Node.Parent()
	}
	found := false
	scope.Descendants(func(n cudaparse.Node) bool {
		if found {
			return false
		}
		if n.Start() >= c.Node.Start() && n.Is("identifier") && n.Text() == "CUDA_ERROR_NOT_INITIALIZED" {
			found = true
		}
		return true
	})
	return found
}

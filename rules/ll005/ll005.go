// Package ll005 reports the same module loaded into each context or device
// by hand, which CUDA 12's context-independent loading does for you.
package ll005

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/rule"
)

//go:embed doc.md
var doc string

// Rule is LL005.
var Rule = &rule.Rule{
	ID:       "LL005",
	Name:     "per-context-module-load",
	Severity: rule.Info,
	Since:    "0.1.0",
	Summary:  "the same module is loaded into each context by hand; cuLibraryLoad* does it once for all",
	Doc:      doc,
	Triggers: []string{"cuModuleLoad"},
	Run:      run,
}

var moduleLoads = map[string]bool{
	"cuModuleLoad": true, "cuModuleLoadData": true, "cuModuleLoadDataEx": true, "cuModuleLoadFatBinary": true,
}

// contextSwitches make another context or device current.
var contextSwitches = map[string]bool{
	"cuCtxSetCurrent": true, "cuCtxPushCurrent": true, "cuCtxPushCurrent_v2": true,
	"cuCtxCreate": true, "cuCtxCreate_v2": true, "cuCtxCreate_v3": true, "cuCtxCreate_v4": true,
	"cuDevicePrimaryCtxRetain": true, "cudaSetDevice": true,
}

func run(p *rule.Pass) {
	f := p.File
	reported := map[int]bool{}
	for _, loop := range f.NodesOfKind("for_statement", "while_statement", "do_statement", "for_range_loop") {
		fn := f.FunctionOf(loop)
		if fn == nil || fn.Space&cudaparse.SpaceHost == 0 {
			continue
		}
		body := loop.ChildByField("body")
		switches := callsIn(f, body, func(c *cudaparse.Call) bool { return contextSwitches[c.Name] }, 0)
		if len(switches) == 0 {
			continue
		}
		vars := loopVariables(loop)
		for _, load := range callsIn(f, body, func(c *cudaparse.Call) bool { return moduleLoads[c.Name] }, 0) {
			if reported[load.Node.Start()] || len(load.Args) < 2 || mentionsAny(load.Args[1], vars) {
				continue // a different image each time: not the same module
			}
			reported[load.Node.Start()] = true
			p.Report(load.Callee, fmt.Sprintf("the same module is loaded into each context by hand (%s in a loop that switches with %s): since CUDA 12.0, cuLibraryLoadData or cuLibraryLoadFromFile loads it once for every context, current and future, and cuLibraryGetKernel gives one context-independent kernel handle", load.Name, switches[0].Name),
				rule.Related(switches[0].Node, "context switched here"))
		}
	}
}

// callsIn returns the calls inside n that match, following calls to
// functions of the file one level deep (a per-device setup helper).
func callsIn(f *cudaparse.File, n cudaparse.Node, match func(*cudaparse.Call) bool, depth int) []*cudaparse.Call {
	var out []*cudaparse.Call
	for _, c := range f.Calls {
		if !n.Contains(c.Node) {
			continue
		}
		if match(c) {
			out = append(out, c)
			continue
		}
		if callee := f.FunctionNamed(c.Name); callee != nil && depth < 2 && callee.Body.Valid() && !callee.Body.Contains(n) {
			out = append(out, callsIn(f, callee.Body, match, depth+1)...)
		}
	}
	return out
}

// loopVariables returns the names that change from one iteration to the
// next: the for loop's declared or updated variables, the range variable.
func loopVariables(loop cudaparse.Node) []string {
	var out []string
	add := func(n cudaparse.Node) {
		n.Descendants(func(x cudaparse.Node) bool {
			if x.Is("identifier") {
				out = append(out, x.Text())
			}
			return true
		})
	}
	switch {
	case loop.Is("for_statement"):
		add(loop.ChildByField("initializer"))
		add(loop.ChildByField("update"))
	case loop.Is("for_range_loop"):
		add(loop.ChildByField("declarator"))
	default:
		add(loop.ChildByField("condition"))
	}
	return out
}

func mentionsAny(n cudaparse.Node, names []string) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if x.Is("identifier") {
			for _, v := range names {
				if x.Text() == v && !strings.HasPrefix(v, "cu") {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

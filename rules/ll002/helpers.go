package ll002

import (
	"fmt"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
)

// Timing helpers: a function of the file that runs the code it is handed
// between two clock reads (`double time_ms(F &&f) { start(); f(); stop(); }`)
// times the first launches of a lambda passed to it.

// timingHelper is a function that times one of its parameters.
type timingHelper struct {
	fn     *cudaparse.Function
	param  int
	region cudaparse.TimedRegion
}

// timingHelpers finds the file's functions whose timed region calls one of
// their parameters, and that do not call it before the timer starts (a
// warm-up run inside the helper).
func (a *analysis) timingHelpers() map[string]timingHelper {
	out := map[string]timingHelper{}
	for _, fn := range a.file.Functions {
		if fn.Space&cudaparse.SpaceHost == 0 || len(fn.Params) == 0 {
			continue
		}
		// A helper runs a parameter: most functions call none, and their
		// timed regions (the costlier question) are not needed.
		calls := a.file.CallsIn(fn)
		if !callsAnyParameter(calls, fn.Params) {
			continue
		}
		regions := a.file.TimedRegions(fn)
		if len(regions) == 0 {
			continue
		}
		for _, prm := range fn.Params {
			var timed *cudaparse.TimedRegion
			warm := false
			for _, c := range calls {
				if !callsParameter(c, prm.Name) {
					continue
				}
				for i := range regions {
					if regions[i].Contains(c.Node) && timed == nil {
						timed = &regions[i]
					}
				}
				if timed == nil || c.Node.End() <= timed.From {
					warm = true // run once before the timer: a warm-up
				}
			}
			if timed != nil && !warm {
				out[fn.Name] = timingHelper{fn: fn, param: prm.Index, region: *timed}
			}
		}
	}
	return out
}

// callsAnyParameter reports whether one of calls runs one of params.
func callsAnyParameter(calls []*cudaparse.Call, params []cudaparse.Param) bool {
	for _, c := range calls {
		for _, prm := range params {
			if callsParameter(c, prm.Name) {
				return true
			}
		}
	}
	return false
}

// callsParameter reports whether c runs the parameter name: name(),
// std::invoke(name, ...), std::forward<F>(name)().
func callsParameter(c *cudaparse.Call, name string) bool {
	callee := c.Callee.Unparen()
	if callee.Is("identifier") && callee.Text() == name {
		return true
	}
	if callee.Is("call_expression") { // std::forward<F>(f)()
		if args := callee.ChildByField("arguments").NamedChildren(); len(args) == 1 && args[0].Unparen().Text() == name {
			return true
		}
	}
	if c.Name == "invoke" && len(c.Args) > 0 && c.Args[0].Unparen().Text() == name {
		return true
	}
	return false
}

// helperLambda returns the lambda a call of a timing helper runs, or the
// invalid node.
func (a *analysis) helperLambda(c *cudaparse.Call, fn *cudaparse.Function, helpers map[string]timingHelper) (timingHelper, cudaparse.Node) {
	h, ok := helpers[c.Name]
	if !ok || h.fn == fn || h.param >= len(c.Args) {
		return h, cudaparse.Node{}
	}
	code := c.Args[h.param].Unparen()
	if code.Is("identifier") {
		code = a.file.LambdaVariables(fn)[code.Text()]
	}
	if !code.Is("lambda_expression") {
		return h, cudaparse.Node{}
	}
	return h, code
}

// placeHelperLambdas sets where the uses inside lambdas handed to timing
// helpers run: at the helper's call.
func (a *analysis) placeHelperLambdas(fn *cudaparse.Function, helpers map[string]timingHelper, uses []kernelUse) {
	for _, c := range a.file.Calls {
		if c.Func != fn {
			continue
		}
		if _, code := a.helperLambda(c, fn, helpers); code.Valid() {
			for i := range uses {
				if code.Contains(uses[i].node) {
					uses[i].runsAt = c.Node
				}
			}
		}
	}
}

// checkHelperCalls reports first launches in lambdas that fn hands to a
// timing helper.
func (a *analysis) checkHelperCalls(fn *cudaparse.Function, helpers map[string]timingHelper, uses []kernelUse, onEntry *link.KernelFacts, reported map[int]bool) {
	for _, c := range a.file.Calls {
		if c.Func != fn {
			continue
		}
		h, code := a.helperLambda(c, fn, helpers)
		if !code.Valid() {
			continue
		}
		for i, u := range uses {
			if !code.Contains(u.node) || reported[u.node.Start()] {
				continue
			}
			for _, key := range u.launched {
				if onEntry.Loads(key) || onEntry.Loads(a.siteKeys[key]) || warmedUp(uses[:i], c.Node, key) {
					continue
				}
				reported[u.node.Start()] = true
				a.pass.Report(u.node, fmt.Sprintf("the first launch of %s in this function is timed by %s, which runs this lambda between two clock reads (%s): under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before calling %s",
					key, h.fn.Name, clockName(h.region), h.fn.Name),
					rule.Related(c.Node, "the lambda is handed to "+h.fn.Name+" here"), rule.Related(h.region.Start, "its timer starts here"))
				break
			}
		}
	}
}

package ll002

import (
	"fmt"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
)

// Timing helpers: a function that runs the code it is handed between two
// clock reads (`double time_ms(F &&f) { start(); f(); stop(); }`), of the
// file or of another file of the project, times the first launches of a
// lambda passed to it.

// timingHelper is a function that times one of its parameters: the file's
// own (fn and region set), or another file's (known by its summary: the
// parameter and the clock only).
type timingHelper struct {
	name   string
	param  int
	clock  cudaparse.ClockKind
	fn     *cudaparse.Function
	region cudaparse.TimedRegion
}

// clockName is the name of the helper's clock in messages.
func (h timingHelper) clockName() string {
	if h.fn != nil {
		return clockName(h.region)
	}
	return clockName(cudaparse.TimedRegion{Clock: h.clock})
}

// timingHelpers finds the file's functions whose timed region calls one of
// their parameters, and that do not call it before the timer starts (a
// warm-up inside the helper), and adds those of other files the file
// calls.
func (a *analysis) timingHelpers() map[string]timingHelper {
	out := map[string]timingHelper{}
	for _, fn := range a.file.Functions {
		if param, region, ok := a.file.TimedParam(fn); ok {
			out[fn.Name] = timingHelper{name: fn.Name, param: param, clock: region.Clock, fn: fn, region: region}
		}
	}
	for name, h := range a.file.ProjectTimingHelpers() {
		if a.file.FunctionNamed(name) == nil {
			out[name] = timingHelper{name: name, param: h.Param, clock: h.Clock}
		}
	}
	return out
}

// helperLambda returns the lambda a call of a timing helper runs, or the
// invalid node.
func (a *analysis) helperLambda(c *cudaparse.Call, fn *cudaparse.Function, helpers map[string]timingHelper) (timingHelper, cudaparse.Node) {
	h, ok := a.helperCalled(c, fn, helpers)
	if !ok || h.param >= len(c.Args) {
		return h, cudaparse.Node{}
	}
	code := c.Args[h.param].Unparen()
	if code.Is("identifier") {
		code = a.file.LambdaVariable(fn, code)
	}
	if !code.Is("lambda_expression") {
		return h, cudaparse.Node{}
	}
	return h, code
}

// helperCalled returns the timing helper call c of fn calls: a lambda fn
// binds to the name it calls (File.TimedLambdaParam), or a function of
// the file or of the project other than fn itself.
func (a *analysis) helperCalled(c *cudaparse.Call, fn *cudaparse.Function, helpers map[string]timingHelper) (timingHelper, bool) {
	if callee := c.Callee.Unparen(); callee.Is("identifier") {
		if lambda := a.file.LambdaVariable(fn, callee); lambda.Valid() {
			param, region, ok := a.file.TimedLambdaParam(fn, lambda)
			if !ok || lambda.Contains(c.Node) {
				return timingHelper{}, false
			}
			return timingHelper{name: c.Name, param: param, clock: region.Clock, fn: fn, region: region}, true
		}
	}
	h, ok := helpers[c.Name]
	if !ok || h.fn != nil && h.fn == fn {
		return timingHelper{}, false
	}
	return h, true
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

// checkHelperKernel reports a kernel that fn hands to a timing helper
// which launches it between two clock reads (`TimeThis(kernel, cfg,
// args...)`), when fn has not launched or preloaded it before the call.
func (a *analysis) checkHelperKernel(c *cudaparse.Call, fn *cudaparse.Function, h timingHelper, helpers map[string]timingHelper, uses []kernelUse, onEntry *link.KernelFacts, reported map[int]bool) {
	if _, ok := a.helperCalled(c, fn, helpers); !ok || h.param >= len(c.Args) || reported[c.Node.Start()] {
		return
	}
	key := a.file.ArgumentKernelKey(c.Args[h.param])
	// A kernel of the file, or a host function that launches kernels (a
	// launcher the helper calls: `benchmark(transpose_naive<float>, ...)`);
	// the caller's own parameter is neither.
	keys, launcher := []string{key}, ""
	if kernel := a.file.FunctionNamed(cudaparse.PlainKernelName(key)); key == "" || kernel == nil || !kernel.IsKernel() {
		keys, launcher = a.handedLaunches(c.Args[h.param]), cudaparse.PlainKernelName(key)
	}
	var earlier []kernelUse
	for _, u := range uses {
		if u.node.Start() < c.Node.Start() {
			earlier = append(earlier, u)
		}
	}
	for _, key := range keys {
		if onEntry.Loads(key) || warmedUp(earlier, c.Node, key) {
			continue
		}
		reported[c.Node.Start()] = true
		var related []rule.FindingOption
		if h.fn != nil {
			related = append(related, rule.Related(h.region.Start, "its timer starts here"))
		}
		if launcher != "" {
			a.pass.Report(c.Node, fmt.Sprintf("the first launch of %s in this function happens in %s, which it hands to %s, which calls it between two clock reads (%s): under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before calling %s",
				key, launcher, h.name, h.clockName(), h.name), related...)
			return
		}
		a.pass.Report(c.Node, fmt.Sprintf("the first launch of %s in this function is timed by %s, which launches the kernel it is handed between two clock reads (%s): under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before calling %s",
			key, h.name, h.clockName(), h.name), related...)
		return
	}
}

// handedLaunches returns the kernels a host function launches that a
// call hands to a timing helper by name (arg: `op`, `transpose<float>`,
// `&op`): a function of the file, or of another file of the project.
// A name of neither, or a variable, launches nothing known.
func (a *analysis) handedLaunches(arg cudaparse.Node) []string {
	x := arg.Unparen()
	if x.Is("pointer_expression") {
		x = x.ChildByField("argument").Unparen()
	}
	if !x.Is("identifier", "qualified_identifier", "template_function") {
		return nil
	}
	name := x.Name()
	if callee := a.file.FunctionNamed(name); callee != nil {
		if callee.Space&cudaparse.SpaceHost == 0 || callee.IsKernel() {
			return nil
		}
		return a.summarize(callee, 0).launched
	}
	if x.Is("qualified_identifier") {
		return nil
	}
	if typ, _ := a.file.DeclaredType(x); typ != "" {
		return nil // a variable (a function pointer): what it holds is not known
	}
	pf := a.pass.Loaders().ResolveCall("", name, "", -1, false, a.file.Path)
	if pf == nil || pf.File() == a.file.Path {
		return nil
	}
	return a.pass.Loaders().Kernels(pf).Launched
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
			a.checkHelperKernel(c, fn, h, helpers, uses, onEntry, reported)
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
				related := []rule.FindingOption{rule.Related(c.Node, "the lambda is handed to "+h.name+" here")}
				if h.fn != nil {
					related = append(related, rule.Related(h.region.Start, "its timer starts here"))
				}
				a.pass.Report(u.node, fmt.Sprintf("the first launch of %s in this function is timed by %s, which runs this lambda between two clock reads (%s): under lazy loading the measurement includes loading the kernel (20x a warm launch on an H100); launch it once or preload it (cudaFuncGetAttributes) before calling %s",
					key, h.name, h.clockName(), h.name), related...)
				break
			}
		}
	}
}

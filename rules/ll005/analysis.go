package ll005

import (
	"github.com/lazylint/lazylint/cudaparse"
)

// maxDepth bounds how far helpers are followed from a loop, and how far a
// value is traced back through definitions.
const (
	maxHelperDepth = 2
	maxValueDepth  = 8
)

// contextSwitchTarget gives, for each call that makes a context or device
// current, the index of the argument naming it (-1: the last argument).
var contextSwitchTarget = map[string]int{
	"cuCtxSetCurrent": 0, "cuCtxPushCurrent": 0, "cuCtxPushCurrent_v2": 0,
	"cudaSetDevice": 0,
	// cuCtxCreate(&ctx, flags, dev), _v3 and _v4 with more parameters
	// before the device.
	"cuCtxCreate": -1, "cuCtxCreate_v2": -1, "cuCtxCreate_v3": -1, "cuCtxCreate_v4": -1,
	"cuDevicePrimaryCtxRetain": 1,
}

type analysis struct {
	file    *cudaparse.File
	byName  map[string][]*cudaparse.Function
	reached map[*loop][]found
}

func newAnalysis(f *cudaparse.File) *analysis {
	a := &analysis{
		file:    f,
		byName:  map[string][]*cudaparse.Function{},
		reached: map[*loop][]found{},
	}
	for _, fn := range f.Functions {
		if isHostCode(fn) {
			a.byName[fn.Name] = append(a.byName[fn.Name], fn)
		}
	}
	return a
}

func isHostCode(fn *cudaparse.Function) bool {
	return fn != nil && fn.Space&cudaparse.SpaceHost != 0 && fn.Body.Valid()
}

// loop is a loop of host code, or a lambda that an algorithm runs once per
// element (std::for_each).
type loop struct {
	node cudaparse.Node
	body cudaparse.Node
	fn   *cudaparse.Function
	// vars change from one iteration to the next: the loop's counters, the
	// range variable, the lambda's parameters.
	vars map[string]bool
}

func (a *analysis) loops() []*loop {
	var out []*loop
	for _, n := range a.file.NodesOfKind("for_statement", "while_statement", "do_statement", "for_range_loop") {
		fn := a.file.FunctionOf(n)
		if !isHostCode(fn) {
			continue
		}
		l := &loop{node: n, body: n.ChildByField("body"), fn: fn, vars: map[string]bool{}}
		switch {
		case n.Is("for_statement"):
			addDefined(l.vars, n.ChildByField("initializer"))
			addDefined(l.vars, n.ChildByField("update"))
		case n.Is("for_range_loop"):
			addIdentifiers(l.vars, n.ChildByField("declarator"))
		}
		out = append(out, l)
	}
	for _, c := range a.file.Calls {
		if !loopRunners[c.Name] || !isHostCode(c.Func) {
			continue
		}
		for _, arg := range c.Args {
			if arg = arg.Unparen(); arg.Is("lambda_expression") {
				l := &loop{node: arg, body: arg.ChildByField("body"), fn: c.Func, vars: map[string]bool{}}
				for name := range lambdaParams(arg) {
					l.vars[name] = true
				}
				out = append(out, l)
			}
		}
	}
	return out
}

// addDefined adds the variables a for loop's initializer or update
// declares, assigns or increments.
func addDefined(vars map[string]bool, n cudaparse.Node) {
	n.Descendants(func(x cudaparse.Node) bool {
		switch {
		case x.Is("init_declarator"):
			addIdentifiers(vars, x.ChildByField("declarator"))
		case x.Is("assignment_expression"):
			vars[cudaparse.VarKey(x.ChildByField("left"))] = true
		case x.Is("update_expression"):
			vars[cudaparse.VarKey(x.ChildByField("argument"))] = true
		}
		return true
	})
	delete(vars, "")
}

func addIdentifiers(vars map[string]bool, n cudaparse.Node) {
	n.Descendants(func(x cudaparse.Node) bool {
		if x.Is("identifier") {
			vars[x.Text()] = true
		}
		return true
	})
}

// lambdaParams maps a lambda's parameter names to their positions.
func lambdaParams(lambda cudaparse.Node) map[string]int {
	out := map[string]int{}
	params := lambda.ChildByField("declarator").ChildByField("parameters")
	for k, p := range params.NamedChildren() {
		if name := cudaparse.DeclaredName(p.ChildByField("declarator")); name != "" {
			out[name] = k
		}
	}
	return out
}

// found is a call that runs in a loop's body, directly or in a helper the
// body calls.
type found struct {
	call  *cudaparse.Call
	scope *scope
	// via is the call in the loop body that runs the helper holding call;
	// nil when call is in the loop body itself.
	via *cudaparse.Call
}

// find returns the calls that run in the loop and match.
func (a *analysis) find(l *loop, match func(*cudaparse.Call) bool) []found {
	var out []found
	for _, f := range a.reach(l) {
		if match(f.call) {
			out = append(out, f)
		}
	}
	return out
}

// reach lists the calls a loop's body runs, following helpers of the file
// and lambdas bound to variables that the body calls.
func (a *analysis) reach(l *loop) []found {
	if r, ok := a.reached[l]; ok {
		return r
	}
	var out []found
	var walk func(region cudaparse.Node, fn *cudaparse.Function, s *scope, via *cudaparse.Call, depth int)
	walk = func(region cudaparse.Node, fn *cudaparse.Function, s *scope, via *cudaparse.Call, depth int) {
		for _, c := range a.file.CallsIn(fn) {
			if !region.Contains(c.Node) {
				continue
			}
			out = append(out, found{call: c, scope: s, via: via})
			if _, isSwitch := contextSwitchTarget[c.Name]; isSwitch || moduleLoads[c.Name] || depth >= maxHelperDepth {
				continue // API names first: a file may define stubs of them
			}
			next := via
			if next == nil {
				next = c
			}
			if h := a.helper(c.Name, fn); h != nil && !h.Body.Contains(l.node) {
				params := map[string]int{}
				for _, p := range h.Params {
					params[p.Name] = p.Index
				}
				walk(h.Body, h, a.newScope(h.Body, params, c, s), next, depth+1)
			} else if lambda := a.file.LambdaVariable(fn, c.Callee); lambda.Valid() && !lambda.Contains(c.Node) {
				body := lambda.ChildByField("body")
				walk(body, fn, a.newScope(body, lambdaParams(lambda), c, s), next, depth+1)
			}
		}
	}
	top := a.newScope(l.node, nil, nil, nil)
	top.loop = l
	walk(l.body, l.fn, top, nil, 0)
	a.reached[l] = out
	return out
}

// contextSwitches returns the calls in the loop that make a different
// context or device current on each iteration. A loop that sets the same
// context each time (a retry loop) does not switch.
func (a *analysis) contextSwitches(l *loop) []found {
	var out []found
	for _, f := range a.find(l, func(c *cudaparse.Call) bool { _, ok := contextSwitchTarget[c.Name]; return ok }) {
		k := contextSwitchTarget[f.call.Name]
		if k < 0 {
			k = len(f.call.Args) - 1
		}
		if f.scope.varies(f.call.Arg(k)) {
			out = append(out, f)
		}
	}
	return out
}

func (a *analysis) helper(name string, from *cudaparse.Function) *cudaparse.Function {
	for _, fn := range a.byName[name] {
		if fn != from && !fn.IsKernel() {
			return fn
		}
	}
	return nil
}

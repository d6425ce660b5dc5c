package ll002

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// warmedByRunner reports whether the timed region lies in a lambda handed
// to a benchmark library's method that runs it once or more, unmeasured,
// before the runs it reports (knowledge.WarmupRunners: nvbench's
// state.exec): the first launch falls in the warm-up.
func warmedByRunner(f *cudaparse.File, fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	lambda := r.Start.Ancestor("lambda_expression")
	if !lambda.Valid() {
		return false
	}
	for _, c := range f.Calls {
		if c.Func == fn && c.Callee.Is("field_expression") && handsLambda(f, fn, c, lambda) && runsWarmup(f, c) {
			return true
		}
	}
	return false
}

// handsLambda reports whether the lambda is an argument of c, written
// there or through the variable it is bound to (`auto body = [&](...)
// {...}; state.exec(body);`).
func handsLambda(f *cudaparse.File, fn *cudaparse.Function, c *cudaparse.Call, lambda cudaparse.Node) bool {
	for _, arg := range c.Args {
		a := arg.Unparen()
		if a.Is("identifier") {
			a = f.LambdaVariable(fn, a)
		}
		if a == lambda {
			return true
		}
	}
	return false
}

// runsWarmup reports whether c calls a warm-up runner: a method
// knowledge.WarmupRunners lists for the type its receiver is declared with.
func runsWarmup(f *cudaparse.File, c *cudaparse.Call) bool {
	recv := c.Callee.ChildByField("argument").Unparen()
	if !recv.Is("identifier") {
		return false
	}
	typ, _ := f.DeclaredType(recv)
	typ = strings.TrimPrefix(strings.TrimPrefix(typ, "const"), "::")
	return knowledge.WarmupRunners[typ][c.Name]
}

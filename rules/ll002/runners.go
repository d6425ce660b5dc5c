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

// startsWithProgram reports whether r starts with the program: its start
// is main's first statement that does anything (what comes before only
// declares plain variables), so the measurement holds the creation of the
// CUDA context, where eager loading loads every module. Lazy loading adds
// nothing to such a total (Cholla's `start_total = Get_Time();` at the top
// of main, printed as the initialization time).
func startsWithProgram(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	if fn.Name != "main" || fn.QualifiedName != "main" || !fn.Body.Valid() {
		return false
	}
	for _, stmt := range fn.Body.NamedChildren() {
		if stmt.Contains(r.Start) {
			return stmt.Is("expression_statement", "declaration")
		}
		if !inert(stmt) {
			return false
		}
	}
	return false
}

// inert reports whether a statement of main before any timer does nothing
// a CUDA context could come of: a declaration of plain variables (no
// constructor arguments, no call in an initializer), an assignment of
// constants, a comment or a preprocessor line.
func inert(stmt cudaparse.Node) bool {
	switch {
	case stmt.Is("comment"):
		return true
	case stmt.Is("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"):
		return allInert(stmt)
	case strings.HasPrefix(stmt.Kind(), "preproc"): // #define, #include, #pragma
		return true
	case stmt.Is("declaration", "expression_statement"):
		busy := false
		stmt.Descendants(func(n cudaparse.Node) bool {
			if n.Is("call_expression", "argument_list", "new_expression", "lambda_expression", "initializer_list") {
				busy = true
			}
			return !busy
		})
		return !busy
	}
	return false
}

// allInert reports whether every statement a preprocessor conditional
// holds is inert.
func allInert(cond cudaparse.Node) bool {
	for _, k := range cond.NamedChildren() {
		if k.Field() == "condition" || k.Field() == "name" {
			continue
		}
		if !inert(k) {
			return false
		}
	}
	return true
}

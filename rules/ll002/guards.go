package ll002

import (
	"github.com/lazylint/lazylint/cudaparse"
)

// A measurement used only under a condition is read only on the runs where
// the condition holds. A warm-up under the same condition, before the timer
// starts, then runs on every run that reads the time (LC-framework's
// drivers: `if (perf) { warm-up launches }`, the timed launches, then `if
// (perf) printf(time)`), so the timed launches load nothing on those runs.

// measurementGuards returns the conditions under which every read of what
// r measures (its sinks, followed through the local variables computed
// from it) lies: the plain conditions (plainCondition) of the if
// statements whose then-branch holds all of them, by their text
// (cudaparse.ConditionText), each with those if statements. None when the
// value is not known to reach any read, or goes where it cannot be
// followed.
func (a *analysis) measurementGuards(fn *cudaparse.Function, r cudaparse.TimedRegion) map[string][]cudaparse.Node {
	seed := a.measuredVariable(fn, r)
	if seed == "" || !localVariable(fn, seed) {
		return nil
	}
	sinks := measurementSinks(fn, seed)
	if len(sinks) == 0 {
		return nil
	}
	var common map[string][]cudaparse.Node
	for k, s := range sinks {
		guards := map[string][]cudaparse.Node{}
		for stmt := enclosingThen(s); stmt.Valid(); stmt = enclosingThen(stmt) {
			if plainCondition(stmt) {
				c := cudaparse.ConditionText(stmt)
				guards[c] = append(guards[c], stmt)
			}
		}
		if k == 0 {
			common = guards
			continue
		}
		for c, stmts := range common {
			if more, ok := guards[c]; !ok {
				delete(common, c)
			} else {
				common[c] = append(stmts, more...)
			}
		}
	}
	return common
}

// measurementSinks returns the reads of seed, and of the local variables
// computed from it, that show or keep the value (eachSink).
func measurementSinks(fn *cudaparse.Function, seed string) []cudaparse.Node {
	var sinks []cudaparse.Node
	eachSink(fn, seed, nil, func(n cudaparse.Node) bool {
		sinks = append(sinks, n)
		return true
	})
	return sinks
}

// enclosingThen returns the if statement whose then-branch holds n, the
// nearest one; an invalid node when a loop, a lambda or a function's body
// comes first, or n lies in an else branch or a condition.
func enclosingThen(n cudaparse.Node) cudaparse.Node {
	for x, p := n, n.Parent(); p.Valid(); x, p = p, p.Parent() {
		switch {
		case p.Is("if_statement"):
			if x.Field() == "consequence" {
				return p
			}
			return cudaparse.Node{}
		case p.Is("for_statement", "for_range_loop", "while_statement", "do_statement", "lambda_expression", "function_definition", "switch_statement", "conditional_expression", "try_statement"):
			return cudaparse.Node{}
		}
	}
	return cudaparse.Node{}
}

// plainCondition reports whether the condition of the if statement stmt
// is a plain test of variables (`perf`, `!quiet`, `cfg.warmup`, `verbose >
// 1`): no declaration, call, assignment or anything else whose value a
// run could change by evaluating it.
func plainCondition(stmt cudaparse.Node) bool {
	cond := stmt.ChildByField("condition")
	if cond.Is("condition_clause") {
		if cond = cond.ChildByField("value"); !cond.Valid() {
			return false // `if (T x = ...)`: a declaration
		}
	}
	plain := true
	cond.Descendants(func(n cudaparse.Node) bool {
		if n.Is("call_expression", "assignment_expression", "update_expression", "lambda_expression", "comma_expression") {
			plain = false
		}
		return plain
	})
	return plain
}

// guardedWarmUp reports whether the earlier use e runs, whenever one of
// guards holds, before at: e lies in the then-branch of an if statement
// with that condition, with no other branch or loop between them, that
// statement runs before at on every path, and the variables the
// condition reads have, at each guard of the reads, only definitions made
// before that statement (cudaparse.File.ReachingDefs): the same values.
func (a *analysis) guardedWarmUp(e kernelUse, at cudaparse.Node, guards map[string][]cudaparse.Node) bool {
	stmt := enclosingThen(e.at())
	if !stmt.Valid() || !plainCondition(stmt) || !cudaparse.OnTheWay(stmt, at) {
		return false
	}
	reads, ok := guards[cudaparse.ConditionText(stmt)]
	if !ok {
		return false
	}
	// Between e and the branch's start: blocks and plain statements only.
	for x := e.at().Parent(); x.Valid() && x != stmt; x = x.Parent() {
		if x.Is("if_statement", "for_statement", "for_range_loop", "while_statement", "do_statement", "switch_statement", "conditional_expression", "lambda_expression", "try_statement", "catch_clause") {
			return false
		}
	}
	for _, g := range reads {
		stable := true
		g.ChildByField("condition").Descendants(func(n cudaparse.Node) bool {
			if n.Is("identifier") {
				for _, d := range a.file.ReachingDefs(n) {
					if d.Node.Start() >= stmt.Start() {
						stable = false
					}
				}
			}
			return stable
		})
		if !stable {
			return false
		}
	}
	return true
}

// coldWhenRead returns the cold kernels that a warm-up under the
// condition of every read of r's measurement does not load: on the runs
// that read the time, it ran before at.
func (a *analysis) coldWhenRead(fn *cudaparse.Function, r cudaparse.TimedRegion, earlier []kernelUse, at cudaparse.Node, cold []string) []string {
	var guarded []kernelUse
	for _, e := range earlier {
		if !cudaparse.OnTheWay(e.at(), at) && enclosingThen(e.at()).Valid() {
			guarded = append(guarded, e)
		}
	}
	if len(guarded) == 0 {
		return cold
	}
	guards := a.measurementGuards(fn, r)
	if len(guards) == 0 {
		return cold
	}
	var out []string
	for _, key := range cold {
		warm := false
		for _, e := range guarded {
			if (e.all || containsKernel(e.launched, key) || containsKernel(e.preloaded, key)) && a.guardedWarmUp(e, at, guards) {
				warm = true
				break
			}
		}
		if !warm {
			out = append(out, key)
		}
	}
	return out
}

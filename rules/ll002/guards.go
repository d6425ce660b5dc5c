package ll002

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// A measurement used only under a condition is read only on the runs where
// the condition holds. A warm-up under the same condition, before the timer
// starts, then runs on every run that reads the time (LC-framework's
// drivers: `if (perf) { warm-up launches }`, the timed launches, then `if
// (perf) printf(time)`), so the timed launches load nothing on those runs.

// measurementGuards returns the conditions under which every read of what
// r measures (its sinks, followed through the local variables computed
// from it) lies: the conditions of the if statements whose then-branch
// holds all of them, as conditionText spells them. None when the value is
// not known to reach any read, or goes where it cannot be followed.
//
// Each condition maps to where the last of its if statements ends: what
// it names must not change from the warm-up to there (guardedWarmUp).
func (a *analysis) measurementGuards(fn *cudaparse.Function, r cudaparse.TimedRegion) map[string]int {
	seed := a.measuredVariable(fn, r)
	if seed == "" || !localVariable(fn, seed) {
		return nil
	}
	sinks := measurementSinks(fn, seed)
	if len(sinks) == 0 {
		return nil
	}
	var common map[string]int
	for k, s := range sinks {
		guards := map[string]int{}
		for stmt := enclosingThen(s); stmt.Valid(); stmt = enclosingThen(stmt) {
			if c := conditionText(stmt); c != "" {
				guards[c] = stmt.End()
			}
		}
		if k == 0 {
			common = guards
			continue
		}
		for c, end := range common {
			if e, ok := guards[c]; !ok {
				delete(common, c)
			} else {
				common[c] = max(end, e)
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

// conditionText returns the condition of the if statement stmt without
// blanks and outer parentheses, when it is a plain test of variables
// (`perf`, `!quiet`, `cfg.warmup`, `verbose > 1`): no call, no assignment,
// nothing whose value a run could change by evaluating it.
func conditionText(stmt cudaparse.Node) string {
	cond := stmt.ChildByField("condition")
	if cond.Is("condition_clause") {
		if v := cond.ChildByField("value"); v.Valid() {
			cond = v
		} else {
			return "" // `if (T x = ...)`: a declaration
		}
	}
	cond = cond.Unparen()
	plain := true
	cond.Descendants(func(n cudaparse.Node) bool {
		if n.Is("call_expression", "assignment_expression", "update_expression", "lambda_expression", "comma_expression") {
			plain = false
		}
		return plain
	})
	if !plain {
		return ""
	}
	return strings.Join(strings.Fields(cond.Text()), "")
}

// guardedWarmUp reports whether the earlier use e runs, whenever one of
// guards holds, before at: e lies in the then-branch of an if statement
// with that condition, with no other branch or loop between them, that
// statement runs before at on every path, and nothing assigns a variable
// of the condition from that statement to the reads the guard holds.
func guardedWarmUp(fn *cudaparse.Function, e kernelUse, at cudaparse.Node, guards map[string]int) bool {
	stmt := enclosingThen(e.at())
	if !stmt.Valid() {
		return false
	}
	c := conditionText(stmt)
	readsEnd, ok := guards[c]
	if c == "" || !ok || !cudaparse.OnTheWay(stmt, at) {
		return false
	}
	// Between e and the branch's start: blocks and plain statements only.
	for x := e.at().Parent(); x.Valid() && x != stmt; x = x.Parent() {
		if x.Is("if_statement", "for_statement", "for_range_loop", "while_statement", "do_statement", "switch_statement", "conditional_expression", "lambda_expression", "try_statement", "catch_clause") {
			return false
		}
	}
	return !assignsBetween(fn, stmt.ChildByField("condition"), stmt.End(), readsEnd)
}

// assignsBetween reports whether fn assigns, between the offsets from and
// to, one of the variables cond names.
func assignsBetween(fn *cudaparse.Function, cond cudaparse.Node, from, to int) bool {
	names := map[string]bool{}
	cond.Descendants(func(n cudaparse.Node) bool {
		if n.Is("identifier") {
			names[n.Text()] = true
		}
		return true
	})
	assigned := false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if assigned || n.End() <= from || n.Start() >= to {
			return !assigned && n.Start() < to
		}
		var target cudaparse.Node
		switch {
		case n.Is("assignment_expression"):
			target = n.ChildByField("left")
		case n.Is("update_expression"):
			target = n.ChildByField("argument")
		default:
			return true
		}
		target.Descendants(func(x cudaparse.Node) bool {
			if x.Is("identifier") && names[x.Text()] {
				assigned = true
			}
			return !assigned
		})
		return !assigned
	})
	return assigned
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
			if (e.all || containsKernel(e.launched, key) || containsKernel(e.preloaded, key)) && guardedWarmUp(fn, e, at, guards) {
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

package cudaparse

import "strings"

// The first iteration of a counted loop: a condition on the loop's variable
// can be decided there when the loop starts it at a constant. `step % every
// == 0` holds at step 0 whatever every is; `step > 0` does not.

// FirstIteration is what a for loop's first iteration binds: its variable
// and the constant it starts at.
type FirstIteration struct {
	Loop  Node
	Var   string
	Value float64
}

// FirstIterationOf returns the innermost for loop holding n, within n's
// function or lambda, when that loop starts its variable at a constant
// (`for (int i = 0; ...)`, `for (i = 1; ...)`) and its body assigns the
// variable nowhere before n (the update clause aside).
func FirstIterationOf(n Node) (FirstIteration, bool) {
	it, ok := firstIterationCandidate(n)
	if !ok || assignedBefore(it.Loop.ChildByField("body"), it.Var, n) {
		return FirstIteration{}, false
	}
	return it, true
}

// firstIterationCandidate is FirstIterationOf without the walk over the
// body for assignments, the costly part: callers that can rule the loop
// out by the condition alone ask this first.
func firstIterationCandidate(n Node) (FirstIteration, bool) {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "function_definition", "lambda_expression":
			return FirstIteration{}, false
		case "while_statement", "do_statement", "for_range_loop":
			return FirstIteration{}, false
		case "for_statement":
			if !p.ChildByField("body").Contains(n) {
				return FirstIteration{}, false // n is the loop's own condition or update
			}
			v, start, ok := loopStart(p)
			if !ok {
				return FirstIteration{}, false
			}
			return FirstIteration{Loop: p, Var: v, Value: start}, true
		}
	}
	return FirstIteration{}, false
}

// loopStart returns the variable a for loop's initializer sets and the
// constant it sets it to.
func loopStart(loop Node) (string, float64, bool) {
	f := loop.File()
	init := loop.ChildByField("initializer")
	var name string
	var value Node
	switch {
	case init.Is("declaration"):
		d := init.ChildByField("declarator")
		if !d.Is("init_declarator") || len(init.ChildrenByField("declarator")) != 1 {
			return "", 0, false
		}
		name, value = declaredName(d.ChildByField("declarator")), d.ChildByField("value")
	case init.Is("assignment_expression") && init.ChildByField("operator").Text() == "=":
		name, value = VarKey(init.ChildByField("left")), init.ChildByField("right")
	default:
		return "", 0, false
	}
	if name == "" || !value.Valid() {
		return "", 0, false
	}
	x, ok := f.ConstValue(value)
	return name, x, ok
}

// assignedBefore reports whether body assigns v (=, op=, ++, --, &v passed
// to a call) before the offset of n.
func assignedBefore(body Node, v string, n Node) bool {
	found := false
	body.Descendants(func(x Node) bool {
		if found || x.Start() >= n.Start() {
			return false
		}
		var target Node
		switch {
		case x.Is("assignment_expression"):
			target = x.ChildByField("left")
		case x.Is("update_expression"):
			target = x.ChildByField("argument")
		case x.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(x.Text()), "&"):
			target = x.ChildByField("argument")
		}
		if target.Valid() && VarKey(target) == v {
			found = true
		}
		return !found
	})
	return found
}

// Holds evaluates a condition at the loop's first iteration: (true, true)
// when it holds there, (false, true) when it does not, (_, false) when the
// condition depends on something else. Only the loop's variable, constants,
// arithmetic, comparisons and ! && || are followed.
func (it FirstIteration) Holds(cond Node) (value, known bool) {
	cond = cond.Unparen()
	if cond.Is("condition_clause") {
		if v := cond.ChildByField("value"); v.Valid() {
			return it.Holds(v)
		}
		kids := cond.NamedChildren()
		if len(kids) != 1 {
			return false, false
		}
		return it.Holds(kids[0])
	}
	switch {
	case cond.Is("unary_expression") && strings.TrimSpace(cond.ChildByField("operator").Text()) == "!":
		v, ok := it.Holds(cond.ChildByField("argument"))
		return !v, ok
	case cond.Is("binary_expression"):
		op := strings.TrimSpace(cond.ChildByField("operator").Text())
		switch op {
		case "||", "&&":
			a, okA := it.Holds(cond.ChildByField("left"))
			b, okB := it.Holds(cond.ChildByField("right"))
			short := op == "||" // the value that decides alone
			if okA && a == short || okB && b == short {
				return short, true
			}
			if okA && okB {
				return !short, true
			}
			return false, false
		case "==", "!=", "<", "<=", ">", ">=":
			a, okA := it.value(cond.ChildByField("left"))
			b, okB := it.value(cond.ChildByField("right"))
			if !okA || !okB {
				return false, false
			}
			return compare(op, a, b), true
		}
	}
	x, ok := it.value(cond)
	return x != 0, ok
}

// value is the number n has at the loop's first iteration.
func (it FirstIteration) value(n Node) (float64, bool) {
	n = n.Unparen()
	if VarKey(n) == it.Var {
		return it.Value, true
	}
	if n.Is("binary_expression") {
		op := strings.TrimSpace(n.ChildByField("operator").Text())
		a, okA := it.value(n.ChildByField("left"))
		if okA && a == 0 && (op == "%" || op == "*" || op == "/" || op == "&") {
			return 0, true // 0 % x, 0 * x: whatever x is
		}
		b, okB := it.value(n.ChildByField("right"))
		if okB && b == 0 && (op == "*" || op == "&") {
			return 0, true
		}
		if okA && okB {
			return applyOp(op, a, b)
		}
		return 0, false
	}
	return n.File().ConstValue(n)
}

func compare(op string, a, b float64) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

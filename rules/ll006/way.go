package ll006

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// surelyRunsBefore reports whether d, which ends before use in the same
// function, runs on every path that reaches use. Conservative, unlike
// cudaparse.OnTheWay: a loop body may run zero times, so an initialization
// inside one counts only for a query in the same loop; branches (if,
// switch, ?:, the right side of && and ||, catch) count only when they also
// hold use, or when use sits in the same branch of another if with the same
// condition. A lambda's body runs where it is written only when it is
// invoked on the spot or handed to std::call_once.
func surelyRunsBefore(d, use cudaparse.Node) bool {
	from := d
	for p := d.Parent(); p.Valid(); from, p = p, p.Parent() {
		if p.Contains(use) {
			return true
		}
		switch p.Kind() {
		case "function_definition":
			return false // use is in another function
		case "if_statement":
			if from.Field() != "condition" && !cudaparse.SameBranchElsewhere(p, from, use) {
				return false
			}
		case "while_statement":
			if from.Field() == "body" && !alwaysTrue(p.ChildByField("condition")) {
				return false
			}
		case "for_statement":
			switch from.Field() {
			case "initializer", "condition":
			case "body":
				if !firstIterationRuns(p) {
					return false
				}
			default: // the update runs only after a first pass through the body
				return false
			}
		case "for_range_loop":
			if from.Field() != "right" {
				return false
			}
		case "do_statement":
			// The body runs at least once.
		case "switch_statement", "case_statement", "catch_clause":
			if from.Field() != "condition" {
				return false
			}
		case "conditional_expression":
			if from.Field() != "condition" {
				return false
			}
		case "binary_expression":
			op := strings.TrimSpace(p.ChildByField("operator").Text())
			if (op == "&&" || op == "||" || op == "and" || op == "or") && from.Field() == "right" {
				return false
			}
		case "lambda_expression":
			if !cudaparse.RunsInPlace(p) {
				return false
			}
		}
	}
	return false
}

// alwaysTrue reports whether a loop condition is a nonzero constant:
// while (1), while (true), for (;1;).
func alwaysTrue(cond cudaparse.Node) bool {
	for cond.Is("condition_clause") {
		cond = cond.ChildByField("value")
	}
	v, ok := cond.File().ConstValue(cond)
	return ok && v != 0
}

// firstIterationRuns reports whether a for loop surely runs its body once:
// no condition, a constant true one, or a counter that starts inside its
// bound (for (int attempt = 0; attempt < 3; ++attempt), a retry loop).
func firstIterationRuns(loop cudaparse.Node) bool {
	cond := loop.ChildByField("condition")
	if !cond.Valid() || alwaysTrue(cond) {
		return true
	}
	if !cond.Is("binary_expression") {
		return false
	}
	counter := cond.ChildByField("left")
	start, ok := counterStart(loop.ChildByField("initializer"), counter.Text())
	if !ok || !counter.Is("identifier") {
		return false
	}
	bound, ok := cond.File().ConstValue(cond.ChildByField("right"))
	if !ok {
		return false
	}
	switch strings.TrimSpace(cond.ChildByField("operator").Text()) {
	case "<":
		return start < bound
	case "<=":
		return start <= bound
	case ">":
		return start > bound
	case ">=":
		return start >= bound
	case "!=":
		return start != bound
	}
	return false
}

// counterStart returns the constant a for loop's initializer gives the
// counter: int i = 0, or i = 0.
func counterStart(init cudaparse.Node, counter string) (float64, bool) {
	var value cudaparse.Node
	switch {
	case init.Is("declaration"):
		for _, d := range init.ChildrenByField("declarator") {
			if d.Is("init_declarator") && d.ChildByField("declarator").Text() == counter {
				value = d.ChildByField("value")
			}
		}
	case init.Is("assignment_expression") && init.ChildByField("left").Text() == counter:
		value = init.ChildByField("right")
	}
	if !value.Valid() {
		return 0, false
	}
	return init.File().ConstValue(value)
}

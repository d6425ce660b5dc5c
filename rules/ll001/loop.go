package ll001

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// allocatesUntilFailure reports whether the allocation c runs in a loop that
// only ends when an allocation fails: the loop condition continues while
// the allocation succeeds, or the loop breaks out when it fails.
func allocatesUntilFailure(c *cudaparse.Call) (cudaparse.Node, bool) {
	return loopEndsOn(c, continuesOnSuccess, testsFailure)
}

// loopEndsOn finds the loop around allocation c and reports whether it
// runs while keeps(condition) holds, or leaves through `if (cond) break;`
// with leaves(cond): both asked of the allocation's result (the call
// itself, through a checking macro, or the variable it is stored in).
func loopEndsOn(c *cudaparse.Call, keeps, leaves func(cudaparse.Node, func(cudaparse.Node) bool) bool) (cudaparse.Node, bool) {
	loop := c.Node.Ancestor("while_statement", "for_statement", "do_statement", "function_definition", "lambda_expression")
	if !loop.Is("while_statement", "for_statement", "do_statement") {
		return cudaparse.Node{}, false
	}
	// The allocation's result: the call itself, or the variable it is
	// assigned to (err = cudaMalloc(...); cudaError_t err = cudaMalloc(...)).
	result := resultVariable(c)
	tests := func(n cudaparse.Node) bool {
		n = n.Unparen()
		// Through a checking macro: CUDA_TRY(cudaMalloc(...)) == cudaSuccess.
		for n.Is("call_expression") && n != c.Node {
			args := n.ChildByField("arguments").NamedChildren()
			if len(args) != 1 || !args[0].Contains(c.Node) {
				break
			}
			n = args[0].Unparen()
		}
		return n == c.Node || result != "" && cudaparse.VarKey(n) == result
	}
	if cond := loop.ChildByField("condition"); cond.Valid() && keeps(cond, tests) {
		return loop, true
	}
	found := false
	loop.ChildByField("body").Descendants(func(n cudaparse.Node) bool {
		if found || n.Is("while_statement", "for_statement", "do_statement", "switch_statement", "lambda_expression") {
			return false
		}
		if n.Is("if_statement") && leaves(n.ChildByField("condition"), tests) && breaksOut(n.ChildByField("consequence")) {
			found = true
		}
		return true
	})
	return loop, found
}

// resultVariable returns the variable an allocation's status is stored in.
func resultVariable(c *cudaparse.Call) string {
	p := c.Node.Parent()
	for p.Is("parenthesized_expression") {
		p = p.Parent()
	}
	switch {
	case p.Is("assignment_expression") && p.ChildByField("right").Unparen() == c.Node:
		return cudaparse.VarKey(p.ChildByField("left"))
	case p.Is("init_declarator"):
		return cudaparse.VarKey(p.ChildByField("declarator"))
	}
	return ""
}

func isSuccess(n cudaparse.Node) bool {
	switch strings.TrimSpace(n.Unparen().Text()) {
	case "cudaSuccess", "CUDA_SUCCESS", "0", "::cudaSuccess":
		return true
	}
	return false
}

func isOutOfMemory(n cudaparse.Node) bool {
	switch strings.TrimSpace(n.Unparen().Text()) {
	case "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "::cudaErrorMemoryAllocation":
		return true
	}
	return false
}

// continuesOnSuccess reports whether a loop condition holds while the
// tested allocation succeeds: `r == cudaSuccess`, `!r`, or a conjunction
// containing one.
func continuesOnSuccess(cond cudaparse.Node, tests func(cudaparse.Node) bool) bool {
	cond = unwrapCondition(cond)
	switch cond.Kind() {
	case "binary_expression":
		l, r := cond.ChildByField("left"), cond.ChildByField("right")
		switch strings.TrimSpace(cond.ChildByField("operator").Text()) {
		case "==":
			return tests(l) && isSuccess(r) || tests(r) && isSuccess(l)
		case "!=":
			return tests(l) && isOutOfMemory(r) || tests(r) && isOutOfMemory(l)
		case "&&":
			return continuesOnSuccess(l, tests) || continuesOnSuccess(r, tests)
		}
	case "unary_expression":
		return strings.TrimSpace(cond.ChildByField("operator").Text()) == "!" && tests(cond.ChildByField("argument"))
	}
	return false
}

// testsFailure reports whether an if condition holds when the tested
// allocation fails: `r != cudaSuccess`, `r`, `r == cudaErrorMemoryAllocation`.
func testsFailure(cond cudaparse.Node, tests func(cudaparse.Node) bool) bool {
	cond = unwrapCondition(cond)
	if tests(cond) {
		return true
	}
	switch cond.Kind() {
	case "binary_expression":
		l, r := cond.ChildByField("left"), cond.ChildByField("right")
		switch strings.TrimSpace(cond.ChildByField("operator").Text()) {
		case "!=":
			return tests(l) && isSuccess(r) || tests(r) && isSuccess(l)
		case "==":
			return tests(l) && isOutOfMemory(r) || tests(r) && isOutOfMemory(l)
		case "||":
			return testsFailure(l, tests) || testsFailure(r, tests)
		}
	}
	return false
}

func unwrapCondition(n cudaparse.Node) cudaparse.Node {
	for n.Is("condition_clause", "parenthesized_expression") {
		if v := n.ChildByField("value"); v.Valid() {
			n = v
			continue
		}
		kids := n.NamedChildren()
		if len(kids) != 1 {
			break
		}
		n = kids[0]
	}
	return n.Unparen()
}

// breaksOut reports whether a statement leaves the loop with break (not
// return, throw or exit: those are error handling, not a loop end).
func breaksOut(n cudaparse.Node) bool {
	if n.Is("break_statement") {
		return true
	}
	if n.Is("compound_statement") {
		for _, s := range n.NamedChildren() {
			if s.Is("break_statement") {
				return true
			}
		}
	}
	return false
}

// allocatesUntilSuccess reports whether the allocation c runs in a loop
// that ends once an allocation succeeds and otherwise retries (with a
// smaller size): `while (cudaMalloc(&p, size) != cudaSuccess) size -= step;`
// or `for (;;) { if (cudaMalloc(&p, size) == cudaSuccess) break; size /= 2; }`.
// Started from free memory, it takes whatever is free.
func allocatesUntilSuccess(c *cudaparse.Call) (cudaparse.Node, bool) {
	return loopEndsOn(c, testsFailure, continuesOnSuccess)
}

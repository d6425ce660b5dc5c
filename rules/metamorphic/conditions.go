package metamorphic

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// swapConjuncts: a && b -> b && a, and a || b -> b || a, where neither side
// changes anything, so that neither the order nor the short circuit can
// matter: no assignment, increment or decrement, and no call but reads
// (an atomic that adds 0, an atomic or cache-bypassing load, a clock).
// `cuInit(0) == CUDA_SUCCESS && ok` is not `ok && cuInit(0) == ...`: the
// second may never initialize. Operands of the same operator need no
// parentheses either way: && and || associate to the left, and a right
// operand binds tighter than its operator.
func swapConjuncts(fx *fixture) []candidate {
	return fx.eachSite("binary_expression", func(path string, n cudaparse.Node) *rewrite {
		op := n.ChildByField("operator").Text()
		if op != "&&" && op != "||" {
			return nil
		}
		left, right := n.ChildByField("left"), n.ChildByField("right")
		if !left.Valid() || !right.Valid() || changesState(left) || changesState(right) {
			return nil
		}
		rw := newRewrite(fx.files)
		rw.replace(path, left.Start(), right.End(),
			cp(path, right.Start(), right.End()), lit(" "+op+" "), cp(path, left.Start(), left.End()))
		return rw
	})
}

// changesState reports whether evaluating n may change anything: an
// assignment, increment or decrement, or a call that is not a read.
func changesState(n cudaparse.Node) bool {
	found := false
	n.Descendants(func(d cudaparse.Node) bool {
		switch {
		case d.Is("assignment_expression", "update_expression"):
			found = true
		case d.Is("call_expression"):
			found = !readCall(d)
		}
		return !found
	})
	return found
}

// readOnlyCalls are calls that only read memory or a clock.
var readOnlyCalls = regexp.MustCompile(`^(__ld[a-z]*|__atomic_load_n|__atomic_load|atomic_load(_explicit)?|load|clock|clock64|globaltimer|volatile_load|ld_acquire[a-z_]*|load_acquire[a-z_]*)$`)

// readCall reports whether the call only reads: one of readOnlyCalls, or
// an atomic read-modify-write that changes nothing (atomicAdd(p, 0),
// atomicOr(p, 0), atomicCAS(p, v, v)).
func readCall(call cudaparse.Node) bool {
	name := call.ChildByField("function").Text()
	if i := strings.LastIndexAny(name, ".>:"); i >= 0 {
		name = name[i+1:]
	}
	args := call.ChildByField("arguments").NamedChildren()
	switch {
	case knowledge.NoOpAtomics[name]:
		return len(args) == 2 && args[1].Text() == "0"
	case strings.HasPrefix(name, "atomicCAS"):
		return len(args) == 3 && args[1].Text() == args[2].Text()
	}
	return readOnlyCalls.MatchString(name)
}

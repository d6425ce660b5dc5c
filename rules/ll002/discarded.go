package ll002

import (
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// A measurement nobody sees misleads nobody: the elapsed time a region
// yields must reach something that shows or keeps it (a print, a return, a
// comparison, a call, memory other than a local) for a first launch in it
// to matter. And where the loop around the region keeps only the samples
// of its later iterations (`if (i > 0) total += ms;`), the first
// iteration, which holds the loads, is a warm-up written into the loop.

// sampleDiscarded reports whether what r measures is never used, or is
// used only from iterations after the first of the loop that holds r,
// whose first iteration runs the launch at (the first launch, which is
// then not in any sample kept).
func (a *analysis) sampleDiscarded(fn *cudaparse.Function, r cudaparse.TimedRegion, at cudaparse.Node) bool {
	if unpairedReads(fn, r) || differenceOnly(fn, r) || a.stopwatchUnread(r) {
		return true
	}
	seed := a.measuredVariable(fn, r)
	if keptAsMinimum(fn, r, seed) {
		return true
	}
	var first *cudaparse.FirstIteration
	if it, ok := cudaparse.FirstIterationOf(r.Start); ok && it.Loop.Contains(r.Stop) && (cudaparse.OnTheWay(at, r.Stop) || sameEveryIteration(at, it.Loop)) {
		first = &it
	}
	if seed == "" && first != nil && timerReadOnlyLater(fn, r, *first) {
		return true
	}
	if seed == "" || !localVariable(fn, seed) {
		return false // not known where the measurement goes
	}
	return !a.reachesSink(fn, seed, r, first)
}

// sameEveryIteration reports whether every branch of loop that holds at
// takes the same way in every iteration: its condition reads only
// variables the loop does not write and calls nothing (`if (grid_size > 1)`
// around a second kernel). The loop's first iteration then runs at when
// any iteration does.
func sameEveryIteration(at, loop cudaparse.Node) bool {
	var conditions []cudaparse.Node
	for x, p := at, at.Parent(); p.Valid() && p != loop; x, p = p, p.Parent() {
		switch {
		case p.Is("if_statement", "switch_statement", "while_statement", "do_statement"):
			conditions = append(conditions, p.ChildByField("condition"))
		case p.Is("conditional_expression") && x.Field() != "condition":
			conditions = append(conditions, p.ChildByField("condition"))
		case p.Is("for_statement", "for_range_loop", "lambda_expression"):
			return false
		}
	}
	read := map[string]bool{}
	for _, c := range conditions {
		calls := false
		c.Descendants(func(n cudaparse.Node) bool {
			switch {
			case n.Is("call_expression"):
				calls = true
			case n.Is("identifier"):
				read[n.Text()] = true
			}
			return !calls
		})
		if calls {
			return false
		}
	}
	written := false
	loop.Descendants(func(n cudaparse.Node) bool {
		var target cudaparse.Node
		switch {
		case n.Is("assignment_expression"):
			target = n.ChildByField("left")
		case n.Is("update_expression"):
			target = n.ChildByField("argument")
		case n.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(n.Text()), "&"):
			target = n.ChildByField("argument") // handed to a call that may write it
		case n.Is("init_declarator"):
			target = n.ChildByField("declarator")
		}
		// opts.n = 2, a[i]++: what is written is the variable under it.
		for target = target.Unparen(); target.Is("field_expression", "subscript_expression", "pointer_expression"); {
			target = target.ChildByField("argument").Unparen()
		}
		if target.Is("identifier") && read[target.Text()] {
			written = true
		}
		return !written
	})
	return !written
}

// timerReadOnlyLater reports whether r ends at the stop of a timer object
// (`gpu_timer.Stop()`) whose measurement its function reads only in the
// loop holding r, under a branch the loop's first iteration does not take
// (`if (i > 0) elapsed += gpu_timer.ElapsedMillis();`): a read is a call
// of one of the object's methods whose value is used. An object handed to
// a call, or read after the loop, may show the first sample.
func timerReadOnlyLater(fn *cudaparse.Function, r cudaparse.TimedRegion, first cudaparse.FirstIteration) bool {
	callee := r.Stop.ChildByField("function")
	if !r.Stop.Is("call_expression") || !callee.Is("field_expression") {
		return false
	}
	obj := callee.ChildByField("argument")
	if !obj.Is("identifier") {
		return false
	}
	reads, elsewhere := 0, false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if elsewhere || !n.Is("identifier") || n.Text() != obj.Text() || n.Start() < r.Stop.End() {
			return !elsewhere
		}
		method := n.Parent()
		call := method.Parent()
		switch {
		case !method.Is("field_expression") || n.Field() != "argument" || !call.Is("call_expression"):
			elsewhere = true // handed on, or its address taken
		case call.Parent().Is("expression_statement"):
			// obj.Start(), obj.Stop(): no value read
		case !first.Loop.Contains(call) || !excludedOnFirstIteration(call, first):
			elsewhere = true
		default:
			reads++
		}
		return !elsewhere
	})
	return !elsewhere && reads > 0
}

// stopwatchUnread reports whether r ends at the stop of a stopwatch local
// to its function (`sdkStopTimer(&timer)`) whose value the function never
// reads (`sdkGetTimerValue(&timer)`) nor hands on: started and stopped
// around a section for a profiler, or left over, it measures for nobody.
// A stopwatch of a parameter or a global may be read by others.
func (a *analysis) stopwatchUnread(r cudaparse.TimedRegion) bool {
	stop := a.callAt(r.Stop)
	if stop == nil || !knowledge.StopwatchStops[stop.Name] || len(stop.Args) == 0 {
		return false
	}
	fn := r.Func
	timer := stopwatchArg(stop.Args[0])
	if timer == "" || fn == nil || !declaredInBody(fn, timer, true) {
		return false
	}
	for _, c := range a.file.Calls {
		if c.Func != fn || len(c.Args) == 0 {
			continue
		}
		if knowledge.TimerValueReads[c.Name] && stopwatchArg(c.Args[0]) == timer {
			return false
		}
		if !strings.HasPrefix(c.Name, "sdk") && !strings.HasPrefix(c.Name, "cut") && slices.ContainsFunc(c.Args, func(x cudaparse.Node) bool { return stopwatchArg(x) == timer }) {
			return false // handed to a function that may read it
		}
	}
	return true
}

// stopwatchArg is the stopwatch variable a call names: `&timer` or `timer`.
func stopwatchArg(n cudaparse.Node) string {
	if v := addressOf(n); v != "" {
		return v
	}
	if n.Unparen().Is("identifier", "field_expression") {
		return cudaparse.VarKey(n.Unparen())
	}
	return ""
}

// keptAsMinimum reports whether r, timed in a loop, keeps its measurement
// only as a running minimum (`best = std::min(best, timer.seconds())`, or
// `ms` of an event pair going only into `best = fmin(best, ms)`): STREAM's
// convention. The first iteration's sample, which holds the loads, is the
// slowest and never the one kept.
func keptAsMinimum(fn *cudaparse.Function, r cudaparse.TimedRegion, seed string) bool {
	if !inOneLoop(r) {
		return false
	}
	if r.Clock == cudaparse.ClockHost && runningMinimumAt(r.Stop) {
		return true
	}
	if seed == "" {
		return false
	}
	reads, kept := 0, 0
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if n.Is("identifier") && n.Text() == seed && isRead(n) {
			reads++
			if runningMinimumAt(n) {
				kept++
			}
		}
		return true
	})
	return reads > 0 && kept == reads
}

// inOneLoop reports whether a loop holds both ends of r.
func inOneLoop(r cudaparse.TimedRegion) bool {
	for p := r.Start.Parent(); p.Valid() && !p.Is("function_definition", "lambda_expression"); p = p.Parent() {
		if p.Is("for_statement", "while_statement", "do_statement", "for_range_loop") {
			return p.Contains(r.Stop)
		}
	}
	return false
}

// minimumFunctions keep the smaller of their arguments.
var minimumFunctions = map[string]bool{"min": true, "fmin": true, "fminf": true}

// runningMinimumAt reports whether the value of n (through arithmetic,
// casts and conversions) is an argument of `v = min(v, ...)`.
func runningMinimumAt(n cudaparse.Node) bool {
	x := n
	for p := x.Parent(); p.Valid(); x, p = p, p.Parent() {
		switch {
		case p.Is("parenthesized_expression", "binary_expression", "cast_expression", "field_expression"):
			continue
		case p.Is("call_expression") && x.Field() == "function":
			continue // timer.seconds(): the call's value
		case p.Is("argument_list"):
			call := p.Parent()
			name := call.ChildByField("function").Name()
			if valueFunctions[name] && !minimumFunctions[name] {
				p = call // duration_cast<...>(...).count() and the like: on from the call
				continue
			}
			if !minimumFunctions[name] {
				return false
			}
			assign := call.Parent()
			if !assign.Is("assignment_expression") || strings.TrimSpace(assign.ChildByField("operator").Text()) != "=" {
				return false
			}
			v := cudaparse.VarKey(assign.ChildByField("left"))
			for _, a := range p.NamedChildren() {
				if a.Start() != x.Start() && cudaparse.VarKey(a.Unparen()) == v && v != "" {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// differenceOnly reports whether r runs from a host clock read that ends
// an interval in place to one that starts the next in the same variable:
// `t = (get_time() - t) / repeat;` keeps only the difference, destroying
// the start, and `t = get_time();` starts again, so what lies between is
// timed by nobody (taichi's gpu_memory_bound.cu warm-up loop, in batch H).
// The next interval may start in another variable (`s->t_setup =
// now() - s->t_setup;` then `s->t_fact = now();`, SuperLU's statistics):
// one that the function only ever subtracts from a later read is a start.
// A read subtracted from a start that survives it (`now() - t0` in a
// time-window loop's condition) still ends intervals from t0: not this.
func differenceOnly(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	if r.Clock != cudaparse.ClockHost || !r.Start.Is("call_expression") || !r.Stop.Is("call_expression") {
		return false
	}
	n := r.Start
	p := n.Parent()
	for p.Is("parenthesized_expression") {
		n, p = p, p.Parent()
	}
	if !p.Is("binary_expression") || strings.TrimSpace(p.ChildByField("operator").Text()) != "-" || p.ChildByField("left").Start() != n.Start() {
		return false
	}
	start := cudaparse.VarKey(p.ChildByField("right").Unparen())
	if start == "" || assignedBy(r.Start) != start {
		return false
	}
	restart := r.Stop.Parent()
	if !restart.Is("assignment_expression", "init_declarator") {
		return false
	}
	next := assignedBy(r.Stop)
	return next == start || next != "" && onlyStart(fn, next, r.Stop)
}

// onlyStart reports whether the function subtracts the variable v (a
// VarKey) from something after the read at, and subtracts nothing from
// it: v holds the start of an interval, not its end.
func onlyStart(fn *cudaparse.Function, v string, at cudaparse.Node) bool {
	subtrahend, minuend := false, false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if minuend || !n.Is("binary_expression") || strings.TrimSpace(n.ChildByField("operator").Text()) != "-" || n.Start() < at.End() {
			return !minuend
		}
		if cudaparse.VarKey(n.ChildByField("left").Unparen()) == v {
			minuend = true
		}
		if cudaparse.VarKey(n.ChildByField("right").Unparen()) == v {
			subtrahend = true
		}
		return true
	})
	return subtrahend && !minuend
}

// unpairedReads reports whether r lies between two host clock reads kept
// in two local variables that no statement of fn ever combines: the end of
// one measured interval and the start of the next (`end = now()` of one
// block, `start = now()` of a later one), which measure nothing together.
func unpairedReads(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	if r.Clock != cudaparse.ClockHost || !r.Start.Is("call_expression") || !r.Stop.Is("call_expression") {
		return false
	}
	from, to := assignedBy(r.Start), assignedBy(r.Stop)
	if from == "" || to == "" || from == to || !localVariable(fn, from) || !localVariable(fn, to) {
		return false
	}
	// Each variable is known where its declaration's block reaches: the
	// `end` of a later block is another variable of the same name.
	fromScope, toScope := declarationBlock(fn, r.Start), declarationBlock(fn, r.Stop)
	froms := copiesOf(fn, from)
	paired := false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if paired {
			return false
		}
		if !n.Is("expression_statement", "declaration", "return_statement", "condition_clause") {
			return true
		}
		if fromScope.Contains(n) && toScope.Contains(n) && mentionsAny(n, froms) && mentions(n, to) && n.End() >= r.Stop.End() {
			paired = true
		}
		return !n.Is("expression_statement", "declaration", "return_statement")
	})
	// Unpaired only when each read is shown to pair with another one (its
	// own interval's `end - start`, `elapsed(start, end)`): timestamps kept
	// apart (stored in two arrays) may still be combined elsewhere.
	return !paired && combinedInBlock(fromScope, froms) && combinedInBlock(toScope, map[string]bool{to: true})
}

// combinedInBlock reports whether block subtracts one of vars from
// something, or something from it, or passes it to a call with other
// arguments: it is one end of some interval.
func combinedInBlock(block cudaparse.Node, vars map[string]bool) bool {
	found := false
	block.Descendants(func(n cudaparse.Node) bool {
		if found {
			return false
		}
		if n.Is("identifier") && vars[n.Text()] {
			p := n.Parent()
			found = p.Is("binary_expression") && strings.TrimSpace(p.ChildByField("operator").Text()) == "-" ||
				p.Is("argument_list") && len(p.NamedChildren()) >= 2
		}
		return true
	})
	return found
}

// copiesOf returns v and the local variables that copy it, directly or
// not (`t_phase = t_now;`: the previous read kept as the next start).
func copiesOf(fn *cudaparse.Function, v string) map[string]bool {
	out := map[string]bool{v: true}
	for changed := true; changed; {
		changed = false
		fn.Body.Descendants(func(n cudaparse.Node) bool {
			var left, right cudaparse.Node
			switch {
			case n.Is("assignment_expression") && strings.TrimSpace(n.ChildByField("operator").Text()) == "=":
				left, right = n.ChildByField("left"), n.ChildByField("right")
			case n.Is("init_declarator"):
				left, right = n.ChildByField("declarator"), n.ChildByField("value")
			default:
				return true
			}
			if right.Is("identifier") && out[right.Text()] && left.Is("identifier") && !out[left.Text()] {
				out[left.Text()] = true
				changed = true
			}
			return true
		})
	}
	return out
}

// declarationBlock returns the block that declares the variable the clock
// read sets (`auto t = now()` in it), or fn's body when the read assigns a
// variable declared elsewhere.
func declarationBlock(fn *cudaparse.Function, read cudaparse.Node) cudaparse.Node {
	for p := read.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("assignment_expression", "expression_statement") {
			break
		}
		if p.Is("declaration") {
			if b := p.Parent(); b.Is("compound_statement") {
				return b
			}
			break
		}
	}
	return fn.Body
}

// measuredVariable returns the local variable that receives what r
// measures: the first argument of the cudaEventElapsedTime that pairs r's
// events, or the variable r's stopping read is stored in or computed into
// (`auto t1 = now();`). "" when there is none, or it is not a variable.
func (a *analysis) measuredVariable(fn *cudaparse.Function, r cudaparse.TimedRegion) string {
	if r.Clock != cudaparse.ClockEvent {
		if !r.Stop.Is("call_expression") {
			return ""
		}
		return assignedBy(r.Stop)
	}
	start, stop := a.callAt(r.Start), a.callAt(r.Stop)
	if start == nil || stop == nil || len(start.Args) == 0 || len(stop.Args) == 0 {
		return ""
	}
	for _, c := range a.file.Calls {
		if c.Func != fn || !knowledge.IsEventElapsed(c.Name) || len(c.Args) < 3 || c.Node.Start() < r.Stop.End() {
			continue
		}
		if cudaparse.VarKey(c.Args[1]) == cudaparse.VarKey(start.Args[0]) && cudaparse.VarKey(c.Args[2]) == cudaparse.VarKey(stop.Args[0]) {
			return addressOf(c.Args[0])
		}
	}
	return ""
}

func (a *analysis) callAt(n cudaparse.Node) *cudaparse.Call {
	for _, c := range a.file.Calls {
		if c.Node == n {
			return c
		}
	}
	return nil
}

// localVariable reports whether fn's body declares v (not a parameter, a
// member or a global, which others read).
func localVariable(fn *cudaparse.Function, v string) bool {
	return !strings.Contains(v, ".") && declaredInBody(fn, v, false)
}

// declaredInBody reports whether fn's body declares v: by its name as a
// declaration's declarator, or, with throughDeclarators, under pointer,
// reference and array declarators too (`T *v = ...`).
func declaredInBody(fn *cudaparse.Function, v string, throughDeclarators bool) bool {
	found := false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if found || !n.Is("identifier") || n.Text() != v {
			return !found
		}
		for p, x := n.Parent(), n; p.Valid() && x.Field() == "declarator"; p, x = p.Parent(), p {
			if p.Is("init_declarator", "declaration") {
				found = true
				break
			}
			if !throughDeclarators || !p.Is("pointer_declarator", "reference_declarator", "array_declarator") {
				break
			}
		}
		return !found
	})
	return found
}

// reachesSink follows the measurement from seed through the local
// variables computed from it (`ms2 = ms / iters`, `total += ms`) and
// reports whether some read of them shows or keeps it. With first set,
// reads under a branch that the loop's first iteration does not take (or
// after a `continue` it takes) carry only later samples and are skipped.
func (a *analysis) reachesSink(fn *cudaparse.Function, seed string, r cudaparse.TimedRegion, first *cudaparse.FirstIteration) bool {
	var skip func(cudaparse.Node) bool
	if first != nil {
		skip = func(n cudaparse.Node) bool { return excludedOnFirstIteration(n, *first) }
	}
	found := false
	eachSink(fn, seed, skip, func(cudaparse.Node) bool {
		found = true
		return false
	})
	return found
}

// eachSink calls visit with each read of seed, and of the local variables
// computed from it, that shows or keeps the value (a call that may keep
// it, a condition, a return, a member or element), until visit returns
// false. Reads skip reports (nil: none) are passed over, and what they
// compute is not followed.
func eachSink(fn *cudaparse.Function, seed string, skip func(cudaparse.Node) bool, visit func(cudaparse.Node) bool) {
	measured := map[string]bool{seed: true}
	work := []string{seed}
	stop := false
	for len(work) > 0 && !stop {
		v := work[0]
		work = work[1:]
		fn.Body.Descendants(func(n cudaparse.Node) bool {
			if stop {
				return false
			}
			if !n.Is("identifier") || n.Text() != v || !isRead(n) || skip != nil && skip(n) {
				return true
			}
			target, ok := valueTarget(n)
			switch {
			case !ok || target == "" || !localVariable(fn, target):
				stop = !visit(n)
			case !measured[target]:
				measured[target] = true
				work = append(work, target)
			}
			return true
		})
	}
}

// isRead reports whether the identifier n reads its variable: not the
// name a declaration declares, not the left side of a plain assignment,
// not the `&v` an elapsed-time call writes.
func isRead(n cudaparse.Node) bool {
	p := n.Parent()
	switch {
	case p.Is("init_declarator", "declaration", "array_declarator", "pointer_declarator", "reference_declarator") && n.Field() == "declarator":
		return false
	case p.Is("assignment_expression") && n.Field() == "left" && strings.TrimSpace(p.ChildByField("operator").Text()) == "=":
		return false
	case p.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(p.Text()), "&"):
		if args := p.Parent(); args.Is("argument_list") {
			if name := args.Parent().ChildByField("function").Name(); knowledge.IsEventElapsed(name) {
				return false
			}
		}
	}
	return true
}

// valueFunctions compute a value from their arguments and keep nothing:
// a measurement passed through them goes where their result goes.
var valueFunctions = map[string]bool{
	"count": true, "duration_cast": true, "duration": true, "min": true, "max": true,
	"fmin": true, "fmax": true, "fminf": true, "fmaxf": true, "abs": true, "fabs": true, "fabsf": true,
}

// valueTarget returns the variable that the expression holding the read n
// assigns (`el = (t1 - t0) / 1e3`, `total += ms`, `float s = ms * 1e-3f`),
// with ok; ok false when the read's value goes anywhere else: a call that
// may keep it, a condition, a return, a subscript or member, a statement
// of its own.
func valueTarget(n cudaparse.Node) (string, bool) {
	for x, p := n, n.Parent(); p.Valid(); x, p = p, p.Parent() {
		switch p.Kind() {
		case "init_declarator":
			if x.Field() != "value" {
				return "", false
			}
			return cudaparse.VarKey(p.ChildByField("declarator")), true
		case "assignment_expression":
			if x.Field() != "right" {
				return "", false
			}
			left := p.ChildByField("left")
			if !left.Is("identifier") {
				return "", false // a[i] = ms, s.ms = ms: kept somewhere
			}
			return left.Text(), true
		case "binary_expression", "parenthesized_expression", "cast_expression", "unary_expression", "argument_list", "field_expression", "template_function", "qualified_identifier":
		case "call_expression":
			// ms passed to fabs(ms), or el.count() called on it.
			if !valueFunctions[p.ChildByField("function").Name()] {
				return "", false
			}
		default:
			return "", false
		}
	}
	return "", false
}

// excludedOnFirstIteration reports whether the read n is skipped on the
// loop's first iteration: it lies in the branch of an if (inside the
// loop) that the first iteration does not take, or after an
// `if (...) continue;` that it does take.
func excludedOnFirstIteration(n cudaparse.Node, first cudaparse.FirstIteration) bool {
	body := first.Loop.ChildByField("body")
	if !body.Contains(n) {
		return false
	}
	for x, p := n, n.Parent(); p.Valid() && x != body; x, p = p, p.Parent() {
		if p.Is("if_statement") && (x.Field() == "consequence" || x.Field() == "alternative") {
			if it, ok := cudaparse.FirstIterationOf(p); ok && it.Loop == first.Loop {
				if holds, known := it.Holds(p.ChildByField("condition")); known && holds != (x.Field() == "consequence") {
					return true
				}
			}
		}
		if p.Is("compound_statement") && skippedByContinue(p, x, first) {
			return true
		}
	}
	return false
}

// skippedByContinue reports whether a statement of block before x is
// `if (c) continue;` with c holding on the loop's first iteration, the
// loop being first's (a continue there leaves first's body).
func skippedByContinue(block, x cudaparse.Node, first cudaparse.FirstIteration) bool {
	for _, s := range block.NamedChildren() {
		if s.Start() >= x.Start() {
			return false
		}
		if !s.Is("if_statement") || !continues(s.ChildByField("consequence")) {
			continue
		}
		if it, ok := cudaparse.FirstIterationOf(s); ok && it.Loop == first.Loop {
			if holds, known := it.Holds(s.ChildByField("condition")); known && holds {
				return true
			}
		}
	}
	return false
}

// continues reports whether a branch is `continue;` or a block ending in
// it.
func continues(branch cudaparse.Node) bool {
	if branch.Is("compound_statement") {
		kids := branch.NamedChildren()
		if len(kids) == 0 {
			return false
		}
		branch = kids[len(kids)-1]
	}
	return branch.Is("continue_statement")
}

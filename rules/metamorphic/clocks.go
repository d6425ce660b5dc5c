package metamorphic

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// One clock for another: a timed region of a host function (two reads of
// one clock into two variables, in one block, and the statements after
// them that compute the elapsed time from both) is timed with another
// clock. The reads become the new clock's reads, on the same lines, and
// each expression that combined the two old values becomes the new clock's
// elapsed time in milliseconds (cudaEventElapsedTime(&ms, a, b) becomes
// ms = ...;). Units may change; what the code measures does not.
//
// Clocks recognized as sources: CUDA events (cudaEventRecord), clocks read
// into a value (std::chrono's now() when the difference ends in .count(),
// clock(), omp_get_wtime(), MPI_Wtime()), gettimeofday and clock_gettime.

// clockKind is a target clock: what its start and stop statements are
// and how it spells the elapsed milliseconds.
type clockKind struct {
	name string
	cpp  bool // needs C++
	// include is the header it needs; decl, a definition to put before the
	// function (the timer class).
	include string
	decl    func(n names) string
	start   func(n names) string
	stop    func(n names) string
	elapsed func(n names) string
	// family is the source family the clock belongs to: a region is not
	// rewritten to its own clock.
	family string
}

// names are the fresh names a target clock's code uses.
type names struct{ a, b, ms, class string }

var (
	clockEvents = clockKind{
		name: "events", family: "events", include: "<cuda_runtime.h>",
		start: func(n names) string {
			return "cudaEvent_t " + n.a + ", " + n.b + "; cudaEventCreate(&" + n.a + "); cudaEventCreate(&" + n.b + "); cudaEventRecord(" + n.a + ", 0);"
		},
		stop: func(n names) string {
			return "cudaEventRecord(" + n.b + ", 0); cudaEventSynchronize(" + n.b + "); float " + n.ms + " = 0; cudaEventElapsedTime(&" + n.ms + ", " + n.a + ", " + n.b + ");"
		},
		elapsed: func(n names) string { return n.ms },
	}
	// clockDriverEvents are the events of a file that uses the driver API
	// alone: bringing in the runtime would add a context of its own.
	clockDriverEvents = clockKind{
		name: "events", family: "events",
		start: func(n names) string {
			return "CUevent " + n.a + ", " + n.b + "; cuEventCreate(&" + n.a + ", 0); cuEventCreate(&" + n.b + ", 0); cuEventRecord(" + n.a + ", 0);"
		},
		stop: func(n names) string {
			return "cuEventRecord(" + n.b + ", 0); cuEventSynchronize(" + n.b + "); float " + n.ms + " = 0; cuEventElapsedTime(&" + n.ms + ", " + n.a + ", " + n.b + ");"
		},
		elapsed: func(n names) string { return n.ms },
	}
	clockChrono = clockKind{
		name: "chrono", family: "value", cpp: true, include: "<chrono>",
		start: func(n names) string { return "auto " + n.a + " = std::chrono::steady_clock::now();" },
		stop:  func(n names) string { return "auto " + n.b + " = std::chrono::steady_clock::now();" },
		elapsed: func(n names) string {
			return "std::chrono::duration<double, std::milli>(" + n.b + " - " + n.a + ").count()"
		},
	}
	clockGettimeofday = clockKind{
		name: "gettimeofday", family: "gettimeofday", include: "<sys/time.h>",
		start: func(n names) string {
			return "struct timeval " + n.a + ", " + n.b + "; gettimeofday(&" + n.a + ", NULL);"
		},
		stop: func(n names) string { return "gettimeofday(&" + n.b + ", NULL);" },
		elapsed: func(n names) string {
			return "((" + n.b + ".tv_sec - " + n.a + ".tv_sec) * 1e3 + (" + n.b + ".tv_usec - " + n.a + ".tv_usec) * 1e-3)"
		},
	}
	clockClockGettime = clockKind{
		name: "clock_gettime", family: "clock_gettime", include: "<time.h>",
		start: func(n names) string {
			return "struct timespec " + n.a + ", " + n.b + "; clock_gettime(CLOCK_MONOTONIC, &" + n.a + ");"
		},
		stop: func(n names) string { return "clock_gettime(CLOCK_MONOTONIC, &" + n.b + ");" },
		elapsed: func(n names) string {
			return "((" + n.b + ".tv_sec - " + n.a + ".tv_sec) * 1e3 + (" + n.b + ".tv_nsec - " + n.a + ".tv_nsec) * 1e-6)"
		},
	}
	clockTimerClass = clockKind{
		name: "timer class", family: "timer", cpp: true, include: "<chrono>",
		decl: func(n names) string {
			return "struct " + n.class + " { std::chrono::steady_clock::time_point t0, t1; " +
				"void start() { t0 = std::chrono::steady_clock::now(); } " +
				"void stop() { t1 = std::chrono::steady_clock::now(); } " +
				"double elapsed_ms() const { return std::chrono::duration<double, std::milli>(t1 - t0).count(); } };\n"
		},
		start:   func(n names) string { return n.class + " " + n.a + "; " + n.a + ".start();" },
		stop:    func(n names) string { return n.a + ".stop();" },
		elapsed: func(n names) string { return n.a + ".elapsed_ms()" },
	}
)

// clockRead is one read of a clock into a variable.
type clockRead struct {
	stmt   cudaparse.Node // the statement that reads, replaced whole
	v      string         // the variable read into
	family string
}

// timedRegion is two reads and the expressions that use both.
type timedRegion struct {
	fn          *cudaparse.Function
	start, stop clockRead
	// uses are the expressions that combine the two values, each replaced
	// by the elapsed time; assign, when set, is the statement
	// cudaEventElapsedTime(&ms, a, b), replaced by `ms = elapsed;`.
	uses   []cudaparse.Node
	assign cudaparse.Node
	ms     string
}

func clockTo(target clockKind) func(fx *fixture) []candidate {
	return func(fx *fixture) []candidate {
		var out []candidate
		for _, p := range fx.paths() {
			f := fx.parsed[p]
			if f == nil || target.cpp && fx.isC(p) {
				continue
			}
			for _, r := range timedRegions(f) {
				if r.start.family == target.family {
					continue
				}
				if c, ok := retime(fx, p, f, r, target); ok {
					out = append(out, c)
				}
			}
		}
		return out
	}
}

// driverOnly matches files that include the driver API's header and not
// the runtime's.
func driverOnly(src []byte) bool {
	return strings.Contains(string(src), "cuda.h>") && !strings.Contains(string(src), "cuda_runtime")
}

// retime rewrites one region with the target clock.
func retime(fx *fixture, p string, f *cudaparse.File, r timedRegion, target clockKind) (candidate, bool) {
	if target.name == "events" && driverOnly(fx.files[p]) {
		target = clockDriverEvents
	}
	n := names{a: fx.freshName("tm_start"), b: fx.freshName("tm_stop"), ms: fx.freshName("tm_ms"), class: fx.freshName("Timer")}
	if target.name == "timer class" {
		n.a = fx.freshName("timer")
	}
	rw := newRewrite(fx.files)
	if target.include != "" {
		rw.insert(p, 0, lit("#include "+target.include+"\n"))
	}
	if target.decl != nil {
		at, ok := topLevelStart(fx, p, r.fn)
		if !ok {
			return candidate{}, false
		}
		lead := ""
		if !startsLine(fx.files[p], at) {
			lead = "\n"
		}
		rw.insert(p, at, lit(lead+target.decl(n)))
	}
	rw.replace(p, r.start.stmt.Start(), r.start.stmt.End(), lit(target.start(n)))
	rw.replace(p, r.stop.stmt.Start(), r.stop.stmt.End(), lit(target.stop(n)))
	elapsed := target.elapsed(n)
	if r.assign.Valid() {
		rw.replace(p, r.assign.Start(), r.assign.End(), lit(r.ms+" = "+elapsed+";"))
	}
	for _, u := range r.uses {
		rw.replace(p, u.Start(), u.End(), lit("("+elapsed+")"))
	}
	return candidate{site: siteName(f, p, r.start.stmt) + r.start.family, rw: rw}, true
}

// timedRegions finds the regions of the file's host functions that a
// clock times and that can be rewritten.
func timedRegions(f *cudaparse.File) []timedRegion {
	var out []timedRegion
	for _, fn := range f.Functions {
		if fn.Space&cudaparse.SpaceHost == 0 || !fn.Body.Valid() {
			continue
		}
		reads := clockReads(f, fn)
		for i := 0; i+1 < len(reads); i++ {
			a, b := reads[i], reads[i+1]
			if a.family != b.family || a.v == b.v || a.stmt.Parent() != b.stmt.Parent() {
				continue
			}
			if r, ok := regionUses(fn, a, b); ok {
				out = append(out, r)
				i++
			}
		}
	}
	return out
}

// valueClocks are calls whose value is a time.
var valueClocks = map[string]bool{"clock": true, "omp_get_wtime": true, "MPI_Wtime": true}

// clockReads are the reads of a clock in fn, in order, each a whole
// statement of a block.
func clockReads(f *cudaparse.File, fn *cudaparse.Function) []clockRead {
	var out []clockRead
	for _, c := range f.CallsIn(fn) {
		var r clockRead
		switch c.Name {
		case "cudaEventRecord", "cuEventRecord":
			r = clockRead{v: identArg(c.Arg(0), false), family: "events"}
		case "gettimeofday":
			r = clockRead{v: identArg(c.Arg(0), true), family: "gettimeofday"}
		case "clock_gettime":
			r = clockRead{v: identArg(c.Arg(1), true), family: "clock_gettime"}
		default:
			chrono := c.Name == "now" && strings.Contains(c.Callee.Text(), "::") && len(c.Args) == 0
			if !chrono && !(valueClocks[c.Name] && len(c.Args) == 0) {
				continue
			}
			r = clockRead{v: assignedName(c.Node), family: "value"}
			if chrono {
				r.family = "chrono"
			}
		}
		r.stmt = wholeStatement(c.Node)
		if r.v != "" && r.stmt.Valid() {
			out = append(out, r)
		}
	}
	return out
}

// identArg returns the variable an argument names: `v`, or `&v` when
// address is set.
func identArg(n cudaparse.Node, address bool) string {
	if address {
		if !n.Is("pointer_expression") || !strings.HasPrefix(n.Text(), "&") {
			return ""
		}
		n = n.ChildByField("argument")
	}
	if n.Is("identifier") {
		return n.Text()
	}
	return ""
}

// assignedName returns v for a call that initializes or assigns a plain
// variable: `T v = call();` or `v = call();`.
func assignedName(call cudaparse.Node) string {
	p := call.Parent()
	switch {
	case p.Is("init_declarator") && call.Field() == "value":
		if id := p.ChildByField("declarator"); id.Is("identifier") {
			return id.Text()
		}
	case p.Is("assignment_expression") && call.Field() == "right" && p.ChildByField("operator").Text() == "=":
		if id := p.ChildByField("left"); id.Is("identifier") {
			return id.Text()
		}
	}
	return ""
}

// wholeStatement returns the statement of a block that is call (through a
// macro wrapper such as CHECK(call), a declaration or an assignment), or
// the zero Node.
func wholeStatement(call cudaparse.Node) cudaparse.Node {
	n := call
	for {
		p := n.Parent()
		switch {
		case p.Is("argument_list") && len(p.NamedChildren()) == 1 && p.Parent().Is("call_expression"):
			n = p.Parent() // CHECK(call)
		case p.Is("init_declarator", "assignment_expression"):
			n = p
		case p.Is("declaration") && len(p.ChildrenByField("declarator")) == 1, p.Is("expression_statement"):
			if p.Parent().Is("compound_statement") {
				return p
			}
			return cudaparse.Node{}
		default:
			return cudaparse.Node{}
		}
	}
}

// regionUses finds what combines the values of a and b after b: each
// statement that names both, where the smallest expression holding all
// their names is replaced. Every other mention of them must be in a or b,
// or (for events and out-parameter clocks) leave the value alone.
func regionUses(fn *cudaparse.Function, a, b clockRead) (timedRegion, bool) {
	r := timedRegion{fn: fn, start: a, stop: b}
	block := a.stmt.Parent()
	byStmt := map[cudaparse.Node][]cudaparse.Node{}
	var order []cudaparse.Node
	ok := true
	fn.Body.Descendants(func(d cudaparse.Node) bool {
		if !ok {
			return false
		}
		if !d.Is("identifier") || d.Text() != a.v && d.Text() != b.v {
			return true
		}
		if a.stmt.Contains(d) || b.stmt.Contains(d) || inDeclaration(d) {
			return true // the reads themselves; declarations stay
		}
		if d.Start() < b.stmt.End() || !block.Contains(d) {
			// Events are objects: creating, synchronizing or destroying
			// them does not read the clock. Any other mention before the
			// stop, or outside the block, is a use the rewrite would break.
			ok = a.family == "events"
			return true
		}
		s := enclosingStatement(d)
		if !s.Valid() {
			ok = false
			return false
		}
		if _, seen := byStmt[s]; !seen {
			order = append(order, s)
		}
		byStmt[s] = append(byStmt[s], d)
		return true
	})
	if !ok {
		return r, false
	}
	for _, s := range order {
		ids := byStmt[s]
		hasA, hasB := false, false
		for _, d := range ids {
			hasA = hasA || d.Text() == a.v
			hasB = hasB || d.Text() == b.v
		}
		if !hasA || !hasB {
			if a.family == "events" {
				continue // cudaEventSynchronize(stop), cudaEventDestroy(start)
			}
			return r, false
		}
		if a.family == "events" && !r.assign.Valid() {
			if ms, ok := elapsedTimeCall(s, a.v, b.v); ok {
				r.assign, r.ms = s, ms
				continue
			}
		}
		u := commonExpression(ids)
		if a.family == "chrono" {
			u = countCall(u)
		}
		if !u.Valid() {
			return r, false
		}
		r.uses = append(r.uses, u)
	}
	return r, r.assign.Valid() || len(r.uses) > 0
}

// inDeclaration reports whether d is the name a declaration declares.
func inDeclaration(d cudaparse.Node) bool {
	for p := d.Parent(); p.Valid(); p = p.Parent() {
		switch {
		case p.Is("declaration", "parameter_declaration"):
			return true
		case p.Is("init_declarator", "pointer_declarator", "array_declarator", "reference_declarator"):
			continue
		}
		return false
	}
	return false
}

// enclosingStatement returns the statement of a block holding d.
func enclosingStatement(d cudaparse.Node) cudaparse.Node {
	for p := d; p.Valid(); p = p.Parent() {
		if p.Parent().Is("compound_statement") {
			return p
		}
	}
	return cudaparse.Node{}
}

// elapsedTimeCall matches the statement cudaEventElapsedTime(&ms, a, b);
// (or wrapped in a macro) and returns ms.
func elapsedTimeCall(s cudaparse.Node, a, b string) (string, bool) {
	if !s.Is("expression_statement") {
		return "", false
	}
	kids := s.NamedChildren()
	if len(kids) != 1 {
		return "", false
	}
	call := kids[0]
	for call.Is("call_expression") {
		name := call.ChildByField("function").Text()
		args := call.ChildByField("arguments").NamedChildren()
		if name == "cudaEventElapsedTime" || name == "cuEventElapsedTime" {
			if len(args) == 3 && args[1].Text() == a && args[2].Text() == b {
				if ms := identArg(args[0], true); ms != "" {
					return ms, true
				}
				if args[0].Is("pointer_expression") {
					if m := args[0].ChildByField("argument"); m.Is("field_expression") {
						return m.Text(), true
					}
				}
			}
			return "", false
		}
		if len(args) != 1 {
			return "", false
		}
		call = args[0]
	}
	return "", false
}

// commonExpression returns the smallest expression holding every node of
// ids (the call, when that is its argument list).
func commonExpression(ids []cudaparse.Node) cudaparse.Node {
	n := ids[0]
	for _, d := range ids[1:] {
		for n.Valid() && !n.Contains(d) {
			n = n.Parent()
		}
	}
	if n.Is("argument_list") {
		n = n.Parent()
	}
	if !n.Valid() || !strings.HasSuffix(n.Kind(), "_expression") || n.Is("expression_statement") {
		return cudaparse.Node{}
	}
	return n
}

// countCall widens a difference of time points to the .count() call that
// makes it a number: duration<double>(t1 - t0).count(), or the zero Node.
func countCall(n cudaparse.Node) cudaparse.Node {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		switch {
		case p.Is("call_expression"):
			if fe := p.ChildByField("function"); fe.Is("field_expression") && fe.ChildByField("field").Text() == "count" {
				return p
			}
		case p.Is("argument_list", "field_expression", "parenthesized_expression", "template_function", "qualified_identifier"):
		default:
			return cudaparse.Node{}
		}
	}
	return cudaparse.Node{}
}

package cudaparse

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
)

// A small intra-procedural def-use helper: which assignments may reach an
// expression. It follows source order with block structure, not a full
// control-flow graph: a definition kills the earlier ones when it is sure to
// run before the use (it is in a block that encloses the use), and inside a
// loop, definitions later in the loop reach uses earlier in it.

// DefOp says how a definition gives its variable a value.
type DefOp string

const (
	DefInit   DefOp = "init"  // T x = v; T x(v); T x{v}
	DefDecl   DefOp = "decl"  // T x; (no value in the code)
	DefAssign DefOp = "="     // x = v; compound assignments keep their operator: "+=", "-=", ...
	DefOut    DefOp = "out"   // f(&x): the callee writes x
	DefParam  DefOp = "param" // a parameter of the function
	DefBind   DefOp = "bind"  // auto [a, b] = v;  Index is the binding's position
	DefUpdate DefOp = "++"    // x++, --x
	DefRange  DefOp = "range" // for (auto x : xs)
)

// Def is one definition of a variable.
type Def struct {
	// Var is the variable's key: "x", or "s.f" for a field (-> is written .).
	Var  string
	Op   DefOp
	Node Node // the declarator, assignment, `&x` argument, parameter...
	// Value is the assigned expression: the initializer, the right-hand side
	// of an assignment (for compound ones too), the bound expression.
	Value Node
	// Call is the call that receives &x (DefOut); Index the argument
	// position (DefOut), binding position (DefBind) or parameter (DefParam).
	Call  *Call
	Index int
	Func  *Function
}

// IsCompound reports whether the definition combines the old value with
// Value (x += v and the like).
func (d Def) IsCompound() bool {
	return len(d.Op) >= 2 && strings.HasSuffix(string(d.Op), "=") && d.Op != DefAssign
}

type functionDefs struct {
	byVar map[string][]Def // in source order
}

// VarKey returns the key of a variable expression: "x" for x and this->x,
// "s.f" for s.f and s->f, "" for anything else.
func VarKey(n Node) string {
	n = n.Unparen()
	switch n.Kind() {
	case "identifier", "type_identifier":
		// type_identifier: `T v(n);` parses n as a parameter type.
		return n.Text()
	case "field_expression":
		arg := n.ChildByField("argument")
		if arg.Is("this") {
			return n.ChildByField("field").Text() // this->x is the member x
		}
		base := VarKey(arg)
		if base == "" {
			return ""
		}
		return base + "." + n.ChildByField("field").Text()
	case "pointer_expression":
		if strings.HasPrefix(strings.TrimSpace(n.Text()), "*") {
			return VarKey(n.ChildByField("argument"))
		}
	case "qualified_identifier":
		return compactSpace(n.Text())
	}
	return ""
}

// ReachingDefs returns the definitions of the variable named by use that
// may reach it, in source order. Uses outside functions get file-scope
// definitions only.
func (f *File) ReachingDefs(use Node) []Def {
	key := VarKey(use)
	if key == "" {
		return nil
	}
	fn := f.enclosingFunction(use)
	var out []Def
	if fn != nil {
		out = f.reachingIn(fn, key, use)
		// A field is also defined by whatever defines its whole struct:
		// cudaGetDeviceProperties(&prop) defines prop.totalGlobalMem.
		for k := strings.LastIndexByte(key, '.'); len(out) == 0 && k > 0; k = strings.LastIndexByte(key[:k], '.') {
			out = f.reachingIn(fn, key[:k], use)
		}
		if len(out) > 0 {
			return out
		}
	}
	return f.fileDefs(key)
}

func (f *File) reachingIn(fn *Function, key string, use Node) []Def {
	defs := f.defsOf(fn).byVar[key]
	if len(defs) == 0 {
		return nil
	}
	useStart := use.Start()
	// Of the definitions ending before the use, from the last one back to
	// the first sure to run before it (each one on the way may be the
	// value the use reads), walked in place: a list of them all was a
	// thirtieth of what sixteen copies of the 38-project corpus allocated.
	var out []Def
	for k := len(defs) - 1; k >= 0; k-- {
		d := defs[k]
		if ownUse(d, use, useStart) || d.Node.End() > useStart || exclusiveTo(d.Node, use) {
			continue
		}
		out = append(out, d)
		if d.Op != DefUpdate && runsBefore(d.Node, use) {
			break
		}
	}
	// Source order.
	slices.Reverse(out)
	// Those after the use in a loop that holds it reach it through the
	// loop's back edge.
	if loop := use.Ancestor("while_statement", "for_statement", "do_statement", "for_range_loop"); loop.Valid() {
		for _, d := range defs {
			if !ownUse(d, use, useStart) && d.Node.End() > useStart && loop.Contains(d.Node) {
				out = append(out, d)
			}
		}
	}
	return out
}

// ownUse reports whether use is part of d, its own definition (x = x - 1),
// or d is a parameter declared after it: d does not reach it.
func ownUse(d Def, use Node, useStart int) bool {
	return d.Node.Contains(use) || d.Op == DefParam && d.Node.End() > useStart
}

// runsBefore reports whether d is sure to run before use: nothing between
// them that could skip d (a branch, a loop body, a lambda) fails to hold use.
func runsBefore(d, use Node) bool { return onTheWay(d, use, false) }

// OnTheWay reports whether d, earlier in the same function, runs before use
// on every path, taking loops to run at least once (a warm-up loop runs):
// only branches (if, switch, ?:, catch) and lambdas that do not also hold
// use can skip it, and not a branch that a counted loop's first iteration
// takes (FirstIteration).
func OnTheWay(d, use Node) bool {
	return d.End() <= use.Start() && onTheWay(d, use, true)
}

// exclusiveTo reports whether d and use lie in the two branches of one
// if/else (or ?:) with no loop around it: d never runs before use.
func exclusiveTo(d, use Node) bool {
	from := d
	for p := d.Parent(); p.Valid(); from, p = p, p.Parent() {
		if p.Contains(use) {
			return exclusiveBranches(p, from, use)
		}
	}
	return false
}

// exclusiveBranches reports whether from (a child of p) and the child of p
// that holds use are the two branches of p, an if/else or a conditional
// expression.
func exclusiveBranches(p, from, use Node) bool {
	if !p.Is("if_statement", "conditional_expression") {
		return false
	}
	// Inside a loop, an earlier iteration may have taken the other branch.
	for q := p.Parent(); q.Valid() && !q.Is("function_definition", "lambda_expression"); q = q.Parent() {
		if q.Is("for_statement", "while_statement", "do_statement", "for_range_loop") {
			return false
		}
	}
	branch := func(x Node) string {
		switch f := x.Field(); f {
		case "consequence", "alternative":
			return f
		}
		return ""
	}
	var useChild Node
	for _, c := range p.Children() {
		if c.Contains(use) {
			useChild = c
			break
		}
	}
	a, b := branch(from), branch(useChild)
	return a != "" && b != "" && a != b
}

func onTheWay(d, use Node, loopsRun bool) bool {
	from := d
	for p := d.Parent(); p.Valid(); from, p = p, p.Parent() {
		if p.Contains(use) {
			// d in one branch of an if/else (or ?:), use in the other: the
			// two never run on one path.
			return !exclusiveBranches(p, from, use)
		}
		if p.Is("function_definition") {
			return true
		}
		// Conditions and loop initializers always run.
		if from.Is("condition_clause") || from.Field() == "condition" || from.Field() == "initializer" {
			continue
		}
		switch p.Kind() {
		case "if_statement":
			// d in one branch of `if (c)` reaches use in the same branch of
			// another `if (c)`: warm-up and measurement under one condition;
			// or in the branch the loop's first iteration takes
			// (`if (step % every == 0)` at step 0), which has then run once
			// (not that it runs before use on every iteration: loopsRun).
			if !SameBranchElsewhere(p, from, use) && !(loopsRun && takenOnFirstIteration(p, from)) {
				return false
			}
		case "case_statement":
			// The same case of another switch on the same value.
			if !sameCaseElsewhere(p, use) {
				return false
			}
		case "lambda_expression":
			if !RunsInPlace(p) {
				return false
			}
		case "switch_statement", "conditional_expression", "catch_clause":
			if p.Is("switch_statement") && from.Is("compound_statement") {
				continue // judged at the case
			}
			return false
		case "while_statement", "for_statement", "do_statement", "for_range_loop":
			if !loopsRun {
				return false
			}
		}
	}
	return true
}

// takenOnFirstIteration reports whether the branch of ifStmt is the one
// the first iteration of the loop around it takes: its condition decided
// by the loop variable's starting value.
func takenOnFirstIteration(ifStmt, branch Node) bool {
	side := branch.Field()
	if side != "consequence" && side != "alternative" {
		return false
	}
	f := ifStmt.f
	key := ifStmt.i * 2
	if side == "alternative" {
		key++
	}
	if taken, ok := f.firstIteration[key]; ok {
		return taken
	}
	if f.firstIteration == nil {
		f.firstIteration = map[int32]bool{}
	}
	taken := takenFirst(ifStmt, side)
	f.firstIteration[key] = taken
	return taken
}

// takenFirst is takenOnFirstIteration for the branch side of ifStmt.
func takenFirst(ifStmt Node, side string) bool {
	it, ok := firstIterationCandidate(ifStmt)
	if !ok {
		return false
	}
	holds, known := it.Holds(ifStmt.ChildByField("condition"))
	return known && holds == (side == "consequence") && !assignedBefore(it.Loop.ChildByField("body"), it.Var, ifStmt)
}

// RunsInPlace reports whether a lambda runs where it is written: called at
// once (`[&] { ... }()`), handed to std::call_once or pthread_once, or to
// `->*` (CUDASTF's ctx.task(...)->*[]).
func RunsInPlace(lambda Node) bool {
	p := lambda.Parent()
	for p.Is("parenthesized_expression") {
		lambda, p = p, p.Parent()
	}
	switch {
	case p.Is("call_expression") && p.ChildByField("function") == lambda:
		return true
	case p.Is("argument_list"):
		return OnceRunners[p.Parent().ChildByField("function").Name()]
	case p.Is("binary_expression") && p.ChildByField("right") == lambda:
		// The grammar reads `a->*b` as `(a->) * b`, with a missing field.
		op := strings.TrimSpace(p.ChildByField("operator").Text())
		return op == "->*" || op == "*" && strings.HasSuffix(strings.TrimSpace(p.ChildByField("left").Text()), "->")
	}
	return false
}

// sameCaseElsewhere reports whether use lies in a case with the same label
// of another switch on the same value as the case caseStmt.
func sameCaseElsewhere(caseStmt, use Node) bool {
	sw := caseStmt.Ancestor("switch_statement")
	cond := compactSpace(sw.ChildByField("condition").Text())
	label := compactSpace(caseStmt.ChildByField("value").Text()) // "" for default
	for p := use.Parent(); p.Valid(); p = p.Parent() {
		if !p.Is("case_statement") || p == caseStmt {
			continue
		}
		other := p.Ancestor("switch_statement")
		if other != sw && compactSpace(other.ChildByField("condition").Text()) == cond &&
			compactSpace(p.ChildByField("value").Text()) == label {
			return true
		}
	}
	return false
}

// SameBranchElsewhere reports whether use lies in the same branch (then or
// else) of another if statement with the same condition text as ifStmt,
// whose branch is the child `branch`: a warm-up and a measurement, or an
// initialization and a query, under one flag. The other branch of an if
// statement whose condition is the negation of ifStmt's is the same
// branch (`if (big) { preload }`, then `if (!big) { ... } else { launch
// }`).
func SameBranchElsewhere(ifStmt, branch, use Node) bool {
	side := branch.Field() // "consequence" or "alternative"
	from := use
	for p := use.Parent(); p.Valid(); from, p = p, p.Parent() {
		if !p.Is("if_statement") || p == ifStmt {
			continue
		}
		switch f := from.Field(); {
		case f != "consequence" && f != "alternative":
		case f == side && conditionText(p) == conditionText(ifStmt):
			return true
		case f != side && negatedConditions(conditionText(p), conditionText(ifStmt)):
			return true
		}
	}
	return false
}

// negatedConditions reports whether one condition text (conditionText) is
// the other's with a `!` before it: `(!c)` and `(c)`, `(!(a>b))` and
// `(a>b)`.
func negatedConditions(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	inner := func(c string) string {
		if len(c) >= 2 && c[0] == '(' && c[len(c)-1] == ')' {
			return c[1 : len(c)-1]
		}
		return c
	}
	x, y := inner(a), inner(b)
	// `!` binds tighter than any binary operator: `!a&&b` is no negation
	// of `a&&b`, so without parentheses y must be one operand.
	return y != "" && (x == "!("+y+")" || x == "!"+y && !strings.ContainsAny(strings.ReplaceAll(y, "->", ""), "&|<>=!+-*/%?^~,() "))
}

// ConditionText returns the condition of if statement n without spaces
// (memoized): two ifs test the same when their texts are equal.
func ConditionText(n Node) string { return conditionText(n) }

// conditionText returns the condition of if statement n without spaces.
func conditionText(n Node) string {
	f := n.f
	if t, ok := f.conditions[n.i]; ok {
		return t
	}
	if f.conditions == nil {
		f.conditions = map[int32]string{}
	}
	t := compactSpace(n.ChildByField("condition").Text())
	f.conditions[n.i] = t
	return t
}

func (f *File) defsOf(fn *Function) *functionDefs {
	if f.defsCache == nil {
		f.defsCache = map[*Function]*functionDefs{}
	}
	if d, ok := f.defsCache[fn]; ok {
		return d
	}
	fd := &functionDefs{byVar: map[string][]Def{}}
	add := func(d Def) {
		if d.Var != "" {
			d.Func = fn
			fd.byVar[d.Var] = append(fd.byVar[d.Var], d)
		}
	}
	for _, p := range fn.Params {
		add(Def{Var: p.Name, Op: DefParam, Node: p.Node, Index: p.Index})
	}
	callAt := map[int32]*Call{}
	for _, c := range f.Calls {
		if c.Func == fn {
			callAt[c.Node.i] = c
		}
	}
	fn.Body.Descendants(func(n Node) bool {
		for _, d := range defsAt(n, callAt) {
			add(d)
		}
		return true
	})
	for _, list := range fd.byVar {
		sort.SliceStable(list, func(a, b int) bool { return list[a].Node.Start() < list[b].Node.Start() })
	}
	f.defsCache[fn] = fd
	return fd
}

// defsAt returns the definitions that node n makes itself.
func defsAt(n Node, callAt map[int32]*Call) []Def {
	switch n.Kind() {
	case "init_declarator":
		d := n.ChildByField("declarator")
		if d.Is("structured_binding_declarator") {
			var out []Def
			for k, b := range d.NamedChildren() {
				out = append(out, Def{Var: b.Text(), Op: DefBind, Node: n, Value: n.ChildByField("value"), Index: k})
			}
			return out
		}
		return []Def{{Var: declaredName(d), Op: DefInit, Node: n, Value: n.ChildByField("value")}}
	case "declaration":
		var out []Def
		for _, d := range n.ChildrenByField("declarator") {
			if d.Is("identifier", "array_declarator", "pointer_declarator") && !functionDeclarator(d).Valid() {
				out = append(out, Def{Var: declaredName(d), Op: DefDecl, Node: d})
			}
		}
		return out
	case "assignment_expression":
		left := n.ChildByField("left")
		op := DefOp(compactSpace(n.ChildByField("operator").Text()))
		if op == "" {
			op = DefAssign
		}
		return []Def{{Var: VarKey(left), Op: op, Node: n, Value: n.ChildByField("right")}}
	case "update_expression":
		return []Def{{Var: VarKey(n.ChildByField("argument")), Op: DefUpdate, Node: n}}
	case "for_range_loop":
		d := n.ChildByField("declarator")
		return []Def{{Var: declaredName(d), Op: DefRange, Node: d, Value: n.ChildByField("right")}}
	case "identifier":
		return referenceArgDef(n, callAt)
	case "pointer_expression":
		return addressArgDef(n, callAt)
	}
	return nil
}

// referenceArgDef: f(x) where f, a function of the file, takes x by
// non-const reference: f may write x (void query(size_t &free, size_t &total)).
func referenceArgDef(n Node, callAt map[int32]*Call) []Def {
	if !n.Parent().Is("argument_list") {
		return nil
	}
	call, ok := callAt[n.Parent().Parent().i]
	if !ok || call.Name == "" {
		return nil
	}
	callee := n.f.FunctionNamed(call.Name)
	if callee == nil {
		return nil
	}
	for k, a := range call.Args {
		if a == n && k < len(callee.Params) && mutableReference(callee.Params[k].Node) {
			return []Def{{Var: n.Text(), Op: DefOut, Node: n, Call: call, Index: k}}
		}
	}
	return nil
}

// addressArgDef: f(&x): the callee may write x.
func addressArgDef(n Node, callAt map[int32]*Call) []Def {
	if !strings.HasPrefix(strings.TrimSpace(n.Text()), "&") {
		return nil
	}
	arg := n
	for arg.Parent().Is("parenthesized_expression", "cast_expression") {
		arg = arg.Parent()
	}
	if !arg.Parent().Is("argument_list") {
		return nil
	}
	call, ok := callAt[arg.Parent().Parent().i]
	if !ok {
		return nil
	}
	for k, a := range call.Args {
		if a == arg {
			return []Def{{Var: VarKey(n.ChildByField("argument")), Op: DefOut, Node: n, Call: call, Index: k}}
		}
	}
	return nil
}

// mutableReference reports whether a parameter declaration takes its
// argument by non-const lvalue reference (T &x, not const T &x or T &&x).
func mutableReference(decl Node) bool {
	d := decl.ChildByField("declarator")
	if !d.Is("reference_declarator") || strings.HasPrefix(strings.TrimSpace(d.Text()), "&&") {
		return false
	}
	for _, c := range decl.NamedChildren() {
		if c.Is("type_qualifier") && strings.TrimSpace(c.Text()) == "const" {
			return false
		}
	}
	return true
}

// fileDefs returns file-scope definitions of a name: globals with an
// initializer, and object-like #defines (as DefInit with the preproc_arg as
// Value).
func (f *File) fileDefs(key string) []Def {
	if f.fileDefsByName == nil {
		f.fileDefsByName = map[string][]Def{}
		for _, n := range f.Root().NamedChildren() {
			f.collectFileDefs(n, 0)
		}
	}
	return f.fileDefsByName[key]
}

// collectFileDefs indexes the file-scope definitions under n, once per file.
func (f *File) collectFileDefs(n Node, depth int) {
	switch n.Kind() {
	case "preproc_def":
		name := n.ChildByField("name").Text()
		f.fileDefsByName[name] = append(f.fileDefsByName[name], Def{Var: name, Op: DefInit, Node: n, Value: n.ChildByField("value")})
	case "declaration":
		for _, d := range n.ChildrenByField("declarator") {
			if d.Is("init_declarator") {
				name := declaredName(d)
				f.fileDefsByName[name] = append(f.fileDefsByName[name], Def{Var: name, Op: DefInit, Node: d, Value: d.ChildByField("value")})
			}
		}
	case "namespace_definition", "linkage_specification", "declaration_list",
		"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif":
		if depth < 8 {
			for _, c := range n.NamedChildren() {
				f.collectFileDefs(c, depth+1)
			}
		}
	}
}

// ReturnValues returns the expressions fn returns.
func (f *File) ReturnValues(fn *Function) []Node {
	var out []Node
	fn.Body.Descendants(func(n Node) bool {
		if n.Is("lambda_expression") {
			return false
		}
		if n.Is("return_statement") {
			if v := firstNamed(n); v.Valid() {
				out = append(out, v)
			}
		}
		return true
	})
	return out
}

// Exclusive reports whether a and b can never both run in one pass through
// their function: they lie in the two branches of one `if`, the two arms of
// one `?:`, or two cases of one switch where the earlier case does not fall
// through into the later. (Two launches under `if (push) ... else ...` are
// never one after the other.)
func Exclusive(a, b Node) bool {
	if !a.Valid() || !b.Valid() || a.File() != b.File() {
		return false
	}
	via := map[int32]Node{} // ancestor of a -> the child of it on the way to a
	from := a
	for p := a.Parent(); p.Valid(); from, p = p, p.Parent() {
		via[p.i] = from
	}
	from = b
	for p := b.Parent(); p.Valid(); from, p = p, p.Parent() {
		fromA, common := via[p.i]
		if !common {
			continue
		}
		if fromA == from {
			return false // one contains the other
		}
		switch {
		case p.Is("if_statement", "conditional_expression"):
			sides := fromA.Field() + "/" + from.Field()
			return sides == "consequence/alternative" || sides == "alternative/consequence"
		case p.Is("compound_statement") && p.Parent().Is("switch_statement") &&
			fromA.Is("case_statement") && from.Is("case_statement"):
			first := fromA
			if from.Start() < first.Start() {
				first = from
			}
			return !fallsThrough(first)
		}
		return false
	}
	return false
}

// fallsThrough reports whether a case statement can run on into the next
// case: its last statement does not leave the switch.
func fallsThrough(caseStmt Node) bool {
	s := lastStatement(caseStmt)
	return !s.Is("break_statement", "return_statement", "continue_statement", "throw_statement", "goto_statement")
}

// lastStatement returns the statement a block (or a case) ends with, into
// a block that ends it, comments and a case's value aside; the zero Node
// when there is none.
func lastStatement(block Node) Node {
	stmts := block.NamedChildren()
	for i := len(stmts) - 1; i >= 0; i-- {
		s := stmts[i]
		if s.Field() == "value" || s.Is("comment") {
			continue
		}
		if s.Is("compound_statement") {
			return lastStatement(s)
		}
		return s
	}
	return Node{}
}

// gpuMacro matches a preprocessor name that says the code is built for a
// GPU (AMREX_USE_GPU, KOKKOS_ENABLE_CUDA, __CUDACC__, USE_CUDA).
var gpuMacro = regexp.MustCompile(`(?i)gpu|cuda|hip`)

// gpuCondition reads a conditional directive's test of a GPU macro:
// `#ifdef NAME`, `#ifndef NAME`, `#if defined(NAME)`, `#if !defined NAME`,
// `#if NAME`, `#if !NAME`; ok is false for anything else.
var gpuCondition = regexp.MustCompile(`^#\s*(ifdef|ifndef|if)\s*(!?)\s*(?:defined\s*\(?\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*\)?\s*$`)

// InHostOnlyBuild reports whether n lies where the preprocessor keeps code
// only when the build is not for a GPU: the body of `#ifndef
// AMREX_USE_GPU`, the `#else` of `#ifdef KOKKOS_ENABLE_CUDA`, `#if
// !defined(__CUDACC__)`. A portability layer's pattern there runs on the
// host (Castro's CPU-only MOL hydro loops, in batch H). Read from the
// original text: the pre-pass flattens groups that do not parse as they
// stand.
func InHostOnlyBuild(n Node) bool {
	if n.f == nil {
		return false
	}
	return inRanges(n.f.hostOnlyRanges(), n.Start())
}

// hostOnlyRanges returns the spans of the file's text that only a build
// without a GPU compiles (InHostOnlyBuild), once.
func (f *File) hostOnlyRanges() []Range {
	f.hostOnlyOnce.Do(func() {
		f.hostOnly = hostOnlyRangesOf(f.Src)
	})
	return f.hostOnly
}

// hostOnlyRangesOf returns the spans of src that only a build without a
// GPU compiles (InHostOnlyBuild): for a file parsed and for one summarized
// from its text alike. Under a test of a GPU macro, that is the first
// branch of a negated test (`#ifndef AMREX_USE_GPU`) and the #else branch
// of a plain one when no #elif came before it (with an #elif, which
// branch a build takes is not known).
func hostOnlyRangesOf(src []byte) []Range {
	if !testsGPUMacro(src) {
		return nil
	}
	return hostOnlyRangesLexed(src)
}

// hostOnlyRangesLexed is hostOnlyRangesOf without the cheap test first.
func hostOnlyRangesLexed(src []byte) []Range {
	if !bytes.Contains(src, []byte("#if")) {
		return nil
	}
	return syntax.WithTokens(src, func(toks []syntax.Token) []Range {
		var out []Range
		text := func(k int) string { return strings.TrimSpace(string(src[toks[k].Start:toks[k].End])) }
		for _, dirs := range syntax.ConditionalGroups(src, toks) {
			m := gpuCondition.FindStringSubmatch(text(dirs[0]))
			if len(m) != 4 || !gpuMacro.MatchString(m[3]) || includeGuard(src, toks, dirs[0], m[3]) {
				continue
			}
			hostFirst := m[1] == "ifndef" || m[2] == "!"
			elif := false
			for k := 1; k < len(dirs); k++ {
				// The branch between directives k-1 and k.
				inElse := syntax.DirectiveName([]byte(text(dirs[k-1]))) == "else"
				if !elif && (k == 1 && hostFirst || inElse && !hostFirst) {
					out = append(out, Range{Start: int(toks[dirs[k-1]].End), End: int(toks[dirs[k]].Start)})
				}
				name := syntax.DirectiveName([]byte(text(dirs[k])))
				elif = elif || name != "else" && name != "endif"
			}
		}
		return out
	})
}

// includeGuard reports whether the directive at token k, a test of name,
// opens an include guard: the next directive defines name
// (`#ifndef MGARD_X_DEVICE_ADAPTER_CUDA_H` / `#define
// MGARD_X_DEVICE_ADAPTER_CUDA_H`), whatever the name says of CUDA.
func includeGuard(src []byte, toks []syntax.Token, k int, name string) bool {
	for k++; k < len(toks); k++ {
		switch toks[k].Kind {
		case syntax.TokComment:
			continue
		case syntax.TokDirective:
			fields := strings.Fields(strings.TrimPrefix(strings.TrimSpace(string(src[toks[k].Start:toks[k].End])), "#"))
			return len(fields) >= 2 && fields[0] == "define" && fields[1] == name
		}
		return false
	}
	return false
}

// testsGPUMacro reports whether a line of src that starts a conditional
// (`#if`, `#ifdef`, `#ifndef`) names a GPU macro: without one, no span is
// host-only, and the file need not be lexed (most files' conditionals are
// include guards and feature tests).
func testsGPUMacro(src []byte) bool {
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("#"))
		if k < 0 {
			return false
		}
		at := i + k
		// The directive's line, with its continuations.
		end := at
		for {
			nl := bytes.IndexByte(src[end:], '\n')
			if nl < 0 {
				end = len(src)
				break
			}
			end += nl
			if end == at || src[end-1] != '\\' && !(src[end-1] == '\r' && end-2 >= at && src[end-2] == '\\') {
				break
			}
			end++
		}
		line := src[at:end]
		i = at + 1
		if d := bytes.TrimLeft(line[1:], " \t"); bytes.HasPrefix(d, []byte("if")) && gpuMacro.Match(d[2:]) {
			return true
		}
	}
}

// inRanges reports whether offset at lies in one of rs.
func inRanges(rs []Range, at int) bool {
	for _, r := range rs {
		if r.Start <= at && at < r.End {
			return true
		}
	}
	return false
}

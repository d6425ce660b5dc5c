package ll004

import (
	"regexp"
	"sort"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// maxDepth bounds how deep helpers of helpers are followed.
const maxDepth = 4

// analysis holds one file's indexes and memos.
type analysis struct {
	pass *rule.Pass
	file *cudaparse.File
	// byName indexes the file's host functions with bodies by plain name.
	byName     map[string][]*cudaparse.Function
	scopes     map[cudaparse.Node]cudaparse.Node
	items      map[cudaparse.Node][]item
	summaries  map[*cudaparse.Function]effect
	inProgress map[*cudaparse.Function]bool
	timed      map[*cudaparse.Function][]cudaparse.TimedRegion
	reported   map[reportKey]bool
}

func newAnalysis(p *rule.Pass) *analysis {
	a := &analysis{
		pass:       p,
		file:       p.File,
		byName:     map[string][]*cudaparse.Function{},
		scopes:     map[cudaparse.Node]cudaparse.Node{},
		items:      map[cudaparse.Node][]item{},
		summaries:  map[*cudaparse.Function]effect{},
		inProgress: map[*cudaparse.Function]bool{},
		timed:      map[*cudaparse.Function][]cudaparse.TimedRegion{},
		reported:   map[reportKey]bool{},
	}
	for _, fn := range a.file.Functions {
		if a.isHostCode(fn) {
			a.byName[fn.Name] = append(a.byName[fn.Name], fn)
		}
	}
	return a
}

func (a *analysis) isHostCode(fn *cudaparse.Function) bool {
	return fn.Space&cudaparse.SpaceHost != 0 && fn.Body.Valid()
}

// Scopes: a measurement and what it measures run together in one function
// body, or in one lambda body when the lambda runs later (a lambda called
// where it is written belongs to the code around it).

// scopeOf returns the body of the function or deferred lambda n runs in.
func (a *analysis) scopeOf(n cudaparse.Node) cudaparse.Node {
	if s, ok := a.scopes[n]; ok {
		return s
	}
	var s cudaparse.Node
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("lambda_expression") && !cudaparse.RunsInPlace(p) || p.Is("function_definition") {
			s = p.ChildByField("body")
			break
		}
	}
	a.scopes[n] = s
	return s
}

// scopesOf returns fn's body and the bodies of its deferred lambdas.
func (a *analysis) scopesOf(fn *cudaparse.Function) []cudaparse.Node {
	out := []cudaparse.Node{fn.Body}
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if n.Is("lambda_expression") && !cudaparse.RunsInPlace(n) {
			out = append(out, n.ChildByField("body"))
		}
		return true
	})
	return out
}

// item is one thing a scope runs: a call, a <<<>>> launch, or the
// construction of an object of a type (ctorType).
type item struct {
	node     cudaparse.Node
	call     *cudaparse.Call
	launch   bool
	ctorType string
}

// itemsIn returns, in source order, what the scope runs between the byte
// offsets from and to (-1, -1: all of it).
func (a *analysis) itemsIn(scope cudaparse.Node, fn *cudaparse.Function, from, to int) []item {
	all, ok := a.items[scope]
	if !ok {
		for _, c := range a.file.CallsIn(fn) {
			if scope.Contains(c.Node) && a.scopeOf(c.Node) == scope {
				all = append(all, item{node: c.Node, call: c})
			}
		}
		for _, l := range a.file.LaunchesIn(fn) {
			if l.API == "" && scope.Contains(l.Node) && a.scopeOf(l.Node) == scope {
				all = append(all, item{node: l.Node, launch: true})
			}
		}
		scope.Descendants(func(n cudaparse.Node) bool {
			if typ, ok := constructedType(n); ok && a.scopeOf(n) == scope {
				all = append(all, item{node: n, ctorType: typ})
			}
			return true
		})
		sort.SliceStable(all, func(i, j int) bool { return all[i].node.Start() < all[j].node.Start() })
		a.items[scope] = all
	}
	if from < 0 {
		return all
	}
	var out []item
	for _, it := range all {
		if it.node.Start() >= from && it.node.End() <= to && !inLeavingBranch(it.node, from) {
			out = append(out, it)
		}
	}
	return out
}

// inLeavingBranch reports whether n lies, after offset from, in a branch of
// an if that leaves the function (return, throw, exit, abort): error
// handling, which the path that reaches the second measurement never ran
// (`if (r != CUDA_SUCCESS) { fprintf(stderr, "%s", strerror(errno)); return
// 1; }`).
func inLeavingBranch(n cudaparse.Node, from int) bool {
	for p := n; p.Valid() && p.Start() >= from; p = p.Parent() {
		parent := p.Parent()
		if parent.Is("if_statement") && (p.Field() == "consequence" || p.Field() == "alternative") && leaves(p) {
			return true
		}
	}
	return false
}

// leaves reports whether a statement ends by leaving the function.
func leaves(stmt cudaparse.Node) bool {
	for stmt.Is("compound_statement", "else_clause") {
		kids := stmt.NamedChildren()
		if len(kids) == 0 {
			return false
		}
		stmt = kids[len(kids)-1]
	}
	switch {
	case stmt.Is("return_statement", "throw_statement"):
		return true
	case stmt.Is("expression_statement"):
		if call := firstNamedChild(stmt).Unparen(); call.Is("call_expression") {
			switch call.ChildByField("function").Name() {
			case "exit", "_exit", "abort", "quick_exit", "terminate":
				return true
			}
		}
	}
	return false
}

func firstNamedChild(n cudaparse.Node) cudaparse.Node {
	if kids := n.NamedChildren(); len(kids) > 0 {
		return kids[0]
	}
	return cudaparse.Node{}
}

// constructedType returns the type of the object a declaration or new
// expression constructs (`Module m(path);`, `new Module(path)`), but not
// of pointers or references it declares.
func constructedType(n cudaparse.Node) (string, bool) {
	typ := n.ChildByField("type")
	if typ.Is("primitive_type") || typ.Name() == "" {
		return "", false
	}
	switch {
	case n.Is("new_expression"):
		return typ.Name(), true
	case n.Is("declaration") && n.Parent().Is("compound_statement"):
		for _, d := range n.ChildrenByField("declarator") {
			if d.Is("identifier", "init_declarator", "function_declarator") {
				return typ.Name(), true
			}
		}
	}
	return "", false
}

// fold runs the items in order and returns what they do together.
func (a *analysis) fold(items []item, fn *cudaparse.Function, env map[string]effect, depth int) effect {
	inputs := loadInputs(items)
	var e effect
	for _, it := range items {
		x := a.effectOf(it, fn, env, depth)
		if x.unknownWork && !x.memoryWork && !x.timeWork && !x.resolves && len(x.loads) == 0 && it.call != nil && inputs.feeds(it.call) {
			// Reading the image (`auto image = read_file(path)`) is part
			// of loading it.
			x.unknownWork = false
		}
		e.add(x)
	}
	return e
}

func (a *analysis) effectOf(it item, fn *cudaparse.Function, env map[string]effect, depth int) effect {
	switch {
	case it.launch:
		return effect{resolves: true}
	case it.ctorType != "":
		if knowledge.DeviceContainers[it.ctorType] {
			return effect{memoryWork: true, timeWork: true}
		}
		if ctor := a.constructor(it.ctorType); ctor != nil && depth < maxDepth {
			return a.summary(ctor, depth+1).through(it.node, it.ctorType)
		}
		return effect{}
	}
	return a.effectOfCall(it.call, fn, env, depth)
}

func (a *analysis) effectOfCall(c *cudaparse.Call, fn *cudaparse.Function, env map[string]effect, depth int) effect {
	name := c.Name
	// API names first: a file may define stubs of them (cgo preambles,
	// mocks).
	switch {
	case knowledge.IsModuleLoad(name):
		return effect{loads: []loadSite{{load: c}}}
	case knowledge.KernelResolvers[name]:
		return effect{resolves: true}
	case knowledge.IsMemoryQuery(name):
		return effect{readsMemory: true}
	case knowledge.ModuleDataAccessors[name]:
		return effect{usesData: true}
	}
	if _, ok := knowledge.LaunchAPIs[name]; ok {
		return effect{resolves: true}
	}
	switch cudaparse.ClockOf(c) {
	case cudaparse.ClockHost:
		return effect{readsClock: true}
	case cudaparse.ClockEvent:
		return effect{}
	}
	if changesDeviceMemory(name) {
		return effect{memoryWork: true, timeWork: true}
	}
	if takesTime(name) {
		return effect{timeWork: true}
	}
	if code, ok := boundCode(c, env); ok {
		return code
	}
	if depth >= maxDepth {
		return effect{unknownWork: true}
	}
	if lambda := a.file.LambdaVariable(fn, c.Callee); lambda.Valid() && c.Callee.Is("identifier") {
		return a.fold(a.itemsIn(lambda.ChildByField("body"), fn, -1, -1), fn, env, depth+1).through(c.Node, name)
	}
	if h := a.helper(name, fn); h != nil {
		return a.summary(h, depth+1).through(c.Node, name)
	}
	if name == "make_unique" || name == "make_shared" {
		if ctor := a.constructor(templateArgument(c.Callee)); ctor != nil {
			return a.summary(ctor, depth+1).through(c.Node, ctor.Name)
		}
		return effect{}
	}
	if name == "" || isNeutral(name) {
		return effect{}
	}
	return effect{unknownWork: true}
}

// boundCode returns the code a call runs when it calls a parameter that a
// caller bound to code: f(), std::invoke(f), std::forward<F>(f)().
func boundCode(c *cudaparse.Call, env map[string]effect) (effect, bool) {
	if env == nil {
		return effect{}, false
	}
	var param string
	switch {
	case c.Callee.Is("identifier"):
		param = c.Name
	case c.Name == "invoke":
		param = cudaparse.VarKey(c.Arg(0))
	case c.Callee.Is("call_expression") && c.Callee.ChildByField("function").Name() == "forward":
		if args := c.Callee.ChildByField("arguments").NamedChildren(); len(args) == 1 {
			param = cudaparse.VarKey(args[0])
		}
	}
	e, ok := env[param]
	return e, ok
}

// templateArgument returns the first template argument's type name:
// Module for std::make_unique<Module>.
func templateArgument(callee cudaparse.Node) string {
	for callee.Is("qualified_identifier") {
		callee = callee.ChildByField("name")
	}
	if !callee.Is("template_function") {
		return ""
	}
	args := callee.ChildByField("arguments").NamedChildren()
	if len(args) == 0 {
		return ""
	}
	return args[0].ChildByField("type").Name()
}

// helper returns the function of the file a call in `from` runs, if any.
func (a *analysis) helper(name string, from *cudaparse.Function) *cudaparse.Function {
	for _, fn := range a.byName[name] {
		if fn != from && !fn.IsKernel() {
			return fn
		}
	}
	return nil
}

// constructor returns a constructor the file defines for a type.
func (a *analysis) constructor(typ string) *cudaparse.Function {
	for _, fn := range a.byName[typ] {
		if !fn.Node.ChildByField("type").Valid() {
			return fn
		}
	}
	return nil
}

// summary is what calling fn does.
func (a *analysis) summary(fn *cudaparse.Function, depth int) effect {
	if e, ok := a.summaries[fn]; ok {
		return e
	}
	if a.inProgress[fn] {
		return effect{} // recursion: the outer call accounts for it
	}
	a.inProgress[fn] = true
	e := a.fold(a.itemsIn(fn.Body, fn, -1, -1), fn, nil, depth)
	delete(a.inProgress, fn)
	a.summaries[fn] = e
	return e
}

// inputs are the variables a scope's loads read their image or path from.
type inputs struct {
	loads []*cudaparse.Call
	vars  map[string]bool
}

func loadInputs(items []item) inputs {
	in := inputs{vars: map[string]bool{}}
	for _, it := range items {
		if it.call == nil || !knowledge.IsModuleLoad(it.call.Name) {
			continue
		}
		in.loads = append(in.loads, it.call)
		// The first argument is the handle the load writes: code that uses
		// it afterwards is not reading the image.
		for _, arg := range it.call.Args[min(1, len(it.call.Args)):] {
			arg.Descendants(func(n cudaparse.Node) bool {
				if n.Is("identifier") {
					in.vars[n.Text()] = true
				}
				return true
			})
		}
	}
	return in
}

// feeds reports whether a call computes what a load reads: it is inside the
// load's arguments, its result is stored in a variable the load reads, or it
// writes one through a pointer argument.
func (in inputs) feeds(c *cudaparse.Call) bool {
	for _, l := range in.loads {
		if l.Node.Contains(c.Node) && l.Node != c.Node {
			return true
		}
	}
	for _, arg := range c.Args {
		if arg = arg.Unparen(); arg.Is("pointer_expression") && in.vars[cudaparse.VarKey(arg.ChildByField("argument"))] {
			return true
		}
	}
	n := c.Node
	for p := n.Parent(); p.Valid(); n, p = p, p.Parent() {
		switch {
		case p.Is("parenthesized_expression", "cast_expression", "field_expression", "pointer_expression", "subscript_expression"):
			continue
		case p.Is("call_expression") && n.Field() == "function": // the loaded expression is itself called
			continue
		case p.Is("init_declarator"):
			return in.vars[p.ChildByField("declarator").Name()]
		case p.Is("assignment_expression") && n.Field() == "right":
			return in.vars[cudaparse.VarKey(p.ChildByField("left"))]
		}
		return false
	}
	return false
}

// Measurements.

type measureKind string

const (
	measureMemory measureKind = "memory"
	measureTime   measureKind = "time"
)

// region is code between two memory queries or two clock reads.
type region struct {
	from, to    int
	start, stop cudaparse.Node
}

// regions returns a scope's measurements of one kind, in source order.
func (a *analysis) regions(scope cudaparse.Node, fn *cudaparse.Function, env map[string]effect, kind measureKind) []region {
	var out []region
	all := a.itemsIn(scope, fn, -1, -1)
	switch kind {
	case measureMemory:
		var reads []item
		for _, it := range all {
			if it.call == nil {
				continue
			}
			if e := a.effectOf(it, fn, env, 1); e.readsMemory && isQueryHelper(e) {
				reads = append(reads, it)
			}
		}
		for i := 0; i+1 < len(reads); i++ {
			out = append(out, region{from: reads[i].node.End(), to: reads[i+1].node.Start(), start: reads[i].node, stop: reads[i+1].node})
		}
	case measureTime:
		if _, ok := a.timed[fn]; !ok {
			a.timed[fn] = a.file.TimedRegions(fn)
		}
		for _, r := range a.timed[fn] {
			if a.scopeOf(r.Start) == scope && a.scopeOf(r.Stop) == scope {
				out = append(out, region{from: r.From, to: r.To, start: r.Start, stop: r.Stop})
			}
		}
		out = append(out, a.helperClockRegions(all, fn, env)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].from < out[j].from })
	return out
}

// isQueryHelper reports whether a call of a helper only reads a value
// (memory or clock): `size_t free_bytes()`, `double wall_seconds()`.
func isQueryHelper(e effect) bool {
	return (e.readsMemory || e.readsClock) && len(e.loads) == 0 && !e.resolves && !e.memoryWork && !e.timeWork
}

var (
	startsTimer = regexp.MustCompile(`(?i)start|begin|tic$`)
	stopsTimer  = regexp.MustCompile(`(?i)stop|end$|toc$|elapsed`)
)

// helperClockRegions pairs consecutive clock reads when one of them calls a
// clock helper of the file (cudaparse.TimedRegions pairs the others).
func (a *analysis) helperClockRegions(all []item, fn *cudaparse.Function, env map[string]effect) []region {
	type read struct {
		it     item
		helper bool
	}
	var reads []read
	for _, it := range all {
		if it.call == nil {
			continue
		}
		if cudaparse.ClockOf(it.call) == cudaparse.ClockHost {
			reads = append(reads, read{it: it})
			continue
		}
		if e := a.effectOf(it, fn, env, 1); e.readsClock && isQueryHelper(e) {
			reads = append(reads, read{it: it, helper: true})
		}
	}
	var out []region
	for i := 0; i+1 < len(reads); i++ {
		first, second := reads[i], reads[i+1]
		if !first.helper && !second.helper {
			continue
		}
		// The gap between two measurements is not a measurement.
		if stopsTimer.MatchString(first.it.call.Name) || startsTimer.MatchString(second.it.call.Name) {
			continue
		}
		out = append(out, region{from: first.it.node.End(), to: second.it.node.Start(), start: first.it.node, stop: second.it.node})
	}
	return out
}

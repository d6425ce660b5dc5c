// Package ll001 reports device allocations sized from the device's free or
// total memory that leave too little for kernels that load later.
package ll001

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

//go:embed doc.md
var doc string

// Rule is LL001.
var Rule = &rule.Rule{
	ID:       "LL001",
	Name:     "whole-vram-allocation",
	Severity: rule.Warning,
	Since:    "0.1.0",
	Summary:  "device allocation takes (nearly) all free or total memory, leaving none for kernels loaded later",
	Doc:      doc,
	Options: []rule.Option{
		{Name: "threshold", Default: "0.9", Doc: "share of free or total memory (0-1) from which an allocation is reported", Numeric: true, Range: &rule.Range{Min: 0, Max: 1, MinOpen: true}},
		{Name: "min-headroom-mib", Default: "256", Doc: "an allocation of free or total memory minus less than this many MiB is reported", Numeric: true, Range: &rule.Range{Min: 0, Max: 1 << 20}},
	},
	Prefilter: prefilter,
	Run:       run,
}

// memoryQuerySpellings are what every size taken from free or total
// memory starts at: the memory queries, the device property, and RMM's
// helpers.
var memoryQuerySpellings = []string{"MemGetInfo", "GetMemoryInfo", "totalGlobalMem", "TotalMem", "available_device_memory", "percent_of_free_device_memory"}

// prefilter admits files that query the memory, and files that call an
// allocator in a loop, which may allocate until an allocation fails with
// no query at all (allocatesUntilFailure). Most files that allocate do it
// outside any loop: on the 13 projects of bench/README.md, 316 of the 360
// files only this rule would have parsed.
func prefilter(text *rule.Text) bool {
	if text.ContainsAny(memoryQuerySpellings...) {
		return true
	}
	return text.ContainsAny(knowledge.AllocatorSpellings...) && cudaparse.CallsInLoop(text.Src, allocatorNames)
}

// allocatorNames are the allocation functions, for the prefilter.
var allocatorNames = knowledge.AllocatorNames()

// allocator describes where an allocation function takes its size: the
// product of the arguments at sizeArgs.
type allocator struct {
	sizeArgs []int
	wrapper  bool // a function of the file that passes a parameter on
}

// allocators are the API's allocation functions (knowledge.Allocators).
var allocators = func() map[string]allocator {
	out := make(map[string]allocator, len(knowledge.Allocators))
	for name, al := range knowledge.Allocators {
		out[name] = allocator{sizeArgs: al.SizeArgs}
	}
	return out
}()

func run(p *rule.Pass) {
	a := &analysis{
		pass:      p,
		file:      p.File,
		threshold: p.FloatOption("threshold"),
		headroom:  p.FloatOption("min-headroom-mib") * mib,
	}
	a.findWrappers()
	a.keepingPool = a.findKeepingPool()
	reported := map[int]bool{}
	report := func(n cudaparse.Node, msg string, related ...rule.FindingOption) {
		if reported[n.Start()] || a.kernelsLoadedBefore(n) || a.programLoadsNothing() {
			return
		}
		reported[n.Start()] = true
		p.Report(n, msg, related...)
	}
	for _, c := range p.File.Calls {
		if al, ok := a.allocatorOf(c); ok {
			if !al.wrapper && (expectsOutOfMemory(c) || a.freedBeforeLoading(c)) {
				continue
			}
			if s, ok := a.sizeShare(c, al); ok && a.hazardous(s) {
				if loop, ok := allocatesUntilSuccess(c); ok {
					report(c.Callee, fmt.Sprintf("%s retries with smaller sizes until an allocation succeeds, starting from %s of the %s: it takes whatever is free, leaving nothing for kernels that load lazily later; %s",
						c.Name, formatShare(s), memoryWord(s), a.fixAdvice(c.Name, s)), append([]rule.FindingOption{rule.Related(s.query, "memory queried here"), rule.Related(loop, "loop")}, a.poolNote(c)...)...)
					continue
				}
				report(c.Callee, a.message(c.Name, s), append([]rule.FindingOption{rule.Related(s.query, "memory queried here")}, a.poolNote(c)...)...)
				continue
			}
			if s, loop, ok := a.loopTotal(c, al); ok && a.hazardous(s) {
				report(c.Callee, "in a loop whose count comes from the memory query, "+a.message(c.Name, s), rule.Related(s.query, "memory queried here"), rule.Related(loop, "loop"))
				continue
			}
			if !al.wrapper {
				if loop, ok := allocatesUntilFailure(c); ok {
					report(c.Callee, fmt.Sprintf("%s runs in a loop until allocation fails, taking all free memory and leaving none for kernels that load lazily later; allocate a fixed budget that leaves at least %s free, or %s before this loop",
						c.Name, formatBytes(a.headroom), preloadAdvice(c.Name)),
						rule.Related(loop, "loop"))
				}
			}
			continue
		}
		if isPoolName(c.Callee.Text()) {
			a.checkPool(c.Callee, c.Args, report)
		}
	}
	for _, n := range p.File.NodesOfKind("declaration", "field_declaration", "new_expression", "compound_literal_expression") {
		a.checkConstruction(n, report)
	}
}

const mib = 1 << 20

// kernelsLoadedBefore reports whether, on the way to the allocation n, the
// function preloaded (or launched) every kernel the file defines or
// launches, or ran a preload loop over a kernel table: the fix the finding
// offers, done here. A file with no kernel of its own proves nothing.
func (a *analysis) kernelsLoadedBefore(n cudaparse.Node) bool {
	needed := map[string]bool{}
	for name := range declaredKernels(a.file) {
		needed[name] = true
	}
	for _, l := range a.file.Launches {
		if l.Kernel != "" {
			needed[l.KernelKey()] = true
		}
	}
	if len(needed) == 0 {
		return false
	}
	loaded, all := a.file.LoadedOnTheWay(n)
	if all {
		return true
	}
	for kernel := range needed {
		if !slices.ContainsFunc(loaded, func(k string) bool { return cudaparse.SameKernel(k, kernel) }) {
			return false
		}
	}
	return true
}

type analysis struct {
	pass      *rule.Pass
	file      *cudaparse.File
	threshold float64
	headroom  float64
	// wrappers are functions of this file that pass one of their
	// parameters to an allocator as its size.
	wrappers map[string]allocator
	// keepingPool is the file's call that makes a memory pool keep all
	// freed memory (findKeepingPool), or nil.
	keepingPool *cudaparse.Call
	// loadsNothing memoizes programLoadsNothing; loadingFiles are the
	// project's files with a function that launches or preloads.
	loadsNothing *bool
	loadingFiles map[string]bool
	// defValues memoizes evalDefs of a use outside any helper's binding
	// (nil env), by the use's offset: a file of long functions where each
	// value is built from several reaching definitions is exponential
	// without it (a 2 MB single-header FFT library took minutes).
	defValues map[int]value
}

// share describes a size in terms of a memory query: frac of the queried
// amount, minus bytes.
type share struct {
	total bool // total memory, else free memory
	api   string
	query cudaparse.Node
	frac  float64
	minus float64
	// factors counts unknown factors the size was multiplied (+1) or divided
	// (-1) by: (free - 2*n) / n * n has the factor n cancelled. Only a size
	// with every factor cancelled is judged.
	factors map[string]int
	// unknownMinus names unknown amounts subtracted from the size.
	unknownMinus []string
}

func (s share) withFactor(sym string, exp int) share {
	f := make(map[string]int, len(s.factors)+1)
	for k, v := range s.factors {
		f[k] = v
	}
	f[sym] += exp
	if f[sym] == 0 {
		delete(f, sym)
	}
	s.factors = f
	return s
}

// value is what the evaluator knows of an expression: a constant, a share
// of a memory query, or an unknown amount, named by sym when it is a
// variable or sizeof.
type value struct {
	isConst bool
	c       float64
	isShare bool
	s       share
	sym     string
}

func (v value) unknown() bool { return !v.isConst && !v.isShare }

// hazardous reports whether a size leaves too little: at least the
// threshold's share, or all of the memory minus less than the headroom
// (whatever the threshold), in both cases with less than the headroom
// subtracted.
//
// A size with an unknown amount subtracted is judged by the amount's name:
// `free - reserve` leaves headroom on purpose, `free - 2 * matrix_bytes`
// does not.
func (a *analysis) hazardous(s share) bool {
	if len(s.factors) > 0 {
		return false
	}
	for _, name := range s.unknownMinus {
		if headroomName.MatchString(name) {
			return false
		}
	}
	return s.frac >= min(a.threshold, 1) && s.minus < a.headroom
}

var headroomName = regexp.MustCompile(`(?i)reserve|headroom|margin|slack|spare|safety|overhead|leave|keep|pad|guard|buffer_?space|free_?target|min_?free`)

func memoryWord(s share) string {
	if s.total {
		return "total memory"
	}
	return "free memory"
}

// message says what the allocation leaves and how to fix it. A share
// leaves an amount that depends on the GPU: the message says below which
// free (or total) memory that amount falls under the headroom, rather than
// asking for a headroom the share may well leave on a large GPU.
func (a *analysis) message(alloc string, s share) string {
	var left, note string
	switch {
	case s.frac >= 1 && s.minus <= 0:
		left = "nothing"
	case s.frac >= 1:
		left = "only " + formatBytes(s.minus)
	default:
		left = fmt.Sprintf("%.0f%% of it", 100*(1-s.frac))
		if s.minus > 0 {
			left = fmt.Sprintf("%.0f%% of it plus %s", 100*(1-s.frac), formatBytes(s.minus))
		}
		// (1-frac)*m + minus < headroom  <=>  m < (headroom-minus)/(1-frac)
		below := (a.headroom - s.minus) / (1 - s.frac)
		note = fmt.Sprintf(" (under %s whenever less than %s is %s)", formatBytes(a.headroom), formatBytes(below), strings.TrimSuffix(memoryWord(s), " memory"))
	}
	if s.total && !(s.frac >= 1 && s.minus <= 0) {
		left += ", less whatever is already in use,"
	}
	return fmt.Sprintf("%s takes %s of the %s reported by %s, leaving %s for kernels that load lazily later%s; %s",
		alloc, formatShare(s), memoryWord(s), s.api, left, note, a.fixAdvice(alloc, s))
}

// fixAdvice is the fix, in the allocation's own API: a fixed headroom
// rather than a share, or a preload of every kernel first. A stream-ordered
// allocator is no fix: it takes the same memory.
func (a *analysis) fixAdvice(alloc string, s share) string {
	size := fmt.Sprintf("subtract a fixed headroom of at least %s from the %s", formatBytes(a.headroom), memoryWord(s))
	if s.frac >= 1 {
		size = fmt.Sprintf("leave at least %s", formatBytes(a.headroom))
	}
	return fmt.Sprintf("%s, or %s before this allocation", size, preloadAdvice(alloc))
}

// preloadAdvice names the preload of the allocation's API: the driver's
// for cu* calls, the runtime's otherwise.
func preloadAdvice(alloc string) string {
	if strings.HasPrefix(alloc, "cu") && !strings.HasPrefix(alloc, "cuda") {
		return "load every kernel first (cuModuleGetFunction or cuLibraryGetKernel on each, or CUDA_MODULE_LOADING=EAGER)"
	}
	return "preload every kernel (cudaFuncGetAttributes on each, or CUDA_MODULE_LOADING=EAGER)"
}

func formatShare(s share) string {
	switch {
	case s.frac >= 1 && s.minus <= 0:
		return "all"
	case s.frac >= 1:
		return "all but " + formatBytes(s.minus)
	case s.minus > 0:
		return fmt.Sprintf("%.0f%% minus %s", 100*s.frac, formatBytes(s.minus))
	}
	return fmt.Sprintf("%.0f%%", 100*s.frac)
}

func formatBytes(b float64) string {
	if b >= 1<<30 {
		return strings.TrimSuffix(fmt.Sprintf("%.1f", b/(1<<30)), ".0") + " GiB"
	}
	if b >= mib {
		return fmt.Sprintf("%.0f MiB", b/mib)
	}
	if b >= 1024 {
		return fmt.Sprintf("%.0f KiB", b/1024)
	}
	return fmt.Sprintf("%.0f bytes", b)
}

func (a *analysis) allocatorOf(c *cudaparse.Call) (allocator, bool) {
	if al, ok := allocators[c.Name]; ok {
		return al, true
	}
	al, ok := a.wrappers[c.Name]
	return al, ok
}

// findWrappers finds functions that hand a parameter to an allocator as its
// size, directly or through another wrapper: void *alloc(size_t n) {
// cudaMalloc(&p, n); ... }.
func (a *analysis) findWrappers() {
	a.wrappers = map[string]allocator{}
	for range 3 { // wrappers of wrappers
		changed := false
		for _, c := range a.file.Calls {
			if c.Func == nil || c.Func.IsKernel() {
				continue
			}
			if _, done := a.wrappers[c.Func.Name]; done {
				continue
			}
			al, ok := a.allocatorOf(c)
			if !ok {
				continue
			}
			for _, k := range al.sizeArgs {
				arg := c.Arg(k).Unparen()
				if !arg.Is("identifier") {
					continue
				}
				for _, prm := range c.Func.Params {
					if prm.Name == arg.Text() {
						a.wrappers[c.Func.Name] = allocator{sizeArgs: []int{prm.Index}, wrapper: true}
						changed = true
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

// sizeShare evaluates the size an allocation call asks for.
func (a *analysis) sizeShare(c *cudaparse.Call, al allocator) (share, bool) {
	v := value{isConst: true, c: 1}
	for _, k := range al.sizeArgs {
		v = combine("*", v, a.eval(c.Arg(k), nil, 0))
	}
	return v.s, v.isShare
}

// loopTotal judges an allocation of a fixed size made once per iteration
// of a counted loop whose count comes from a memory query: `n = 0.9 * free
// / chunk; for (i = 0; i < n; ++i) cuMemAlloc(&p[i], chunk);` takes
// n * chunk, the same memory as one allocation of 90% of free memory.
func (a *analysis) loopTotal(c *cudaparse.Call, al allocator) (share, cudaparse.Node, bool) {
	loop := c.Node.Ancestor("for_statement", "while_statement", "function_definition", "lambda_expression")
	if !loop.Is("for_statement", "while_statement") {
		return share{}, cudaparse.Node{}, false
	}
	cond := loop.ChildByField("condition").Unparen()
	for cond.Is("condition_clause") {
		cond = cond.ChildByField("value").Unparen()
	}
	if !cond.Is("binary_expression") {
		return share{}, cudaparse.Node{}, false
	}
	var count cudaparse.Node
	switch strings.TrimSpace(cond.ChildByField("operator").Text()) {
	case "<", "<=", "!=":
		count = cond.ChildByField("right")
	case ">", ">=":
		count = cond.ChildByField("left")
	default:
		return share{}, cudaparse.Node{}, false
	}
	size := value{isConst: true, c: 1}
	for _, k := range al.sizeArgs {
		size = combine("*", size, a.eval(c.Arg(k), nil, 0))
	}
	if size.isShare {
		return share{}, cudaparse.Node{}, false // judged as one allocation
	}
	v := combine("*", a.eval(count, nil, 0), size)
	return v.s, loop, v.isShare
}

// checkConstruction looks at `pool_memory_resource<...> pool{up, size}` and
// `new pool_memory_resource<...>(up, size)`.
func (a *analysis) checkConstruction(n cudaparse.Node, report func(cudaparse.Node, string, ...rule.FindingOption)) {
	typ := n.ChildByField("type")
	if elem, ok := deviceContainer(typ); ok {
		a.checkContainer(n, typ, elem, report)
		return
	}
	wrapper, isWrapper := a.wrappers[typ.Name()]
	if !isWrapper && !isPoolName(typ.Text()) {
		return
	}
	for _, site := range constructions(n) {
		if !isWrapper && a.releasedAtScopeEnd(n, site.at) {
			continue // the pool gives its memory back before anything loads
		}
		if !isWrapper {
			a.checkPool(site.at, site.args, report)
			continue
		}
		// A class of this file whose constructor allocates its size
		// argument: DeviceBuffer arena(free - (64 << 20));
		v := value{isConst: true, c: 1}
		for _, k := range wrapper.sizeArgs {
			if k < len(site.args) {
				v = combine("*", v, a.eval(argValue(site.args[k]), nil, 0))
			}
		}
		if v.isShare && a.hazardous(v.s) {
			report(site.at, a.message(typ.Name(), v.s), rule.Related(v.s.query, "memory queried here"))
		}
	}
}

// construction is one object built with arguments: where, and with what.
type construction struct {
	at   cudaparse.Node
	args []cudaparse.Node
}

// constructions lists the objects a declaration, field declaration, new
// expression or braced temporary builds, with their constructor arguments.
func constructions(n cudaparse.Node) []construction {
	switch {
	case n.Is("new_expression"):
		return []construction{{n.ChildByField("type"), n.ChildByField("arguments").NamedChildren()}}
	case n.Is("compound_literal_expression"): // T{up, size} as a temporary
		return []construction{{n.ChildByField("type"), n.ChildByField("value").NamedChildren()}}
	case n.Is("field_declaration"): // T member_{up, size};
		if v := n.ChildByField("default_value"); v.Is("initializer_list", "argument_list") {
			return []construction{{n.ChildByField("declarator"), v.NamedChildren()}}
		}
		return nil
	}
	var out []construction
	for _, d := range n.ChildrenByField("declarator") {
		switch {
		case d.Is("init_declarator"):
			out = append(out, construction{d, d.ChildByField("value").NamedChildren()})
		case d.Is("function_declarator"): // T pool(up, size); parses as a declarator
			out = append(out, construction{d, d.ChildByField("parameters").NamedChildren()})
		}
	}
	return out
}

// argValue is the expression of a constructor argument; in `T x(up, size)`
// parsed as a function declarator, an argument is a parameter's type.
func argValue(arg cudaparse.Node) cudaparse.Node {
	if arg.Is("parameter_declaration") {
		return arg.ChildByField("type")
	}
	return arg
}

func (a *analysis) checkPool(at cudaparse.Node, args []cudaparse.Node, report func(cudaparse.Node, string, ...rule.FindingOption)) {
	what := "memory pool"
	if name := poolTypeName(at); name != "" {
		what = name
	}
	for _, arg := range args {
		v := a.eval(argValue(arg), nil, 0)
		if v.isShare && a.hazardous(v.s) {
			report(at, a.message(what, v.s), rule.Related(v.s.query, "memory queried here"))
			return
		}
	}
}

// poolTypeName returns the name of the pool type a construction names
// (pool_memory_resource for rmm::mr::pool_memory_resource<...>), or "".
func poolTypeName(n cudaparse.Node) string {
	switch {
	case n.Is("init_declarator", "function_declarator"):
		n = n.Parent().ChildByField("type")
	case n.Is("identifier") && n.Parent().Is("init_declarator"):
		n = n.Parent().Parent().ChildByField("type")
	}
	if name := n.Name(); isPoolName(name) {
		return name
	}
	return ""
}

// deviceContainer reports whether typ is a container that allocates device
// memory when constructed with a size, and the size's unit: "" for bytes
// (rmm::device_buffer), else the element type (thrust::device_vector<T>,
// rmm::device_uvector<T>: the size counts elements of sizeof(T) bytes).
func deviceContainer(typ cudaparse.Node) (elem string, ok bool) {
	switch typ.Name() {
	case "device_buffer":
		return "", true
	case "device_vector", "device_uvector":
		for typ.Is("qualified_identifier") {
			typ = typ.ChildByField("name") // thrust::device_vector<T>
		}
		args := typ.ChildByField("arguments").NamedChildren()
		if len(args) == 0 {
			return "", false
		}
		return strings.Join(strings.Fields(args[0].Text()), ""), true
	}
	return "", false
}

// checkContainer checks `thrust::device_vector<float> v(n)` and the like.
func (a *analysis) checkContainer(n, typ cudaparse.Node, elem string, report func(cudaparse.Node, string, ...rule.FindingOption)) {
	unit := value{isConst: true, c: 1}
	if elem != "" {
		unit = value{sym: "sizeof(" + elem + ")"}
		if c, ok := sizeofConst(elem); ok {
			unit = value{isConst: true, c: c}
		}
	}
	var sites []cudaparse.Node
	var sizes []cudaparse.Node
	switch {
	case n.Is("new_expression"):
		if args := n.ChildByField("arguments").NamedChildren(); len(args) > 0 {
			sites, sizes = append(sites, typ), append(sizes, args[0])
		}
	case n.Is("compound_literal_expression"):
		if args := n.ChildByField("value").NamedChildren(); len(args) > 0 {
			sites, sizes = append(sites, typ), append(sizes, args[0])
		}
	}
	for _, d := range n.ChildrenByField("declarator") {
		var first cudaparse.Node
		switch {
		case d.Is("init_declarator"):
			if args := d.ChildByField("value").NamedChildren(); len(args) > 0 {
				first = args[0]
			}
		case d.Is("function_declarator"):
			if params := d.ChildByField("parameters").NamedChildren(); len(params) > 0 {
				first = params[0].ChildByField("type")
			}
		}
		if first.Valid() && !a.releasedAtScopeEnd(n, d) {
			sites, sizes = append(sites, d), append(sizes, first)
		}
	}
	for k, size := range sizes {
		v := combine("*", a.eval(size, nil, 0), unit)
		if v.isShare && a.hazardous(v.s) {
			report(sites[k], a.message(typ.Name(), v.s), rule.Related(v.s.query, "memory queried here"))
		}
	}
}

// sizeofConst gives the size of builtin element types.
func sizeofConst(t string) (float64, bool) {
	switch t {
	case "char", "int8_t", "uint8_t", "unsignedchar", "std::byte", "bool":
		return 1, true
	case "short", "int16_t", "uint16_t", "half", "__half", "__nv_bfloat16":
		return 2, true
	case "float", "int", "int32_t", "uint32_t", "unsigned":
		return 4, true
	case "double", "int64_t", "uint64_t", "size_t", "long", "longlong":
		return 8, true
	}
	return 0, false
}

// isPoolName reports whether a type or callee names a memory pool or arena
// that takes its memory up front (RAPIDS pool_memory_resource,
// arena_memory_resource, or a project's own pool class). Stream-ordered
// pools (cudaMemPool, RMM's cuda_async_memory_resource) grow on demand and
// are judged by their allocations, not here.
func isPoolName(s string) bool {
	l := strings.ToLower(s)
	if strings.Contains(l, "mempool") || strings.Contains(l, "async") {
		return false
	}
	return strings.Contains(l, "pool") || strings.Contains(l, "arena")
}

const maxDepth = 16

// eval evaluates an expression in terms of memory queries. env binds the
// parameters of a local helper being evaluated for one call.
func (a *analysis) eval(n cudaparse.Node, env map[string]value, depth int) value {
	if depth > maxDepth || !n.Valid() {
		return value{}
	}
	n = n.Unparen()
	if c, ok := a.file.ConstValue(n); ok {
		return value{isConst: true, c: c}
	}
	switch n.Kind() {
	case "identifier", "field_expression", "type_identifier":
		if n.Is("field_expression") {
			if v, ok := a.pairField(n, env, depth); ok {
				return v
			}
		}
		key := cudaparse.VarKey(n)
		if v, ok := env[key]; ok {
			return v
		}
		if v := a.evalDefs(n, env, depth); !v.unknown() {
			return v
		}
		return value{sym: key}
	case "sizeof_expression":
		return value{sym: strings.Join(strings.Fields(n.Text()), "")}
	case "binary_expression":
		op := strings.TrimSpace(n.ChildByField("operator").Text())
		return combine(op, a.eval(n.ChildByField("left"), env, depth+1), a.eval(n.ChildByField("right"), env, depth+1))
	case "conditional_expression":
		return worst(a.eval(n.ChildByField("consequence"), env, depth+1), a.eval(n.ChildByField("alternative"), env, depth+1))
	case "initializer_list", "argument_list":
		if args := n.NamedChildren(); len(args) == 1 {
			return a.eval(args[0], env, depth+1)
		}
	case "call_expression":
		return a.evalCall(n, env, depth)
	}
	return value{}
}

// evalDefs evaluates a variable through the definitions that reach it.
func (a *analysis) evalDefs(n cudaparse.Node, env map[string]value, depth int) value {
	if depth > maxDepth {
		// x += y in a loop reaches itself through x: the recursion must
		// end here too, not only in eval (a stack overflow on OpenMM).
		return value{}
	}
	if len(env) == 0 {
		if v, ok := a.defValues[n.Start()]; ok {
			return v // known, or being evaluated (a cycle: unknown)
		}
		if a.defValues == nil {
			a.defValues = map[int]value{}
		}
		a.defValues[n.Start()] = value{}
	}
	key := cudaparse.VarKey(n)
	var out value
	for _, d := range a.file.ReachingDefs(n) {
		out = worst(out, a.evalDef(d, key, env, depth+1))
	}
	if len(env) == 0 {
		a.defValues[n.Start()] = out
	}
	return out
}

// evalDef evaluates one definition of key.
func (a *analysis) evalDef(d cudaparse.Def, key string, env map[string]value, depth int) value {
	switch d.Op {
	case cudaparse.DefOut:
		return a.queryResult(d, key)
	case cudaparse.DefParam:
		if v, ok := env[d.Var]; ok {
			return v
		}
		return value{}
	case cudaparse.DefBind:
		// auto [free, total] = rmm::available_device_memory();
		if isAvailableMemory(d.Value) {
			return value{isShare: true, s: share{total: d.Index == 1, api: "rmm::available_device_memory", query: d.Value, frac: 1}}
		}
		return value{}
	case cudaparse.DefInit, cudaparse.DefAssign:
		if field, ok := strings.CutPrefix(key, d.Var+"."); ok && isAvailableMemory(d.Value) {
			// auto mem = rmm::available_device_memory(); mem.first
			return pairMember(d.Value, field)
		}
		if key != d.Var {
			return value{}
		}
		return a.eval(d.Value, env, depth+1)
	}
	if d.IsCompound() {
		// x -= headroom: the old value, combined with the right-hand side.
		old := a.evalDefs(d.Node.ChildByField("left"), env, depth+1)
		return combine(strings.TrimSuffix(string(d.Op), "="), old, a.eval(d.Value, env, depth+1))
	}
	return value{}
}

// queryResult is the value a memory query writes through the pointer
// argument d: cudaMemGetInfo(&free, &total), nvmlDeviceGetMemoryInfo(dev,
// &mem) then mem.free, cudaGetDeviceProperties(&prop) then
// prop.totalGlobalMem.
func (a *analysis) queryResult(d cudaparse.Def, key string) value {
	field := strings.TrimPrefix(key, d.Var)
	mk := func(total bool) value {
		return value{isShare: true, s: share{total: total, api: d.Call.Name, query: d.Call.Node, frac: 1}}
	}
	switch d.Call.Name {
	case "cudaMemGetInfo", "cuMemGetInfo", "cuMemGetInfo_v2":
		if field == "" {
			return mk(d.Index == 1)
		}
	case "cuDeviceTotalMem", "cuDeviceTotalMem_v2":
		if field == "" && d.Index == 0 {
			return mk(true)
		}
	case "nvmlDeviceGetMemoryInfo", "nvmlDeviceGetMemoryInfo_v2":
		switch field {
		case ".free":
			return mk(false)
		case ".total":
			return mk(true)
		}
	case "cudaGetDeviceProperties", "cudaGetDeviceProperties_v2":
		if field == ".totalGlobalMem" {
			return mk(true)
		}
	default:
		// query(&free, &total): a function of the file that hands its
		// parameter on to a memory query (void query(size_t *f, size_t *t)
		// { cudaMemGetInfo(f, t); }).
		if field == "" {
			if q, total, ok := a.forwardedQuery(d.Call.Name, d.Index); ok {
				return value{isShare: true, s: share{total: total, api: q.Name, query: q.Node, frac: 1}}
			}
		}
	}
	return value{}
}

// forwardedQuery reports whether the file's function name passes its
// parameter param to a memory query that writes free (total false) or
// total memory through it: the query call.
func (a *analysis) forwardedQuery(name string, param int) (*cudaparse.Call, bool, bool) {
	fn := a.file.FunctionNamed(name)
	if fn == nil || param >= len(fn.Params) {
		return nil, false, false
	}
	prm := fn.Params[param].Name
	for _, c := range a.file.Calls {
		if c.Func != fn || !knowledge.DeviceMemoryQueries[c.Name] {
			continue
		}
		for k, arg := range c.Args {
			if k < 2 && strings.TrimLeft(strings.TrimSpace(arg.Text()), "&") == prm {
				return c, k == 1, true
			}
		}
	}
	return nil, false, false
}

func isAvailableMemory(n cudaparse.Node) bool {
	n = n.Unparen()
	return n.Is("call_expression") && n.ChildByField("function").Name() == "available_device_memory"
}

func pairMember(call cudaparse.Node, field string) value {
	switch field {
	case "first", "second":
		return value{isShare: true, s: share{total: field == "second", api: "rmm::available_device_memory", query: call, frac: 1}}
	}
	return value{}
}

// pairField handles rmm::available_device_memory().first.
func (a *analysis) pairField(n cudaparse.Node, env map[string]value, depth int) (value, bool) {
	arg := n.ChildByField("argument").Unparen()
	if isAvailableMemory(arg) {
		return pairMember(arg, n.ChildByField("field").Text()), true
	}
	return value{}, false
}

// evalCall evaluates calls that compute sizes: rmm's
// percent_of_free_device_memory, and helper functions of this file whose
// return values derive from a memory query.
func (a *analysis) evalCall(n cudaparse.Node, env map[string]value, depth int) value {
	fn := n.ChildByField("function")
	args := n.ChildByField("arguments").NamedChildren()
	name := fn.Name()
	if name == "percent_of_free_device_memory" && len(args) == 1 {
		if pct, ok := a.file.ConstValue(args[0]); ok {
			return value{isShare: true, s: share{api: "rmm::percent_of_free_device_memory", query: n, frac: pct / 100}}
		}
		return value{}
	}
	if name == "min" || name == "max" {
		// std::min(free * 0.95, cap): the smaller is not known.
		return value{}
	}
	helper := a.file.FunctionNamed(name)
	if helper == nil || helper.IsKernel() || depth > maxDepth/2 {
		return value{}
	}
	bound := map[string]value{}
	for _, prm := range helper.Params {
		if prm.Index < len(args) {
			bound[prm.Name] = a.eval(args[prm.Index], env, depth+1)
		}
	}
	var out value
	for _, r := range a.file.ReturnValues(helper) {
		out = worst(out, a.eval(r, bound, depth+2))
	}
	return out
}

// combine applies a binary operator to two values.
func combine(op string, x, y value) value {
	switch {
	case x.isConst && y.isConst:
		switch op {
		case "+":
			return value{isConst: true, c: x.c + y.c}
		case "-":
			return value{isConst: true, c: x.c - y.c}
		case "*":
			return value{isConst: true, c: x.c * y.c}
		case "/":
			if y.c != 0 {
				return value{isConst: true, c: x.c / y.c}
			}
		case "<<":
			return value{isConst: true, c: x.c * math.Pow(2, y.c)}
		case ">>":
			return value{isConst: true, c: x.c / math.Pow(2, y.c)}
		}
	case x.isShare && y.isConst:
		s := x.s
		switch op {
		case "*":
			s.frac *= y.c
			s.minus *= y.c
		case "/":
			if y.c == 0 {
				return value{}
			}
			s.frac /= y.c
			s.minus /= y.c
		case "-":
			s.minus += y.c
		case "+":
			s.minus -= y.c
		case ">>":
			s.frac /= math.Pow(2, y.c)
			s.minus /= math.Pow(2, y.c)
		default:
			return value{}
		}
		return value{isShare: true, s: s}
	case x.isConst && y.isShare:
		switch op {
		case "*", "+":
			return combine(op, y, x)
		}
	case x.isShare && y.isShare && op == "-" && x.s.total == y.s.total && len(y.s.factors) == 0 && len(y.s.unknownMinus) == 0:
		// free - free / 10: nine tenths of free memory.
		s := x.s
		s.frac -= y.s.frac
		s.minus -= y.s.minus
		return value{isShare: true, s: s}
	case x.isShare && y.sym != "":
		switch op {
		case "*":
			return value{isShare: true, s: x.s.withFactor(y.sym, 1)}
		case "/":
			return value{isShare: true, s: x.s.withFactor(y.sym, -1)}
		case "-":
			s := x.s
			s.unknownMinus = append(append([]string(nil), s.unknownMinus...), y.sym)
			return value{isShare: true, s: s}
		}
	case y.isShare && x.sym != "" && op == "*":
		return combine(op, y, x)
	case x.isConst && y.sym != "" && op == "*", x.sym != "" && y.isConst && (op == "*" || op == "/"):
		// 2 * n is still "some multiple of n" for naming what is subtracted.
		return value{sym: x.sym + y.sym}
	}
	return value{}
}

// worst picks, of two possible values, the one more likely to exhaust
// memory: a share over anything else, the larger share over the smaller.
func worst(x, y value) value {
	switch {
	case x.isShare && y.isShare:
		if y.s.frac > x.s.frac || y.s.frac == x.s.frac && y.s.minus < x.s.minus {
			return y
		}
		return x
	case x.isShare:
		return x
	case y.isShare:
		return y
	case x.isConst && y.isConst && x.c == y.c:
		return x
	case !x.isConst && !x.isShare:
		return y
	}
	return value{}
}

// declaredKernels returns the names of the kernels the file declares or
// defines.
func declaredKernels(f *cudaparse.File) map[string]bool {
	out := map[string]bool{}
	for _, list := range [][]*cudaparse.Function{f.Functions, f.Prototypes} {
		for _, fn := range list {
			if fn.IsKernel() {
				out[fn.Name] = true
			}
		}
	}
	return out
}

package ll005

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
)

// Where a module load keeps its handle. A runtime that loads one image per
// device or context on demand keeps the handle in one entry of something
// looked up by the device or context: a table (`&mods[dev]`,
// `&this->modules_[dev]`), a map (`cache[ctx]`, `cache.emplace(ctx, m)`,
// `find` then `insert`), a record reached through a pointer or reference
// (`auto *e = &table[dev]; ... &e->module`, `CUmodule &m = cache[ctx]`), a
// list of records that carry their context, or a record of the caller's
// whose own context is made current. The load may also write a parameter
// (a helper given the slot by its caller) or a local it returns (a loader
// whose caller stores the result, or hands the loader to a cache).

// entry is one such place, as seen from the function that stores into it.
type entry struct {
	fn *cudaparse.Function
	at cudaparse.Node // the load, or the call or assignment that stores the handle
	// keys are what the entry is looked up or tagged by; keyer judges
	// which of them are devices or contexts.
	keys []cudaparse.Node
	// names hold the table, the entry or the handle: a test that reads one
	// of them tests whether the entry is filled.
	names map[string]bool
	// indexed: the keys index a table (&table[k]).
	indexed bool
	// frames lead from fn down to the function that holds the load,
	// outermost first.
	frames []frame
	// byCache: the loader is handed to a cache's own lookup, which tests
	// the entry itself.
	byCache bool
	// lifted: seen from a caller of the function that looks the entry up,
	// which passes the key.
	lifted bool
}

// frame is a call on the way from an entry's function to the load.
type frame struct {
	call   *cudaparse.Call
	callee *cudaparse.Function
	// direct: call calls callee, so callee's parameters take call's
	// arguments; false for a loader handed to a cache.
	direct bool
}

func newEntry(fn *cudaparse.Function, at cudaparse.Node) entry {
	return entry{fn: fn, at: at, names: map[string]bool{}}
}

// absorb adds what subs found in the same function and at the same store
// to e, and returns the others (found in callers).
func (e *entry) absorb(subs []entry) []entry {
	var others []entry
	for _, s := range subs {
		if s.fn != e.fn || s.at != e.at || len(s.frames) != len(e.frames) {
			others = append(others, s)
			continue
		}
		e.keys = append(e.keys, s.keys...)
		e.indexed = e.indexed || s.indexed
		e.byCache = e.byCache || s.byCache
		for n := range s.names {
			e.names[n] = true
		}
	}
	return others
}

// callCost is what following a call costs of the depth budget
// (maxValueDepth) that bounds the search: a few calls, more expression
// steps.
const callCost = 2

// resolver finds the entries of one file's loads.
type resolver struct {
	file   *cudaparse.File
	callAt map[cudaparse.Node]*cudaparse.Call
}

func newResolver(f *cudaparse.File) *resolver {
	r := &resolver{file: f, callAt: map[cudaparse.Node]*cudaparse.Call{}}
	for _, c := range f.Calls {
		r.callAt[c.Node] = c
	}
	return r
}

// entries returns the places where load keeps its handle.
func (r *resolver) entries(load *cudaparse.Call) []entry {
	if load.Func == nil || len(load.Args) < 2 {
		return nil
	}
	return r.slot(load.Func, load.Args[0], load.Node, 0)
}

// slot resolves the address a load writes to: `&x`, or a pointer to it.
func (r *resolver) slot(fn *cudaparse.Function, addr, at cudaparse.Node, depth int) []entry {
	if depth > maxValueDepth {
		return nil
	}
	x := addr.Unparen()
	if x.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(x.Text()), "&") {
		inner := x.ChildByField("argument").Unparen()
		if inner.Is("identifier") {
			return r.handleVariable(fn, inner, at, depth)
		}
		return r.object(fn, inner, at, depth)
	}
	if !x.Is("identifier") {
		return nil
	}
	var out []entry
	for _, d := range r.file.ReachingDefs(x) {
		switch {
		case d.Op == cudaparse.DefParam:
			out = append(out, r.fromCallers(fn, d.Index, depth, r.slot)...)
		case d.Value.Valid():
			out = append(out, r.slot(fn, d.Value, at, depth)...)
		}
	}
	return out
}

// handleVariable: the load writes variable v. It is a reference to an
// entry, or a local that is stored into one afterwards or returned.
func (r *resolver) handleVariable(fn *cudaparse.Function, v, at cudaparse.Node, depth int) []entry {
	local := false
	var out []entry
	for _, d := range r.file.ReachingDefs(v) {
		switch {
		case d.Op == cudaparse.DefInit && d.Node.ChildByField("declarator").Is("reference_declarator"):
			for _, e := range r.object(fn, d.Value, at, depth) {
				e.names[v.Text()] = true
				out = append(out, e)
			}
			return out
		case d.Op == cudaparse.DefParam:
			if declarator := d.Node.ChildByField("declarator"); declarator.Is("reference_declarator") {
				return r.fromCallers(fn, d.Index, depth, r.handleOrObject)
			}
		case d.Op == cudaparse.DefInit || d.Op == cudaparse.DefDecl:
			local = true
		}
	}
	if !local {
		return nil // a member or a global: one module, not one per key
	}
	out = r.storedAfter(fn, v.Text(), at, depth)
	if returnsName(r.file, fn, v.Text()) {
		out = append(out, r.loaderUses(fn, depth)...)
	}
	for k := range out {
		out[k].names[v.Text()] = true
	}
	return out
}

// handleOrObject resolves what a caller passes for a reference to the
// handle: a variable of its own (helper(m, image)), or an entry.
func (r *resolver) handleOrObject(fn *cudaparse.Function, x, at cudaparse.Node, depth int) []entry {
	if x = x.Unparen(); x.Is("identifier") {
		return r.handleVariable(fn, x, at, depth)
	}
	return r.object(fn, x, at, depth)
}

// object resolves an expression that is, or leads to, the entry: a table's
// element, a record's field, a map lookup, a variable that holds the
// entry.
func (r *resolver) object(fn *cudaparse.Function, x, at cudaparse.Node, depth int) []entry {
	if depth > maxValueDepth {
		return nil
	}
	x = x.Unparen()
	switch x.Kind() {
	case "subscript_expression":
		e := newEntry(fn, at)
		e.indexed = true
		for x.Is("subscript_expression") {
			e.keys = append(e.keys, x.ChildByField("indices").NamedChildren()...)
			x = x.ChildByField("argument").Unparen()
		}
		others := e.absorb(r.container(fn, x, at, depth))
		return append([]entry{e}, others...)
	case "field_expression":
		arg := x.ChildByField("argument")
		if arg.Is("this") {
			return nil // a member of the object itself
		}
		return r.object(fn, arg, at, depth+1)
	case "pointer_expression":
		return r.object(fn, x.ChildByField("argument"), at, depth+1)
	case "call_expression":
		return r.lookup(fn, x, at, depth)
	case "identifier":
		return r.recordVariable(fn, x, at, depth)
	}
	return nil
}

// container resolves the table or map an entry is in, for its names and
// for keys of its own: getCache(dev)[k], `auto &cache = per_device[dev]`.
func (r *resolver) container(fn *cudaparse.Function, base, at cudaparse.Node, depth int) []entry {
	e := newEntry(fn, at)
	base = base.Unparen()
	switch base.Kind() {
	case "identifier":
		e.names[base.Text()] = true
		for _, d := range r.file.ReachingDefs(base) {
			if d.Op == cudaparse.DefInit && d.Value.Valid() {
				e.absorb(r.object(fn, d.Value, at, depth+1))
			}
		}
	case "field_expression":
		e.names[base.ChildByField("field").Text()] = true
		if key := cudaparse.VarKey(base); key != "" {
			e.names[key] = true
		}
		if arg := base.ChildByField("argument"); !arg.Is("this") {
			e.absorb(r.object(fn, arg, at, depth+1))
		}
	case "call_expression", "subscript_expression":
		e.absorb(r.object(fn, base, at, depth+1))
	}
	return []entry{e}
}

// lookupKeys are the map methods whose first argument is the key.
var lookupKeys = map[string]bool{
	"find": true, "at": true, "count": true, "contains": true, "lower_bound": true, "upper_bound": true,
	"equal_range": true, "emplace": true, "try_emplace": true, "insert_or_assign": true, "insert": true,
}

// lookup resolves a call that gives the entry: cache.find(ctx)->second,
// cache.try_emplace(key, ...), getCache(dev)[k].
func (r *resolver) lookup(fn *cudaparse.Function, call, at cudaparse.Node, depth int) []entry {
	e := newEntry(fn, at)
	callee := call.ChildByField("function")
	args := call.ChildByField("arguments").NamedChildren()
	if !callee.Is("field_expression") {
		e.keys = append(e.keys, args...) // getCache(dev): a container per key
		e.names[callee.Name()] = true
		return []entry{e}
	}
	if method := callee.ChildByField("field").Text(); lookupKeys[method] && len(args) > 0 {
		key := args[0]
		if method == "insert" {
			key = firstOfPair(key) // insert({k, v}): the element
		}
		e.keys = append(e.keys, key)
	}
	others := e.absorb(r.container(fn, callee.ChildByField("argument"), at, depth))
	return append([]entry{e}, others...)
}

// firstOfPair returns the key of a map element written as {k, v} or
// std::make_pair(k, v); other expressions as they are.
func firstOfPair(n cudaparse.Node) cudaparse.Node {
	parts := pairParts(n)
	if len(parts) > 1 {
		return parts[0]
	}
	return n
}

// pairParts splits {a, b}, Element{a, b}, std::make_pair(a, b),
// std::pair<K, V>(a, b) and std::make_tuple(...) into their parts;
// anything else is one part.
func pairParts(n cudaparse.Node) []cudaparse.Node {
	n = n.Unparen()
	switch {
	case n.Is("initializer_list"):
		return n.NamedChildren()
	case n.Is("compound_literal_expression"):
		return n.ChildByField("value").NamedChildren()
	case n.Is("call_expression"):
		switch n.ChildByField("function").Name() {
		case "make_pair", "make_tuple", "pair", "tuple":
			return n.ChildByField("arguments").NamedChildren()
		}
	}
	return []cudaparse.Node{n}
}

// recordVariable: a variable that holds the entry: a pointer or reference
// to it, an iterator or emplace result, a record just allocated (a list
// node, tagged with its context), or a record the caller passes.
func (r *resolver) recordVariable(fn *cudaparse.Function, v, at cudaparse.Node, depth int) []entry {
	e := newEntry(fn, at)
	e.names[v.Text()] = true
	var others []entry
	asParam := false
	for _, d := range r.file.ReachingDefs(v) {
		switch d.Op {
		case cudaparse.DefInit, cudaparse.DefAssign, cudaparse.DefBind:
			if isAllocation(d.Value) {
				e.keys = append(e.keys, r.taggedWith(fn, v.Text())...)
				continue
			}
			if d.Op == cudaparse.DefBind {
				for _, b := range d.Node.ChildByField("declarator").NamedChildren() {
					e.names[b.Text()] = true
				}
			}
			others = append(others, e.absorb(r.object(fn, d.Value, at, depth+1))...)
		case cudaparse.DefParam, cudaparse.DefOut:
			// A parameter handed by address to a helper (select(&rec))
			// is still the caller's record.
			index := paramIndex(fn, v.Text())
			if index < 0 || asParam {
				continue
			}
			asParam = true
			e.keys = append(e.keys, r.ownContext(fn, v.Text())...)
			others = append(others, r.fromCallers(fn, index, depth, r.object)...)
		}
	}
	return append([]entry{e}, others...)
}

// isAllocation reports whether a value is a fresh record: malloc, calloc,
// new, std::make_unique.
func isAllocation(n cudaparse.Node) bool {
	n = n.Unparen()
	if n.Is("new_expression") {
		return true
	}
	if !n.Is("call_expression") {
		return false
	}
	switch n.ChildByField("function").Name() {
	case "malloc", "calloc", "make_unique", "make_shared":
		return true
	}
	return false
}

// taggedWith returns the values fn stores in the fields of record v
// (p->owner = ctx): a list node carries its own key.
func (r *resolver) taggedWith(fn *cudaparse.Function, v string) []cudaparse.Node {
	var out []cudaparse.Node
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if n.Is("assignment_expression") && strings.HasPrefix(cudaparse.VarKey(n.ChildByField("left")), v+".") {
			out = append(out, n.ChildByField("right"))
		}
		return true
	})
	return out
}

// ownContext returns the fields of record v that fn makes current
// (cuCtxPushCurrent(r->ctx)), itself or through a helper of the file it
// hands the record to: the record belongs to that context.
func (r *resolver) ownContext(fn *cudaparse.Function, v string) []cudaparse.Node {
	return r.ownContextAt(fn, v, 0)
}

func (r *resolver) ownContextAt(fn *cudaparse.Function, v string, depth int) []cudaparse.Node {
	var out []cudaparse.Node
	for _, c := range r.file.CallsIn(fn) {
		at, ok := contextSwitchTarget[c.Name]
		if !ok {
			if depth < maxHelperDepth {
				out = append(out, r.ownContextOfHelper(c, v, depth)...)
			}
			continue
		}
		if at < 0 {
			at = len(c.Args) - 1
		}
		if target := c.Arg(at).Unparen(); target.Is("field_expression") && strings.HasPrefix(cudaparse.VarKey(target), v+".") {
			out = append(out, target)
		}
	}
	return out
}

// ownContextOfHelper: call hands record v (or its address) to a function
// of the file, which makes the record's context current.
func (r *resolver) ownContextOfHelper(c *cudaparse.Call, v string, depth int) []cudaparse.Node {
	callee := r.file.FunctionNamed(c.Name)
	if callee == nil || callee == c.Func || !callee.Body.Valid() || len(callee.Params) != len(c.Args) {
		return nil
	}
	var out []cudaparse.Node
	for _, p := range callee.Params {
		arg := c.Arg(p.Index).Unparen()
		if arg.Is("pointer_expression") {
			arg = arg.ChildByField("argument").Unparen()
		}
		if isName(arg, v) {
			out = append(out, r.ownContextAt(callee, p.Name, depth+1)...)
		}
	}
	return out
}

// lift returns e as seen from each call of its function in the file, when
// a key is one of the function's parameters: the caller's arguments stand
// for the parameters in the keys and names, and the call leads to the
// function.
func (r *resolver) lift(e entry, keys []cudaparse.Node) []entry {
	params := map[string]int{}
	for _, p := range e.fn.Params {
		params[p.Name] = p.Index
	}
	byParam := false
	for _, key := range keys {
		byParam = byParam || mentions(key, paramSet(params))
	}
	if !byParam {
		return nil
	}
	var out []entry
	for _, c := range r.file.Calls {
		if c.Name != e.fn.Name || c.Func == nil || c.Func == e.fn || len(c.Args) != len(e.fn.Params) {
			continue
		}
		l := newEntry(c.Func, c.Node)
		l.indexed, l.byCache, l.lifted = e.indexed, e.byCache, true
		l.frames = append([]frame{{call: c, callee: e.fn, direct: true}}, e.frames...)
		for _, key := range e.keys {
			l.keys = append(l.keys, substitute(key, params, c)...)
		}
		for n := range e.names {
			if k, ok := params[n]; ok {
				addIdentifiers(l.names, c.Arg(k))
			} else {
				l.names[n] = true
			}
		}
		out = append(out, l)
	}
	return out
}

func paramSet(params map[string]int) map[string]bool {
	out := map[string]bool{}
	for n := range params {
		out[n] = true
	}
	return out
}

// substitute returns what key is at call: the arguments for the
// parameters it reads, or key itself when it reads none (a global).
func substitute(key cudaparse.Node, params map[string]int, call *cudaparse.Call) []cudaparse.Node {
	var out []cudaparse.Node
	key.Descendants(func(n cudaparse.Node) bool {
		if k, ok := params[n.Text()]; ok && n.Is("identifier") {
			out = append(out, call.Arg(k))
		}
		return true
	})
	if len(out) == 0 {
		return []cudaparse.Node{key}
	}
	return out
}

// fromCallers resolves parameter index of fn at each call of fn in the
// file, with resolve (slot for a pointer to the handle, object for a
// record).
func (r *resolver) fromCallers(fn *cudaparse.Function, index int, depth int,
	resolve func(*cudaparse.Function, cudaparse.Node, cudaparse.Node, int) []entry) []entry {
	if depth+callCost > maxValueDepth {
		return nil
	}
	var out []entry
	for _, c := range r.file.Calls {
		if c.Name != fn.Name || c.Func == nil || c.Func == fn || len(c.Args) != len(fn.Params) {
			continue
		}
		for _, e := range resolve(c.Func, c.Arg(index), c.Node, depth+callCost) {
			e.frames = append(e.frames, frame{call: c, callee: fn, direct: true})
			out = append(out, e)
		}
	}
	return out
}

// inserters put an element into a container.
var inserters = map[string]bool{
	"emplace": true, "try_emplace": true, "insert": true, "insert_or_assign": true,
	"push_back": true, "emplace_back": true, "push_front": true, "emplace_front": true, "push": true,
}

// storedAfter finds where fn stores the handle held in v after the load:
// `table[dev] = m`, `e->mod = m`, `cache.emplace(ctx, m)`.
func (r *resolver) storedAfter(fn *cudaparse.Function, v string, at cudaparse.Node, depth int) []entry {
	var out []entry
	holds := func(n cudaparse.Node) bool { return isName(n, v) }
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if n.End() <= at.Start() {
			return false // before the load
		}
		switch {
		case n.Is("assignment_expression") && holds(n.ChildByField("right")):
			out = append(out, r.object(fn, n.ChildByField("left"), n, depth+1)...)
		case n.Is("call_expression"):
			out = append(out, r.inserted(fn, n, holds, depth)...)
		}
		return true
	})
	return out
}

// inserted: call puts the handle into a container, with the other parts of the
// element as its keys: cache.emplace(ctx, m), list.push_back({ctx, m}).
func (r *resolver) inserted(fn *cudaparse.Function, call cudaparse.Node, handle func(cudaparse.Node) bool, depth int) []entry {
	callee := call.ChildByField("function")
	if !callee.Is("field_expression") || !inserters[callee.ChildByField("field").Text()] {
		return nil
	}
	e := newEntry(fn, call)
	holds := false
	for _, arg := range call.ChildByField("arguments").NamedChildren() {
		for _, part := range pairParts(arg) {
			if handle(part) {
				holds = true
			} else {
				e.keys = append(e.keys, part)
			}
		}
	}
	if !holds {
		return nil
	}
	others := e.absorb(r.container(fn, callee.ChildByField("argument"), call, depth+1))
	return append([]entry{e}, others...)
}

// loaderUses follows a function that returns the module it loaded: its
// callers store the result per key, or hand the function to a cache's own
// lookup along with the key.
func (r *resolver) loaderUses(loader *cudaparse.Function, depth int) []entry {
	if depth+callCost > maxValueDepth {
		return nil
	}
	var out []entry
	for _, id := range r.file.NodesOfKind("identifier") {
		if id.Text() != loader.Name || loader.Node.Contains(id) {
			continue
		}
		caller := r.file.FunctionOf(id)
		if caller == nil || !caller.Body.Contains(id) {
			continue
		}
		use := id
		for use.Parent().Is("qualified_identifier", "template_function", "field_expression") {
			use = use.Parent()
		}
		p := use.Parent()
		switch {
		case p.Is("call_expression") && p.ChildByField("function") == use:
			if c := r.callAt[p]; c != nil {
				for _, e := range r.destination(caller, p, depth+callCost) {
					e.frames = append(e.frames, frame{call: c, callee: loader, direct: true})
					out = append(out, e)
				}
			}
		case p.Is("argument_list"):
			if c := r.callAt[p.Parent()]; c != nil {
				out = append(out, r.handedToCache(caller, c, use, loader, depth+callCost))
			}
		}
	}
	return out
}

// destination resolves where the value of a loader's call goes.
func (r *resolver) destination(fn *cudaparse.Function, call cudaparse.Node, depth int) []entry {
	x := call
	for {
		p := x.Parent()
		if p.Is("parenthesized_expression", "cast_expression") {
			x = p
			continue
		}
		// CHECK(load()), std::move(load()): a call of one argument that
		// is not the file's passes the value on.
		if p.Is("argument_list") && len(p.NamedChildren()) == 1 && p.Parent().Is("call_expression") &&
			r.file.FunctionNamed(p.Parent().ChildByField("function").Name()) == nil && !isMethodCall(p.Parent()) {
			x = p.Parent()
			continue
		}
		break
	}
	p := x.Parent()
	switch {
	case p.Is("assignment_expression") && p.ChildByField("right") == x:
		return r.object(fn, p.ChildByField("left"), p, depth)
	case p.Is("init_declarator"):
		name := cudaparse.DeclaredName(p.ChildByField("declarator"))
		return r.storedAfter(fn, name, p, depth)
	case p.Is("argument_list"):
		if c := p.Parent(); c.Is("call_expression") {
			return r.inserted(fn, c, func(n cudaparse.Node) bool { return n.Unparen() == x.Unparen() }, depth)
		}
	case p.Is("return_statement"):
		return r.loaderUses(fn, depth)
	}
	return nil
}

// handedToCache: loader is an argument of call, a cache's lookup that
// loads on a miss; the call's other arguments are the key.
func (r *resolver) handedToCache(fn *cudaparse.Function, c *cudaparse.Call, use cudaparse.Node, loader *cudaparse.Function, depth int) entry {
	e := newEntry(fn, c.Node)
	e.byCache = true
	for _, a := range c.Args {
		if a != use {
			e.keys = append(e.keys, a)
		}
	}
	if callee := c.Callee; callee.Is("field_expression") {
		e.absorb(r.container(fn, callee.ChildByField("argument"), c.Node, depth+1))
	}
	e.frames = []frame{{call: c, callee: loader}}
	return e
}

// paramIndex returns the position of fn's parameter named name, or -1.
func paramIndex(fn *cudaparse.Function, name string) int {
	for _, p := range fn.Params {
		if p.Name == name {
			return p.Index
		}
	}
	return -1
}

func isMethodCall(call cudaparse.Node) bool {
	return call.ChildByField("function").Is("field_expression")
}

func isName(n cudaparse.Node, name string) bool {
	n = n.Unparen()
	return n.Is("identifier") && n.Text() == name
}

// returnsName reports whether fn returns the variable name.
func returnsName(f *cudaparse.File, fn *cudaparse.Function, name string) bool {
	for _, v := range f.ReturnValues(fn) {
		if isName(v, name) {
			return true
		}
	}
	return false
}

package ll005

import (
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// A per-device module cache filled on demand is the loop over devices
// spread over calls: each lookup in a new device or context loads the same
// image there. A load is one when its handle goes into an entry looked up
// by a device or context (cacheentry.go, devicekey.go), the entry is filled
// only when empty (a test of the table, the entry or the handle guards the
// load, or the loader is handed to the cache's own lookup), and the image
// does not depend on the key (one image per compute capability is
// different modules).

// cacheFinding is a load that fills a per-device cache, and the entry.
type cacheFinding struct {
	entry entry
	keys  []cudaparse.Node
}

func checkCaches(p *rule.Pass, a *analysis, reported map[int]bool) {
	r := newResolver(p.File)
	k := newKeyer(p.File)
	loads := append(append([]*cudaparse.Call{}, p.File.Calls...), stubLoads(p.File)...)
	for _, c := range append(loads, dispatchedLoads(p.File)...) {
		if !moduleLoads[c.Name] || reported[c.Node.Start()] || !isHostCode(c.Func) || a.hasLibraryAlternative(c.Node, c.Func) {
			continue
		}
		for _, e := range r.entries(c) {
			if found, ok := fillsCache(a, k, r, c, e); ok {
				reported[c.Node.Start()] = true
				p.Report(c.Callee, cacheMessage(c, found), cacheRelated(c, found)...)
				break
			}
		}
	}
}

// fillsCache reports whether entry e of load is one of a per-device
// cache, filled on demand with one image for every key. When the key is a
// parameter of the entry's function, the entry is judged at each call of
// that function in the file, where the key and the image have their
// values; a test in the function itself still counts.
func fillsCache(a *analysis, k *keyer, r *resolver, load *cudaparse.Call, e entry) (cacheFinding, bool) {
	keys := deviceKeys(a.file, k, e)
	if len(keys) == 0 {
		return cacheFinding{}, false
	}
	testedHere := e.byCache || tested(a.file, e, keyRoots(k, keys))
	candidates := []entry{e}
	for level := 0; level < maxHelperDepth; level++ {
		var lifted []entry
		for _, c := range candidates {
			lifted = append(lifted, r.lift(c, deviceKeys(a.file, k, c))...)
		}
		if len(lifted) == 0 {
			break
		}
		candidates = lifted
	}
	for _, c := range candidates {
		if found, ok := qualifies(a, k, load, c, testedHere); ok {
			return found, true
		}
	}
	return cacheFinding{}, false
}

// qualifies judges one view of an entry: keyed by a device or context,
// tested (or testedHere), the same image for every key, no library load
// beside it.
func qualifies(a *analysis, k *keyer, load *cudaparse.Call, e entry, testedHere bool) (cacheFinding, bool) {
	keys := deviceKeys(a.file, k, e)
	if len(keys) == 0 {
		return cacheFinding{}, false
	}
	roots := keyRoots(k, keys)
	if !testedHere && !e.byCache && !tested(a.file, e, roots) {
		return cacheFinding{}, false
	}
	if imageVaries(a.file, load, e, roots) {
		return cacheFinding{}, false
	}
	if e.fn != load.Func && a.hasLibraryAlternative(e.at, e.fn) {
		return cacheFinding{}, false
	}
	return cacheFinding{entry: e, keys: keys}, true
}

// deviceKeys returns the keys of e that are devices or contexts. A table
// entry filled right after a context switch in the same function is taken
// to be the switched-to context's, whatever its index.
func deviceKeys(f *cudaparse.File, k *keyer, e entry) []cudaparse.Node {
	var out []cudaparse.Node
	for _, key := range e.keys {
		if k.isKey(key, 0) {
			out = append(out, key)
		}
	}
	if len(out) == 0 && e.indexed && switchOnTheWay(f, e) != nil {
		return e.keys
	}
	return out
}

// switchOnTheWay returns a call of e's function that makes a context or
// device current before the store.
func switchOnTheWay(f *cudaparse.File, e entry) *cudaparse.Call {
	for _, c := range f.CallsIn(e.fn) {
		if _, ok := contextSwitchTarget[c.Name]; ok && c.Node.Start() < e.at.Start() && cudaparse.OnTheWay(c.Node, e.at) {
			return c
		}
	}
	return nil
}

// keyRoots returns the variables that carry the key: those of the key
// expressions that are keys themselves (dev in make_pair(dev, name)), and
// the records whose field is the key (scope in scope.handle).
func keyRoots(k *keyer, keys []cudaparse.Node) map[string]bool {
	roots := map[string]bool{}
	for _, key := range keys {
		key.Descendants(func(n cudaparse.Node) bool {
			switch {
			case n.Is("identifier") && k.isKey(n, 0):
				roots[n.Text()] = true
			case n.Is("field_expression") && k.isKey(n, 0):
				roots[cudaparse.VarKey(n)] = true
				if base := strings.SplitN(cudaparse.VarKey(n), ".", 2)[0]; base != "" {
					roots[base] = true
				}
			}
			return true
		})
		if v := cudaparse.VarKey(key); v != "" {
			roots[v] = true
		}
	}
	return roots
}

// tested reports whether the store is guarded by a test of the entry: an
// `if` around it, or an earlier `if` that leaves the function, whose
// condition reads the table, the entry or the handle (or compares the
// key, as a list search does).
func tested(f *cudaparse.File, e entry, roots map[string]bool) bool {
	for p := e.at.Parent(); p.Valid() && p != e.fn.Body; p = p.Parent() {
		if !p.Is("if_statement", "while_statement", "for_statement", "conditional_expression") {
			continue
		}
		if cond := p.ChildByField("condition"); cond.Valid() && !cond.Contains(e.at) && readsEntry(f, cond, e.names, roots) {
			return true
		}
	}
	if onceForKey(f, e, roots) {
		return true
	}
	for _, guard := range f.NodesOfKind("if_statement") {
		if !e.fn.Body.Contains(guard) || guard.End() > e.at.Start() || !leaves(guard.ChildByField("consequence")) {
			continue
		}
		if readsEntry(f, guard.ChildByField("condition"), e.names, roots) && cudaparse.OnTheWay(guard, e.at) {
			return true
		}
	}
	return false
}

// onceForKey reports whether the store runs in a lambda handed to
// std::call_once (or pthread_once) with a flag of the entry's or the key's:
// call_once(flags[dev], load), directly or through a variable.
func onceForKey(f *cudaparse.File, e entry, roots map[string]bool) bool {
	lambda := e.at.Ancestor("lambda_expression")
	if !lambda.Valid() || !e.fn.Body.Contains(lambda) {
		return false
	}
	var bound string
	if p := lambda.Parent(); p.Is("init_declarator") {
		bound = cudaparse.DeclaredName(p.ChildByField("declarator"))
	}
	for _, c := range f.CallsIn(e.fn) {
		if !cudaparse.OnceRunners[c.Name] || len(c.Args) < 2 {
			continue
		}
		runs := false
		for _, arg := range c.Args[1:] {
			runs = runs || arg.Unparen() == lambda || bound != "" && isName(arg, bound)
		}
		if runs && (mentions(c.Args[0], e.names) || mentions(c.Args[0], roots)) {
			return true
		}
	}
	return false
}

// leaves reports whether a branch returns (or throws): the code after the
// `if` runs only when the condition was false.
func leaves(branch cudaparse.Node) bool {
	found := false
	branch.Descendants(func(n cudaparse.Node) bool {
		found = found || n.Is("return_statement", "throw_statement")
		return !found && !n.Is("lambda_expression")
	})
	return found
}

// readsEntry reports whether a condition reads one of names (directly or
// through a variable set from them: an iterator from find, emplace's
// flag), or compares a key root with ==.
func readsEntry(f *cudaparse.File, cond cudaparse.Node, names, roots map[string]bool) bool {
	reads, compares := false, false
	cond.Descendants(func(n cudaparse.Node) bool {
		switch {
		case n.Is("identifier", "field_identifier") && names[n.Text()]:
			reads = true
		case n.Is("field_expression") && names[cudaparse.VarKey(n)]:
			reads = true
		case n.Is("identifier"):
			reads = reads || setFrom(f, n, names)
		case n.Is("binary_expression") && strings.TrimSpace(n.ChildByField("operator").Text()) == "==":
			compares = compares || mentions(n, roots)
		}
		return !reads
	})
	return reads || compares
}

// setFrom reports whether the definitions of id that reach it read one of
// names: `auto it = cache.find(k)`.
func setFrom(f *cudaparse.File, id cudaparse.Node, names map[string]bool) bool {
	for _, d := range f.ReachingDefs(id) {
		if d.Value.Valid() && mentions(d.Value, names) {
			return true
		}
	}
	return false
}

// mentions reports whether n reads a variable or member of names.
func mentions(n cudaparse.Node, names map[string]bool) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		switch {
		case x.Is("identifier", "field_identifier"):
			found = found || names[x.Text()]
		case x.Is("field_expression"):
			found = found || names[cudaparse.VarKey(x)]
		}
		return !found
	})
	return found
}

// imageVaries reports whether the image depends on the key: a different
// module per device (images[dev], one built for the device's compute
// capability or for its context). The key's variables play the part of a
// loop's counters; helper and loader calls map parameters to arguments.
func imageVaries(f *cudaparse.File, load *cudaparse.Call, e entry, roots map[string]bool) bool {
	image := load.Args[1]
	outer := outerNames(e, load)
	for n := range outer {
		if roots[n] {
			return true
		}
	}
	if builtFromKey(f, e, outer, roots) {
		return true
	}
	a := &analysis{file: f}
	top := a.newScope(e.fn.Body, nil, nil, nil)
	top.loop = &loop{node: e.fn.Body, body: e.fn.Body, fn: e.fn, vars: roots}
	s := top
	for _, fr := range e.frames {
		if !fr.direct {
			s = a.newScope(fr.callee.Body, nil, nil, s)
			continue
		}
		params := map[string]int{}
		for _, p := range fr.callee.Params {
			params[p.Name] = p.Index
		}
		s = a.newScope(fr.callee.Body, params, fr.call, s)
	}
	return s.varies(image)
}

// outerNames returns the variables and members the load's image reads, as
// the entry's function names them: a helper's parameters stand for what
// its caller passes.
func outerNames(e entry, load *cudaparse.Call) map[string]bool {
	names := map[string]bool{}
	addIdentifiers(names, load.Args[1])
	for k := len(e.frames) - 1; k >= 0; k-- {
		fr := e.frames[k]
		if !fr.direct {
			continue
		}
		mapped := map[string]bool{}
		for n := range names {
			mapped[n] = true
		}
		for _, p := range fr.callee.Params {
			if names[p.Name] {
				delete(mapped, p.Name)
				addIdentifiers(mapped, fr.call.Arg(p.Index))
			}
		}
		names = mapped
	}
	return names
}

// builtFromKey reports whether a call before the store fills the image's
// buffer and takes the key too: compile(ctx, &src, &bin) builds the image
// for that context. (The definitions that reach the image may stop at a
// later call that only reads the buffer through its address,
// buffer_failed(&bin), so the calls are looked at directly.)
func builtFromKey(f *cudaparse.File, e entry, buffers, roots map[string]bool) bool {
	for _, c := range f.CallsIn(e.fn) {
		if c.Node.End() > e.at.Start() {
			continue
		}
		fills, keyed := false, false
		for _, arg := range c.Args {
			x := arg.Unparen()
			if x.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(x.Text()), "&") && isAnyName(x.ChildByField("argument"), buffers) {
				fills = true
			} else if mentions(arg, roots) {
				keyed = true
			}
		}
		if fills && keyed {
			return true
		}
	}
	return false
}

func isAnyName(n cudaparse.Node, names map[string]bool) bool {
	n = n.Unparen()
	return n.Is("identifier") && names[n.Text()]
}

func cacheMessage(load *cudaparse.Call, found cacheFinding) string {
	library := "cuLibraryLoadData"
	if load.Name == "cuModuleLoad" {
		library = "cuLibraryLoadFromFile"
	}
	name := load.Name
	if load.Spelled != "" {
		name += " (through " + load.Spelled + ")"
	}
	key := compact(found.keys[0].Text())
	if len(key) > 40 {
		key = key[:37] + "..."
	}
	return fmt.Sprintf("the same module is loaded into each context by hand (%s fills a per-device module cache on first use, keyed by %s): since CUDA 12.0, %s loads it once for every context, current and future, and cuLibraryGetKernel gives one context-independent kernel handle to launch in whichever context is current; under lazy loading each context loads the kernels at first use either way",
		name, key, library)
}

func cacheRelated(load *cudaparse.Call, found cacheFinding) []rule.FindingOption {
	var out []rule.FindingOption
	e := found.entry
	if e.at != load.Node {
		what := "the module is kept per device or context here"
		switch {
		case e.lifted:
			what = "the device or context is passed here"
		case e.byCache:
			what = "the loader is handed to a cache keyed by device or context here"
		}
		out = append(out, rule.Related(e.at, what))
	}
	if sw := switchOnTheWay(load.Node.File(), e); sw != nil {
		out = append(out, rule.Related(sw.Node, "the context of the device is made current here"))
	}
	return out
}

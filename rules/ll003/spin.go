package ll003

import (
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
)

// Device side: loops that spin on memory another agent writes.

// spinRead is one read in a wait loop of memory that another agent releases.
type spinRead struct {
	node cudaparse.Node // the read: *flag, atomicAdd(p, 0), r.load(), the asm statement
	key  string         // the location read: the variable the pointer comes from
	how  string         // "volatile read", "atomicAdd(p, 0)", "atomic load", "ld.acquire"...
	// origin names the location in words other files share
	// (cudaparse.OriginKey), "" when it has none.
	origin string
}

// noOpAtomics (used as coherent reads) and atomicWrites are cudaparse's,
// which device summaries use too.
var (
	noOpAtomics  = knowledge.NoOpAtomics
	atomicWrites = knowledge.AtomicWrites
)

// volatileLoads are intrinsics and builtins that read memory other agents
// write: cache-bypassing loads and atomic loads.
var volatileLoads = map[string]bool{
	"__ldcv": true, "__ldcg": true, "__ldvolatile": true, "__ldlu": true,
	"__atomic_load_n": true, "__atomic_load": true, "atomic_load": true, "atomic_load_explicit": true,
}

// atomicObjectMethods read (or wait on) an atomic object.
var atomicObjectMethods = map[string]bool{"load": true, "wait": true, "test": true}

// spinAsm matches PTX loads that see other agents' writes: a load (ld.)
// with an ordering or scope that makes it one (ld.global.acquire.gpu,
// ld.volatile, ld.relaxed.sys). The prefilter uses the same words.
func spinAsm(template string) bool {
	t := strings.ToLower(template)
	if !strings.Contains(t, "ld.") {
		return false
	}
	for _, m := range ptxSpinMarkers {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}

// ptxSpinMarkers qualify a PTX load as a spin read.
var ptxSpinMarkers = []string{".acquire", ".volatile", ".relaxed", "ld.sys", "ld.gpu"}

// spinReadsIn returns the spin reads inside n (a loop condition or body).
func (a *analysis) spinReadsIn(n cudaparse.Node, fn *cudaparse.Function) []spinRead {
	var out []spinRead
	n.Descendants(func(x cudaparse.Node) bool {
		if x.Is("lambda_expression") {
			return false
		}
		if r, ok := a.spinReadAt(x, fn); ok {
			out = append(out, r)
			return false
		}
		return true
	})
	return out
}

// spinReadAt reports whether node x is a spin read.
func (a *analysis) spinReadAt(x cudaparse.Node, fn *cudaparse.Function) (spinRead, bool) {
	switch x.Kind() {
	case "pointer_expression", "subscript_expression", "field_expression", "identifier":
		if x.Is("pointer_expression") && !strings.HasPrefix(strings.TrimSpace(x.Text()), "*") {
			return spinRead{}, false
		}
		if isWriteTarget(x) {
			return spinRead{}, false
		}
		if base, ok := a.volatileBase(x, fn); ok {
			return spinRead{node: x, key: base, how: "volatile read", origin: cudaparse.OriginKey(x)}, true
		}
	case "call_expression":
		callee := x.ChildByField("function")
		args := x.ChildByField("arguments").NamedChildren()
		name := callee.Name()
		switch {
		case noOpAtomics[name] && len(args) == 2 && isZero(a, args[1]):
			return spinRead{node: x, key: resolvedKey(args[0]), how: name + "(p, 0)", origin: cudaparse.OriginKey(args[0])}, true
		case (name == "atomicCAS" || name == "atomicCAS_system") && len(args) == 3 && compact(args[1].Text()) == compact(args[2].Text()):
			return spinRead{node: x, key: resolvedKey(args[0]), how: name + "(p, v, v)", origin: cudaparse.OriginKey(args[0])}, true
		case volatileLoads[name] && len(args) >= 1:
			return spinRead{node: x, key: resolvedKey(args[0]), how: name, origin: cudaparse.OriginKey(args[0])}, true
		case callee.Is("field_expression") && atomicObjectMethods[name]:
			obj := callee.ChildByField("argument")
			if a.isAtomicObject(obj, fn) {
				return spinRead{node: x, key: resolvedKey(obj), how: "atomic " + name, origin: cudaparse.OriginKey(obj)}, true
			}
		case len(args) >= 1 && a.volatileMacroReads(name):
			// READ_ONCE(*flag), ACCESS_ONCE(x): a macro of the file or its
			// headers that reads through a volatile lvalue.
			return spinRead{node: x, key: resolvedKey(args[0]), how: "volatile read in " + name, origin: cudaparse.OriginKey(args[0])}, true
		case a.readers[name] != nil:
			// A device helper of this file that spin-reads its parameter.
			h := a.readers[name]
			if h.param < len(args) {
				return spinRead{node: x, key: resolvedKey(args[h.param]), how: h.how + " in " + name, origin: cudaparse.OriginKey(args[h.param])}, true
			}
		}
	case "gnu_asm_expression":
		if spinAsm(x.ChildByField("assembly_code").Text()) {
			r := spinRead{node: x, how: "PTX load"}
			if addrs := cudaparse.AsmAddressOperands(x); len(addrs) > 0 {
				r.key, r.origin = resolvedKey(addrs[0]), cudaparse.OriginKey(addrs[0])
			}
			return r, true
		}
	}
	return spinRead{}, false
}

func (a *analysis) volatileMacroReads(name string) bool {
	write, ok := a.file.VolatileAccessMacro(name)
	return ok && !write
}

func compact(s string) string { return strings.Join(strings.Fields(s), "") }

func isZero(a *analysis, n cudaparse.Node) bool {
	v, ok := a.file.ConstValue(n)
	return ok && v == 0
}

// isWriteTarget reports whether x is the left side of an assignment.
func isWriteTarget(x cudaparse.Node) bool {
	p := x.Parent()
	for p.Is("parenthesized_expression") {
		x, p = p, p.Parent()
	}
	return p.Is("assignment_expression") && p.ChildByField("left") == x || p.Is("update_expression")
}

// resolvedKey is locationKey through local aliases: for
// `volatile int *flag = (volatile int *)&flags[k];`, a read of *flag is a
// read of flags.
func resolvedKey(n cudaparse.Node) string {
	for range 4 {
		base := n.Unparen()
		for base.Is("pointer_expression", "subscript_expression", "binary_expression") {
			if base.Is("binary_expression") {
				base = base.ChildByField("left").Unparen()
			} else {
				base = base.ChildByField("argument").Unparen()
			}
		}
		if !base.Is("identifier") {
			break
		}
		defs := n.File().ReachingDefs(base)
		if len(defs) != 1 || !defs[0].Value.Valid() || defs[0].Op != cudaparse.DefInit && defs[0].Op != cudaparse.DefAssign {
			break
		}
		v := defs[0].Value.Unparen()
		if !v.Is("pointer_expression", "subscript_expression", "binary_expression", "identifier", "field_expression") {
			break
		}
		n = v
	}
	return locationKey(n)
}

// locationKey names the memory a pointer expression points into: its base
// variable (flags for &flags[i], *flags, flags + i; s.done for &s->done).
func locationKey(n cudaparse.Node) string {
	for {
		n = n.Unparen()
		switch n.Kind() {
		case "pointer_expression":
			n = n.ChildByField("argument")
		case "subscript_expression":
			n = n.ChildByField("argument")
		case "binary_expression":
			n = n.ChildByField("left") // p + i
		default:
			return cudaparse.VarKey(n)
		}
	}
}

// volatileBase reports whether x reads through a volatile-qualified pointer,
// reference or variable, and returns the location's key.
func (a *analysis) volatileBase(x cudaparse.Node, fn *cudaparse.Function) (string, bool) {
	var base cudaparse.Node
	switch x.Kind() {
	case "pointer_expression", "subscript_expression":
		base = x.ChildByField("argument")
	case "field_expression":
		// box->ready with `volatile int ready;` in the struct, or a field
		// read through a volatile pointer.
		if a.volatileMembers[x.ChildByField("field").Text()] {
			return cudaparse.VarKey(x), true
		}
		base = x.ChildByField("argument")
	case "identifier":
		if a.threadPrivate(x) {
			// volatile int row = ...; while (row < n): no other agent can
			// address a thread's own variable, so nothing releases it.
			return "", false
		}
		base = x
	}
	if !base.Valid() {
		return "", false
	}
	// (volatile int *)p, static_cast<volatile T*>(p)
	if c := base; c.Is("parenthesized_expression") || c.Is("cast_expression") || c.Is("call_expression") {
		if strings.Contains(c.Text(), "volatile") {
			return resolvedKey(c.Unparen()), true
		}
		base = c.Unparen()
	}
	if !base.Is("identifier", "field_expression") {
		return "", false
	}
	if a.declaredVolatile(base, fn) {
		return resolvedKey(base), true
	}
	return "", false
}

// declaredVolatile reports whether the variable named by n is declared with
// a volatile type: a parameter, a local, a member or a file-scope variable.
func (a *analysis) declaredVolatile(n cudaparse.Node, fn *cudaparse.Function) bool {
	name := n.Name()
	if n.Is("field_expression") {
		name = n.ChildByField("field").Text()
		return a.volatileMembers[name]
	}
	for _, d := range a.file.ReachingDefs(n) {
		decl := d.Node
		switch d.Op {
		case cudaparse.DefParam:
			return strings.Contains(decl.Text(), "volatile")
		case cudaparse.DefInit, cudaparse.DefDecl:
			for p := decl; p.Valid(); p = p.Parent() {
				if p.Is("declaration", "field_declaration", "parameter_declaration") {
					return strings.Contains(p.ChildByField("type").Text(), "volatile") || typeQualified(p, "volatile")
				}
			}
		}
	}
	return a.volatileGlobals[name]
}

// threadPrivate reports whether the variable n names is an automatic
// variable of a function (neither static, extern nor __shared__, and not a
// reference): memory of the thread alone, which no other kernel, copy or
// host thread can write.
func (a *analysis) threadPrivate(n cudaparse.Node) bool {
	declared := false
	for _, d := range a.file.ReachingDefs(n) {
		switch d.Op {
		case cudaparse.DefInit, cudaparse.DefDecl:
			declared = true
		case cudaparse.DefParam, cudaparse.DefOut, cudaparse.DefBind, cudaparse.DefRange:
			return false // a parameter, a binding, or its address handed out
		default:
			continue // the thread's own writes: row = ..., row += stride, row++
		}
		decl := d.Node
		for decl.Valid() && !decl.Is("declaration") {
			if decl.Is("field_declaration", "parameter_declaration", "translation_unit") {
				return false
			}
			decl = decl.Parent()
		}
		if !decl.Valid() || !insideFunctionBody(decl) {
			return false
		}
		head := decl.Text()
		if declarator := decl.ChildByField("declarator"); declarator.Valid() {
			head = head[:declarator.Start()-decl.Start()]
			if declarator.Is("reference_declarator") || declarator.Is("init_declarator") && declarator.ChildByField("declarator").Is("reference_declarator") {
				return false
			}
		}
		for _, word := range []string{"static", "extern", "__shared__", "&"} {
			if strings.Contains(head, word) {
				return false
			}
		}
	}
	return declared
}

// insideFunctionBody reports whether n lies in a function's body (a
// block), not at file or namespace scope.
func insideFunctionBody(n cudaparse.Node) bool {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		switch {
		case p.Is("compound_statement"):
			return true
		case p.Is("translation_unit", "namespace_definition", "declaration_list", "field_declaration_list"):
			return false
		}
	}
	return false
}

// typeQualified reports whether a declaration carries a type qualifier.
func typeQualified(decl cudaparse.Node, q string) bool {
	for _, c := range decl.NamedChildren() {
		if c.Is("type_qualifier") && strings.TrimSpace(c.Text()) == q {
			return true
		}
	}
	return false
}

// isAtomicObject reports whether obj is a cuda::atomic, cuda::atomic_ref,
// std::atomic or atomic_flag (by its declaration's type).
func (a *analysis) isAtomicObject(obj cudaparse.Node, fn *cudaparse.Function) bool {
	if strings.Contains(obj.Text(), "atomic") {
		return true // cuda::atomic_ref<int>(*p).load()
	}
	for _, d := range a.file.ReachingDefs(obj) {
		for p := d.Node; p.Valid(); p = p.Parent() {
			if p.Is("declaration", "parameter_declaration", "field_declaration") {
				return strings.Contains(p.ChildByField("type").Text(), "atomic")
			}
		}
	}
	return a.atomicMembers[obj.Name()]
}

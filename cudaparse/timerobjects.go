package cudaparse

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// Timer objects known by their class, not their name: a library timer
// (Kokkos::Timer starts when constructed and reads with seconds()), or a
// class of the file whose methods read a clock (a Benchmark with record()
// and elapsed()) or whose constructor does (a timer that starts when it is
// declared).

// DeclaredType returns the type the variable named by identifier n is
// declared with, without blanks ("std::string", "Kokkos::Timer"), and
// whether its declarator makes it a pointer or reference: from the
// declaration that reaches n, or else the last declaration of the name in
// n's function (parameters included) before n. "" when none is found.
func (f *File) DeclaredType(n Node) (typ string, indirect bool) {
	d := f.declarationOf(n)
	return d.typ, d.indirect
}

// variableDeclaration is what declares a variable: its type without
// blanks, whether the declarator makes it a pointer or reference, and the
// value it is initialized with (the invalid node for none).
type variableDeclaration struct {
	typ      string
	indirect bool
	value    Node
}

// declarationOf returns the declaration of the variable named by
// identifier n (see DeclaredType).
func (f *File) declarationOf(n Node) variableDeclaration {
	declOf := func(d Node) (variableDeclaration, bool) {
		// Only the declarator says pointer or reference: `T x = a * b;`
		// declares an object.
		declarator := d
		var value Node
		if d.Is("init_declarator", "parameter_declaration", "function_declarator") {
			declarator = d.ChildByField("declarator") // T v(&a): v, not its arguments
		}
		if d.Is("init_declarator") {
			value = d.ChildByField("value")
		}
		for p := d; p.Valid(); p = p.Parent() {
			if p.Is("declaration", "field_declaration", "parameter_declaration") {
				return variableDeclaration{compactSpace(p.ChildByField("type").Text()), strings.ContainsAny(declarator.Text(), "*&"), value}, true
			}
			if p.Is("compound_statement", "function_definition") {
				break
			}
		}
		return variableDeclaration{}, false
	}
	for _, d := range f.ReachingDefs(n) {
		if d.Op == DefInit || d.Op == DefDecl || d.Op == DefParam {
			if decl, ok := declOf(d.Node); ok {
				return decl
			}
		}
	}
	fn := f.FunctionOf(n)
	if fn == nil {
		return variableDeclaration{}
	}
	name := n.Text()
	var best Node
	fn.Node.Descendants(func(x Node) bool {
		if x.Start() >= n.Start() {
			return false
		}
		if x.Is("identifier") && x.Text() == name && x.Parent().Valid() && declaratorName(x) {
			best = x
		}
		return true
	})
	if !best.Valid() {
		return variableDeclaration{}
	}
	decl, _ := declOf(best.Parent())
	return decl
}

// smartPointer matches the standard library's owning pointers, whose
// operator-> reaches an object of their first template argument.
var smartPointer = regexp.MustCompile(`^(::)?(std::)?(unique_ptr|shared_ptr)<(.+?)(,.*)?>$`)

// madeObject matches an expression that makes an object and returns a
// pointer to it: `new T(...)`, `std::make_unique<T>(...)`,
// `std::make_shared<T>(...)`; its group 1 or 3 is T.
var madeObject = regexp.MustCompile(`^new([A-Za-z_:][\w:]*(<[^()]*>)?)|^(?:::)?(?:std::)?make_(?:unique|shared)<(.+?)>\(`)

// pointeeType returns the class of the object a pointer variable (named
// by identifier obj, the left of `obj->method()`) points to: the type
// made by its initializer when it says (`auto t = std::make_unique<T>()`,
// `Base *t = new Derived`: the class whose method runs, for a virtual
// one), else the declared pointee (`T *t`, `std::unique_ptr<T> t`). ""
// when unknown.
func (f *File) pointeeType(obj Node) string {
	decl := f.declarationOf(obj)
	if decl.value.Valid() {
		if m := madeObject.FindStringSubmatch(compactSpace(decl.value.Text())); m != nil {
			if m[1] != "" {
				return m[1]
			}
			return m[3]
		}
	}
	if m := smartPointer.FindStringSubmatch(decl.typ); m != nil {
		return m[4]
	}
	if decl.indirect && decl.typ != "auto" {
		return decl.typ
	}
	return ""
}

// receiverType returns the type of the object a method is called on, as
// written without blanks: a variable (`t` of t.start()), a member reached
// through an object or a pointer to one (`data->t_diffuse` of
// data->t_diffuse.stop(), `this->timer_`), or a member of the caller's
// class named alone (`timer_`). "" when unknown, or when the object is
// itself a pointer or reference (not an object of the class).
func (f *File) receiverType(obj Node) string {
	switch {
	case obj.Is("identifier") && obj.Parent().Is("field_expression") && obj.Parent().ChildByField("operator").Text() == "->":
		// p->start(): the object p points to (a raw or owning pointer).
		return f.pointeeType(obj)
	case obj.Is("identifier"):
		typ, indirect := f.DeclaredType(obj)
		if indirect {
			return ""
		}
		if typ != "" {
			return typ
		}
	case !obj.Is("field_expression"):
		return ""
	}
	// A member of a class of the file (or a global): its declaration is
	// outside the function.
	t, ok := f.exprType(obj, 0)
	if ok {
		if t.ptr != 0 {
			return ""
		}
		return t.base
	}
	// A member of a class another file declares, of a timer class of the
	// project that declares it so (knowledge.TimerClass.Members).
	if obj.Is("field_expression") {
		if tc := f.additions.TimerOfMember(obj.ChildByField("field").Text()); tc != nil {
			return tc.Class
		}
	}
	return ""
}

// declaratorName reports whether identifier x is the name a declarator
// declares (int x; int *x = 0; int x[4]; f(int x)).
func declaratorName(x Node) bool {
	p := x.Parent()
	switch {
	case p.Is("declaration", "parameter_declaration", "field_declaration"):
		return x.Field() == "declarator"
	case p.Is("init_declarator", "pointer_declarator", "reference_declarator", "array_declarator"):
		return x.Field() == "declarator"
	case p.Is("function_declarator") && p.Parent().Is("declaration"):
		// T v(a, b); in a function body: a variable constructed with
		// arguments, which the grammar reads as a function declaration.
		return x.Field() == "declarator" && p.Parent().Parent().Is("compound_statement")
	}
	return false
}

// libraryTimerMethods are the read and restart methods of every library
// timer class.
var libraryTimerMethods = func() map[string]bool {
	out := map[string]bool{}
	for _, t := range knowledge.LibraryTimerTypes {
		for _, m := range append(slices.Clone(t.ReadMethods), t.Restart...) {
			out[m] = true
		}
	}
	return out
}()

// libraryTimer returns the library timer class of a type, or nil.
func (f *File) libraryTimer(typ string) *knowledge.LibraryTimer {
	t, ok := knowledge.LibraryTimerTypes[strings.TrimPrefix(typ, "::")]
	if !ok || t.NeedsLibrary != "" && !strings.Contains(string(f.Src), t.NeedsLibrary+"::") {
		return nil
	}
	return &t
}

// timerMethodCall reports whether a method call reads a clock by its
// object's class: a library timer's read or restart, or a method of a class
// of the file that reads a host clock itself.
func (f *File) timerMethodCall(c *Call) bool {
	if !libraryTimerMethods[c.Name] && !f.additions.IsTimerMethod(c.Name) && f.FunctionNamed(c.Name) == nil {
		return false // cheap: most method calls are neither
	}
	typ := f.receiverType(c.Callee.ChildByField("argument"))
	if typ == "" {
		return false
	}
	if t := f.ownTimer(typ); t != nil {
		return slices.Contains(t.Reads, c.Name)
	}
	if t := f.libraryTimer(typ); t != nil {
		return slices.Contains(t.ReadMethods, c.Name) || slices.Contains(t.Restart, c.Name)
	}
	return f.classMethodReadsClock(typ, c.Name)
}

// eventTimerAt reports whether n, where a host region starts, is the
// declaration of an object of a timer class of CUDA events, or a call of
// a method on one.
func (f *File) eventTimerAt(n Node) bool {
	var typ string
	switch {
	case n.Is("call_expression"):
		callee := n.ChildByField("function")
		if !callee.Is("field_expression") {
			return false
		}
		typ = f.receiverType(callee.ChildByField("argument"))
	default:
		for p := n; p.Valid(); p = p.Parent() {
			if p.Is("declaration") {
				typ = compactSpace(p.ChildByField("type").Text())
				break
			}
			if p.Is("compound_statement", "function_definition") {
				return false
			}
		}
	}
	t := f.timerClassOf(typ)
	return t != nil && t.Events
}

// timerClassOf returns the timer class of a declared type: the
// configuration's or another file's (additions), or the file's own.
func (f *File) timerClassOf(typ string) *knowledge.TimerClass {
	if typ == "" {
		return nil
	}
	if t := f.ownTimer(typ); t != nil {
		return t
	}
	class := className(typ)
	for _, own := range f.ownTimers() {
		if own.Class == class {
			return &own
		}
	}
	return nil
}

// discardsMeasurement reports whether c zeroes a timer object without
// reading a clock: a reset() or clear() of a timer class the file knows
// (the configuration's, another file's of the project, its own) that is
// not among the class's reading methods. Restarting a timer reads the
// clock, so such a call starts no measurement; it drops what was measured
// before it (deal.II's Timer::reset() zeroes and stops the timer its
// constructor started).
func (f *File) discardsMeasurement(c *Call) bool {
	if f == nil || !c.Callee.Is("field_expression") || !discardingMethod.MatchString(c.Name) {
		return false
	}
	typ := f.receiverType(c.Callee.ChildByField("argument"))
	if typ == "" {
		return false
	}
	t := f.timerClassOf(typ)
	return t != nil && !slices.Contains(t.Reads, c.Name)
}

// discardingMethod matches the names of methods that zero a timer.
var discardingMethod = regexp.MustCompile(`(?i)^(reset|clear)`)

// staticTimerCall reports whether c calls a reading method of a timer
// class through the class's name (`Timer::Start()`, `Timer::Stop(h,
// "label")`): a class of the configuration or of another file of the
// project (both reach the file as additions), or of this file.
func (f *File) staticTimerCall(c *Call) bool {
	scope := c.Callee.ChildByField("scope")
	if !scope.Valid() {
		return false
	}
	class := className(scope.Text())
	if class == "" {
		return false
	}
	if t := f.ownTimer(class); t != nil {
		return slices.Contains(t.Reads, c.Name)
	}
	if f.FunctionNamed(c.Name) == nil {
		return false // cheap: the file defines no method of the name
	}
	return f.classMethodReadsClock(class, c.Name)
}

// classMethodReadsClock reports whether every method the file defines
// under the name (in the class typ, when it says) reads a host clock
// directly.
func (f *File) classMethodReadsClock(typ, method string) bool {
	class := typ[strings.LastIndex(typ, ":")+1:]
	if i := strings.IndexByte(class, '<'); i >= 0 {
		class = class[:i]
	}
	if f.startingTimerClasses()[class+"::"+method] {
		return true // reads through another method of the class
	}
	found := false
	for _, fn := range f.Functions {
		if fn.Name != method || !f.memberOf(fn, class) {
			continue
		}
		if !f.readsHostClock(fn) {
			return false
		}
		found = true
	}
	return found
}

// memberOf reports whether fn is a member function of the class named
// class: defined in its body, or out of line as class::fn.
func (f *File) memberOf(fn *Function, class string) bool {
	if strings.HasSuffix(fn.QualifiedName, class+"::"+fn.Name) {
		return true
	}
	for p := fn.Node.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("class_specifier", "struct_specifier") {
			return compactSpace(p.ChildByField("name").Text()) == class
		}
	}
	return false
}

// readsHostClock reports whether fn's own calls read a host clock by the
// clock vocabulary (not through objects or macros: no recursion).
func (f *File) readsHostClock(fn *Function) bool {
	for _, c := range f.Calls {
		if c.Func != fn {
			continue
		}
		if f.readsClockDirectly(c) || knowledge.IsEventRecord(c.Name) {
			return true
		}
	}
	return false
}

// readsClockDirectly reports whether c reads a host clock by the tables'
// names (`clock::now()`, clock_gettime, a clock of the configuration),
// without looking into macros, objects or functions of the project.
func (f *File) readsClockDirectly(c *Call) bool {
	return c.Name == "now" && strings.Contains(c.Callee.Text(), "::") || knowledge.IsQualifiedClock(c.Name, c.Callee.Text()) ||
		knowledge.IsClockName(c.Name) || f.ownClock(c)
}

// mayDeclareTimers reports whether fn's body may declare objects that
// timerDeclarations finds: it spells a timer type's usual name, or a class
// of the file whose constructor starts a clock, or timers are configured.
// (A walk of every body for declarations cost 3% of a tree's check.)
func (f *File) mayDeclareTimers(fn *Function) bool {
	if f.additions.HasTimers() {
		return true
	}
	if !fn.Body.Valid() {
		return false
	}
	body := f.Src[fn.Body.Start():fn.Body.End()]
	if bytes.Contains(body, []byte("imer")) {
		return true
	}
	for class := range f.startingTimerClasses() {
		if bytes.Contains(body, []byte(class)) {
			return true
		}
	}
	return false
}

// timerDeclarations returns, as clock reads, the declarations in fn of
// objects whose construction starts a clock: library timers, and classes of
// the file whose constructor reads one. The Call has the class's name and
// the declarator for node; it has no callee or arguments.
// Memoized: the summary and TimedRegions ask it of the same functions; a
// body that mayDeclareTimers says declares none is not walked.
func (f *File) timerDeclarations(fn *Function) []*Call {
	if !f.mayDeclareTimers(fn) {
		return nil
	}
	if out, ok := f.timerDecls[fn]; ok {
		return out
	}
	out := f.findTimerDeclarations(fn)
	if f.timerDecls == nil {
		f.timerDecls = map[*Function][]*Call{}
	}
	f.timerDecls[fn] = out
	return out
}

// findTimerDeclarations is timerDeclarations without the memo.
func (f *File) findTimerDeclarations(fn *Function) []*Call {
	var out []*Call
	fn.Body.Descendants(func(n Node) bool {
		if n.Is("lambda_expression") {
			return false
		}
		if !n.Is("declaration") {
			return true
		}
		typ := compactSpace(n.ChildByField("type").Text())
		if t := f.ownTimer(typ); t != nil {
			out = append(out, ownTimerStarts(t, n.ChildrenByField("declarator"), fn)...)
			return false
		}
		class := typ[strings.LastIndex(typ, ":")+1:]
		if f.libraryTimer(typ) == nil && !f.startingTimerClasses()[class] {
			return false
		}
		for _, d := range n.ChildrenByField("declarator") {
			if strings.ContainsAny(d.Text(), "*&") {
				continue
			}
			out = append(out, &Call{Name: class, Node: d, Func: fn})
		}
		return false
	})
	return out
}

// startingTimerClasses returns the classes of the file whose constructor
// reads a host clock (a declaration of one starts a measurement), found
// once per file. The file's timer classes (TimerClasses, which follow
// calls between the class's methods: Timer() { Reset(); }) add theirs,
// and their reading methods as "Class::method".
func (f *File) startingTimerClasses() map[string]bool {
	f.timerClassesOnce.Do(func() {
		set := func(key string) {
			if f.timerClasses == nil {
				f.timerClasses = map[string]bool{}
			}
			f.timerClasses[key] = true
		}
		for _, fn := range f.Functions {
			if fn.Name != "" && f.memberOf(fn, fn.Name) && f.readsHostClock(fn) {
				set(fn.Name)
			}
		}
		for _, t := range f.ownTimers() {
			if t.Constructor {
				set(t.Class)
			}
			for _, m := range t.Reads {
				set(t.Class + "::" + m)
			}
		}
	})
	return f.timerClasses
}

// sinceStartRegions returns, for the timer objects a declaration starts
// (host holds the declaration as a read: timerDeclarations), the regions
// from the start to each later read of the same object that starts
// nothing: a read such as Elapsed() measures from the start (or the last
// restart), whatever was read in between. Kaldi's speed loops read one in
// their condition and once after: `Timer tim; for (; tim.Elapsed() <
// limit; iter++) op(); rate = iter / tim.Elapsed();` times every op() of
// the loop, the first included. Regions that hostRegions forms (a start
// and the read right after it) are not repeated.
func sinceStartRegions(host []*Call, fn *Function) []TimedRegion {
	var out []TimedRegion
	for i, d := range host {
		if !isTimerDeclaration(d) {
			continue
		}
		v := declaredVariable(d.Node)
		if v == "" {
			continue
		}
		// The object lives in its declaration's block. A later
		// declaration of the name (a second timer in another block, or
		// one shadowing it in a nested block) is another object: calls
		// on the name within that declaration's block are not this one's.
		scope := declarationScope(d.Node)
		var shadows []Node
		start, prev := d, d
		for _, r := range host[i+1:] {
			at := r.Node.Start()
			if scope.Valid() && at >= scope.End() {
				break
			}
			if isTimerDeclaration(r) && declaredVariable(r.Node) == v {
				shadows = append(shadows, declarationScope(r.Node))
			}
			obj := r.Callee.ChildByField("argument")
			if !r.Callee.Is("field_expression") || !obj.Is("identifier") || obj.Text() != v || within(shadows, at) {
				prev = r
				continue
			}
			switch {
			case discards(r):
				start = nil // zeroed: nothing is measured until a start
			case namesStart(r.Name):
				start = r
			case start != nil && prev != start:
				out = append(out, regionBetween(start, r, ClockHost, fn))
			}
			prev = r
		}
	}
	return out
}

// declaredVariable returns the name a declarator declares (tim of `tim`,
// `tim(true)`, `tim{}` or `tim = Timer()`), or "".
// isTimerDeclaration reports whether a host clock read is the
// declaration of a timer object (timerDeclarations), which starts it,
// rather than a call.
func isTimerDeclaration(c *Call) bool { return !c.Callee.Valid() && len(c.Args) == 0 }

// declarationScope returns the block a declaration at n is visible in:
// the nearest enclosing compound statement, or the statement whose header
// declares it (for, if, while, switch); the invalid node at file scope.
func declarationScope(n Node) Node {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("compound_statement", "for_statement", "for_range_loop", "if_statement", "while_statement", "switch_statement") {
			return p
		}
	}
	return Node{}
}

// within reports whether offset at lies inside one of the scopes (an
// invalid one holds everything after its declaration: file scope).
func within(scopes []Node, at int) bool {
	for _, s := range scopes {
		if !s.Valid() || s.Start() <= at && at < s.End() {
			return true
		}
	}
	return false
}

func declaredVariable(d Node) string {
	for d.Valid() && !d.Is("identifier") {
		d = d.ChildByField("declarator")
	}
	if !d.Valid() {
		return ""
	}
	return d.Text()
}

// ownTimers is TimerClasses of the file's text and additions, found
// once.
func (f *File) ownTimers() []knowledge.TimerClass {
	f.ownTimerClassesOnce.Do(func() { f.ownTimerClasses = TimerClasses(f.Src, f.additions) })
	return f.ownTimerClasses
}

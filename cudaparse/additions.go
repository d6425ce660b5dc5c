package cudaparse

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// A team's own launch and preload helpers, clocks and timer classes (the
// configuration's launchers, preloads, clocks and timers), which the
// parser is given (Parser.Additions): a call of a launch helper is a
// Launch, of a preload helper a Preload, of a clock a host clock read
// (ClockOf); a timer class's reading methods, construction and
// destruction are clock reads.

// calleeSpelling is a call's callee as the additions match it: gpu::f for
// gpu::f<T>, "" for a method call (obj.f), which no addition names.
func calleeSpelling(c *Call) string {
	if !c.Callee.Valid() || c.Callee.Is("field_expression") {
		return ""
	}
	return knowledge.Spelling(c.Callee.Text())
}

// ownLaunch returns the launch a call of a launch helper makes, or nil.
// Its kernel is the argument the configuration says: a kernel symbol (its
// key as for <<<>>>: a warm-up launch or preload of the symbol loads it),
// a lambda (a kernel of its own), or a functor (keyed by its type: each
// type is another instantiation).
func (f *File) ownLaunch(c *Call) *Launch {
	if f.additions == nil || c.Name == "" {
		return nil
	}
	spelled := calleeSpelling(c)
	if spelled == "" {
		return nil
	}
	h, ok := f.additions.Launcher(c.Name, spelled)
	if !ok {
		return nil
	}
	k, ok := h.ArgumentIndex(len(c.Args))
	if !ok {
		return nil
	}
	arg := kernelOperand(c.Args[k])
	l := &Launch{KernelExpr: arg, Kernel: arg.Name(), Node: c.Node, Args: c.Args, Config: c.Args, API: c.Name, Own: true, Func: c.Func}
	switch {
	case isLambda(arg):
		l.key = fmt.Sprintf("%s (the lambda at line %d)", spelled, f.Position(arg.Start()).Line)
		l.Kernel = l.key
	case arg.Is("call_expression", "compound_literal_expression"):
		// Functor{a, b} or Functor(a): constructed in place.
		callee := arg.ChildByField("function")
		if !callee.Valid() {
			callee = arg.ChildByField("type")
		}
		l.key = spelled + "<" + compactSpace(callee.Text()) + ">"
	case arg.Is("identifier"):
		if t, indirect := f.DeclaredType(arg); t != "" && !indirect && !valueType.MatchString(t) {
			l.key = spelled + "<" + t + ">" // a functor object
		} else if key := f.ArgumentKernelKey(arg); key != "" {
			l.key = key // a kernel, or a pointer initialized with one
		}
	}
	return l
}

// valueType matches declared types that hold no functor: fundamental
// types, pointers to functions as the CUDA API spells them, auto.
var valueType = regexp.MustCompile(`^(const)?(auto|void|bool|char|short|int|long|unsigned|signed|float|double|size_t|u?int\d+_t|std::size_t|cudaStream_t|CUfunction|CUkernel|cudaKernel_t|decltype)\b`)

// isLambda reports whether an argument is a lambda: written as one, or
// the body a lambda macro leaves (the pre-pass turns KOKKOS_LAMBDA into a
// capture), or a call of a macro named for lambdas.
func isLambda(x Node) bool {
	return x.Is("lambda_expression", "compound_statement") ||
		x.Is("call_expression") && strings.Contains(x.ChildByField("function").Text(), "LAMBDA")
}

// ownPreload returns the preload a call of a preload helper makes.
func (f *File) ownPreload(c *Call) (Preload, bool) {
	if f.additions == nil || c.Name == "" {
		return Preload{}, false
	}
	spelled := calleeSpelling(c)
	h, ok := f.additions.Preload(c.Name, spelled)
	if spelled == "" || !ok {
		return Preload{}, false
	}
	k, ok := h.ArgumentIndex(len(c.Args))
	if !ok {
		return Preload{}, false
	}
	arg := kernelOperand(c.Args[k])
	key := f.ArgumentKernelKey(arg)
	if key == "" {
		key = KernelKeyOf(arg)
	}
	return Preload{Call: c, Keys: []string{key}, All: isTableElement(arg)}, true
}

// ownClock reports whether a call is of a clock the configuration names.
func (f *File) ownClock(c *Call) bool {
	return f != nil && f.additions != nil && f.additions.IsClock(c.Name, calleeSpelling(c))
}

// ownTimer returns the configuration's timer class of a declared type, or
// nil.
func (f *File) ownTimer(typ string) *knowledge.TimerClass {
	if f == nil || !f.additions.HasTimers() {
		return nil
	}
	return f.additions.Timer(knowledge.Spelling(typ))
}

// ownTimerStarts returns, as clock reads, the declarations of objects of
// a timer class of the configuration whose construction starts a
// measurement (named "start": a read that begins one).
func ownTimerStarts(t *knowledge.TimerClass, declarators []Node, fn *Function) []*Call {
	var out []*Call
	for _, d := range declarators {
		if t.Constructor && !strings.ContainsAny(d.Text(), "*&") {
			out = append(out, &Call{Name: "start", Node: d, Func: fn})
		}
	}
	return out
}

// ownTimerScopes returns the regions that end where a scoped timer of the
// configuration (destructor: true) goes at the end of its block: from its
// last read before (its construction, or a call of a reading method on
// it, among reads) to the block's closing brace. The block is the
// region's Stop.
func (f *File) ownTimerScopes(fn *Function, reads []*Call) []TimedRegion {
	scoped := f.scopedTimerClasses()
	if !f.additions.HasTimers() && len(scoped) == 0 {
		return nil
	}
	var out []TimedRegion
	fn.Body.Descendants(func(n Node) bool {
		if n.Is("lambda_expression") {
			return false
		}
		if !n.Is("declaration") {
			return true
		}
		typ := compactSpace(n.ChildByField("type").Text())
		t := f.ownTimer(typ)
		if t == nil {
			t = scoped[className(typ)]
		}
		block := n.Parent()
		if t == nil || !t.Destructor || !block.Is("compound_statement") {
			return false
		}
		for _, d := range n.ChildrenByField("declarator") {
			if strings.ContainsAny(d.Text(), "*&") {
				continue
			}
			if start := lastReadOf(declaredName(d), d, block, reads, t.Constructor); start.Valid() {
				out = append(out, TimedRegion{From: start.End(), To: block.End() - 1, Start: start, Stop: block, Clock: ClockHost, Func: fn})
			}
		}
		return false
	})
	return out
}

// lastReadOf returns the last read of the timer object named name, declared
// by d in block: a method call on it among reads, or its declaration when
// constructing it reads the clock; the zero Node when there is none, or
// when the last is a reset that reads no clock (nothing measured since).
func lastReadOf(name string, d, block Node, reads []*Call, constructed bool) Node {
	var last Node
	if constructed {
		last = d
	}
	zeroed := false
	for _, c := range reads {
		if c.Node.Start() > d.End() && block.Contains(c.Node) && c.Callee.Is("field_expression") &&
			VarKey(c.Callee.ChildByField("argument")) == name && c.Node.Start() > last.Start() {
			last, zeroed = c.Node, discards(c)
		}
	}
	if zeroed {
		return Node{}
	}
	return last
}

// scopedTimerClasses are the file's own timer classes whose destructor
// reads the clock (TimerClasses): an object of one measures until the end
// of its block, as a configured scoped timer does.
func (f *File) scopedTimerClasses() map[string]*knowledge.TimerClass {
	var out map[string]*knowledge.TimerClass
	for _, t := range f.ownTimers() {
		if t.Destructor {
			if out == nil {
				out = map[string]*knowledge.TimerClass{}
			}
			t := t
			out[t.Class] = &t
		}
	}
	return out
}

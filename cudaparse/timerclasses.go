package cudaparse

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/knowledge"
)

// A project's own timer classes, as a project fact. A file that defines a
// class whose constructor or methods read a host clock (Kaldi's Timer,
// started by its constructor and read with Elapsed(); mfem's StopWatch with
// Start(), Stop() and RealTime()) records the class in its summary
// (FileSummary.Timers); the project gathers them (Project.TimerClasses),
// and a file of another folder that declares objects of such a class is
// checked with the class as a timer of the configuration's (timers:) would
// be. Found from the text alone, the same way for a parsed file and for
// one summarized lexically.

// TimerClasses returns the timer classes src defines: classes whose
// constructor or methods read a host clock (or a clock of the additions),
// directly or by calling a method of the class (or a function of the file)
// that does, and that look like timers (a class named for one, or a
// reading method named start, stop, elapsed...) and launch nothing. A
// class defined twice (under #if, or a public class forwarding to an
// implementation class of the same name) is one entry.
func TimerClasses(src []byte, additions *knowledge.Additions) []knowledge.TimerClass {
	if !mayDefineTimerClass(src, additions) {
		return nil
	}
	lits := timerClassClockLiterals(additions)
	if definesEventTimer(src) {
		lits = append(slices.Clip(lits), eventRecordLiterals...)
	}
	// Each definition is searched for the literals the file spells only.
	sc := &classScan{src: src, lits: spelledIn(src, lits)}
	var ms []*classMethod
	eachDefinition(src, func(name, body []byte) {
		if m := sc.method(name, body); m != nil {
			ms = append(ms, m)
		}
	})
	spreadClockReads(ms, sc)
	out := timerClassesOf(ms, sc)
	for k := range out {
		if out[k].Destructor && !out[k].Constructor {
			// A scope timer whose constructor reads in a member
			// initializer (`begin_(clock::now())`), which the definitions
			// found without a parse do not hold: its class body spells a
			// clock read besides the destructor's.
			out[k].Constructor = classReadsBesidesDestructor(src, sc.bodies(), out[k].Class, sc.lits)
		}
		out[k].Members = memberObjectsOf(src, out[k].Class, sc.bodies())
	}
	// A C-style or alias name of a timer class (`typedef struct CUDATimer
	// {...} cuda_timer_t;`, `using Stopwatch = Timer;`) declares objects
	// of the same class.
	for _, t := range slices.Clone(out) {
		for _, alias := range classAliases(src, t.Class, sc.bodies()) {
			a := t
			a.Class = alias
			out = append(out, a)
		}
	}
	return out
}

// aliasAround returns the alias that the declaration around the class's
// name at src[at:end] gives it: `typedef [struct] C alias;` or `using
// alias = [struct] C;`; "" for none.
func aliasAround(src []byte, at, end int) string {
	wordBefore := func(k int) (string, int) {
		k = skipBlanksBack(src, k)
		j := k
		for j > 0 && syntax.IsIdentByte(src[j-1]) {
			j--
		}
		return string(src[j:k]), j
	}
	before, k := wordBefore(at)
	if before == "struct" || before == "class" {
		before, k = wordBefore(k)
	}
	after := skipSpaces(src, end)
	switch {
	case before == "typedef":
		j := after
		for j < len(src) && syntax.IsIdentByte(src[j]) {
			j++
		}
		if j > after && skipSpaces(src, j) < len(src) && src[skipSpaces(src, j)] == ';' {
			return string(src[after:j])
		}
	case before == "" && k > 0 && src[skipBlanksBack(src, k)-1] == '=' && after < len(src) && src[after] == ';':
		alias, k2 := wordBefore(skipBlanksBack(src, k) - 1)
		if using, _ := wordBefore(k2); using == "using" && alias != "" {
			return alias
		}
	}
	return ""
}

// classAliases returns the other names src gives the class: the name a
// `typedef struct C {...} alias;` declares after its body, and
// `typedef C alias;` or `using alias = C;`.
func classAliases(src []byte, class string, bodies []classBody) []string {
	var out []string
	for _, b := range bodies {
		if b.name != class || b.stop <= 0 || b.stop > len(src) {
			continue
		}
		j := skipSpaces(src, b.stop)
		k := j
		for k < len(src) && syntax.IsIdentByte(src[k]) {
			k++
		}
		if k > j && skipSpaces(src, k) < len(src) && src[skipSpaces(src, k)] == ';' && bytes.Contains(src[max(0, b.open-len(class)-40):b.open], []byte("typedef")) {
			out = append(out, string(src[j:k]))
		}
	}
	if !bytes.Contains(src, []byte("typedef")) && !bytes.Contains(src, []byte("using")) {
		return out
	}
	eachWord(src, []byte(class), func(at, end int) bool {
		if alias := aliasAround(src, at, end); alias != "" && !slices.Contains(out, alias) {
			out = append(out, alias)
		}
		return true
	})
	return out
}

// classScan is what TimerClasses reads of a file: its text, the clock
// literals, and its class bodies, lexed when first needed.
type classScan struct {
	src     []byte
	lits    [][]byte
	classes []classBody
	lexed   bool
	// namespaces are the text's namespace blocks, lexed when a timer
	// class is found (most files that define methods define none).
	namespaces []namespaceBlock
	nsLexed    bool
}

// namespaceOf returns the namespace of method m's class (see method).
func (sc *classScan) namespaceOf(m *classMethod) string {
	if !sc.nsLexed {
		sc.namespaces, sc.nsLexed = namespaceBlocks(sc.src), true
	}
	ns := namespaceAt(sc.namespaces, m.at)
	if m.written != "" {
		ns = strings.TrimPrefix(ns+"::"+m.written, "::")
	}
	return ns
}

func (sc *classScan) bodies() []classBody {
	if !sc.lexed {
		sc.classes, sc.lexed = classBodies(sc.src), true
	}
	return sc.classes
}

// method returns the definition name/body as a method of its class (a
// destructor named "~Class"), with whether it reads a clock itself; nil
// for a destructor of no class.
func (sc *classScan) method(name, body []byte) *classMethod {
	src := sc.src
	at := cap(src) - cap(name)
	// `Timer::Timer(c) : comm(c), sync(false) { start(); }` reads, without
	// a parse, as a definition of sync(): the body is the constructor's.
	if ctor, ok := initializerListOwner(src, at); ok {
		name, at = ctor, cap(src)-cap(ctor)
	}
	destructor := at > 0 && src[at-1] == '~'
	qualifierAt := at
	if destructor {
		qualifierAt = at - 1
	}
	// The class an out-of-line definition names before its name: Timer of
	// `double Timer::Elapsed()`, of a::Timer::Elapsed, and of a template's
	// or a partial specialization's `Timer<DEVICE, P>::start()`.
	class := classBefore(src, qualifierAt)
	if class == "" && !qualifiedBefore(src, qualifierAt) {
		class = enclosingClass(sc.bodies(), at)
	}
	if destructor && class != string(name) {
		return nil
	}
	// The class's namespace (namespaceOf, asked of timer classes only):
	// the one the definition is in, and what an out-of-line definition
	// writes before the class (`a::Timer::start`).
	written := ""
	if qualifiedBefore(src, qualifierAt) {
		written = strings.TrimSuffix(strings.TrimSuffix(qualifierBefore(src, qualifierAt), class), "::")
	}
	m := &classMethod{class: class, at: at, written: written, name: string(name), body: body}
	if destructor {
		m.name = "~" + m.name
	}
	// A constructor may read in its member initializers
	// (`begin_(clock::now())`), between its parameters and its body.
	reading := body
	if m.name == class {
		if start := cap(src) - cap(body); start > at {
			reading = src[at : start+len(body)]
		}
	}
	for _, lit := range sc.lits {
		if bytes.Contains(reading, lit) {
			m.reads = true
			switch {
			case slices.ContainsFunc(eventRecordLiterals, func(e []byte) bool { return bytes.Equal(e, lit) }):
				// cudaEventRecord, or a portability layer's
				// hipEventRecord / gpuEventRecord: the GPU's time.
				m.readsEvents = true
			case spellsWordAt(reading, lit):
				// Not inside a longer name: `time(` of get_time() is
				// no host clock (nor, in timerClassesOf, a call of a
				// method of the class itself).
				m.hostReads = append(m.hostReads, strings.TrimSuffix(string(lit), "("))
			}
		}
	}
	return m
}

// spellsWordAt reports whether b holds lit where no identifier byte comes
// just before it.
func spellsWordAt(b, lit []byte) bool {
	for i := 0; ; {
		k := bytes.Index(b[i:], lit)
		if k < 0 {
			return false
		}
		at := i + k
		if at == 0 || !syntax.IsIdentByte(b[at-1]) || !syntax.IsIdentByte(lit[0]) {
			return true
		}
		i = at + 1
	}
}

// classReadsBesidesDestructor reports whether the body of class (defined
// in src) spells clock reads twice or more: the destructor's and another.
func classReadsBesidesDestructor(src []byte, classes []classBody, class string, lits [][]byte) bool {
	for _, c := range classes {
		if c.name != class || c.stop <= c.open {
			continue
		}
		n := 0
		for _, lit := range lits {
			n += bytes.Count(src[c.open:c.stop], lit)
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// classMethod is a definition of TimerClasses: its class ("" for a free
// function), name and body, and whether it reads a clock.
type classMethod struct {
	class, name string
	body        []byte
	reads       bool
	// at is where the definition's name is, written the namespaces an
	// out-of-line definition writes before its class (classScan.namespaceOf).
	at      int
	written string
	// readsEvents: the method itself records a CUDA event; hostReads are
	// the other clocks' names it spells.
	readsEvents bool
	hostReads   []string
}

// mayDefineTimerClass reports whether src may define a timer class: it
// spells a clock, and a class or a qualified name (a method defined out
// of line, in a file that includes the class's header).
func mayDefineTimerClass(src []byte, additions *knowledge.Additions) bool {
	if !bytes.Contains(src, []byte("class")) && !bytes.Contains(src, []byte("struct")) && !bytes.Contains(src, []byte("::")) {
		return false
	}
	if bytes.Contains(src, []byte("::now")) || containsHostClockCall(src) || definesEventTimer(src) {
		return true
	}
	for _, s := range additions.ClockSpellings() {
		if bytes.Contains(src, []byte(s+"(")) {
			return true
		}
	}
	return false
}

// hostClockCallLengths are the lengths of knowledge.HostClockCalls' names.
var hostClockCallLengths = func() []int {
	seen := map[int]bool{}
	var out []int
	for name := range knowledge.HostClockCalls {
		if !seen[len(name)] {
			seen[len(name)] = true
			out = append(out, len(name))
		}
	}
	return out
}()

// hostClockCallEnds holds the last two bytes of each of
// knowledge.HostClockCalls' names: most parentheses follow other names,
// and are passed over without a lookup per length.
var hostClockCallEnds = func() *[1 << 16]bool {
	var ends [1 << 16]bool
	for name := range knowledge.HostClockCalls {
		if len(name) >= 2 {
			ends[int(name[len(name)-2])<<8|int(name[len(name)-1])] = true
		}
	}
	return &ends
}()

// containsHostClockCall reports whether src holds a host clock's name
// followed by "(" (what a bytes.Contains of each "name(" of
// HostClockSpellings finds, a name ending a longer identifier included),
// in one pass over the parentheses rather than one pass per name.
func containsHostClockCall(src []byte) bool {
	for i := 0; ; {
		k := bytes.IndexByte(src[i:], '(')
		if k < 0 {
			return false
		}
		at := i + k
		i = at + 1
		if at < 2 || !hostClockCallEnds[int(src[at-2])<<8|int(src[at-1])] {
			continue
		}
		for _, n := range hostClockCallLengths {
			if n <= at && knowledge.HostClockCalls[string(src[at-n:at])] {
				return true
			}
		}
	}
}

// hostClockLiterals and kernelLoadLiterals are the tables' spellings of a
// host clock read and of a launch or preload, as bytes.
var (
	hostClockLiterals  = literalsOf(knowledge.HostClockSpellings())
	kernelLoadLiterals = literalsOf(knowledge.KernelLoadSpellings())
)

func literalsOf(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// eventRecordLiterals are the event records a class's methods read the GPU's
// clock with (definesEventTimer).
var eventRecordLiterals = func() [][]byte {
	// A portability layer's hipEventRecord( or gpuEventRecord( too, which
	// a header maps to cudaEventRecord in a CUDA build.
	calls := []string{"EventRecord("}
	for name := range knowledge.EventRecords {
		calls = append(calls, name+"(")
	}
	sort.Strings(calls)
	return literalsOf(calls)
}()

// definesEventTimer reports whether src may define a timer class of CUDA
// events: one that records events and reads the time between them (a
// constructor recording the start, milliseconds_elapsed() the end). A class
// that records events without reading a time orders streams; it is no
// timer.
func definesEventTimer(src []byte) bool {
	for _, lit := range knowledge.EventTimerSpellings {
		if !bytes.Contains(src, []byte(lit)) {
			return false
		}
	}
	return true
}

// timerClassClockLiterals are the spellings of a host clock read, and of
// the additions' clocks.
func timerClassClockLiterals(additions *knowledge.Additions) [][]byte {
	more := additions.ClockSpellings()
	if len(more) == 0 {
		return hostClockLiterals
	}
	out := append([][]byte(nil), hostClockLiterals...)
	for _, s := range more {
		out = append(out, []byte(s+"("))
	}
	return out
}

// spreadClockReads marks, to a fixed point, the definitions that call a
// reading method of their own class (Timer() { Reset(); }, or a public
// method forwarding to the implementation's: M->Start()), a reading free
// function of the file, or, through a member or parameter of another
// class of the file whose class body names it, that class's reading
// method (a scope timer over a timer: `FunctionTimer(name, Timer &t) {
// t.Start(name); }`).
func spreadClockReads(ms []*classMethod, sc *classScan) {
	reading := map[string]bool{}
	for _, m := range ms {
		if m.reads {
			reading[m.class+"::"+m.name] = true
		}
	}
	for changed := len(reading) > 0; changed; {
		changed = false
		for _, m := range ms {
			if m.reads {
				continue
			}
			EachName(m.body, func(n []byte, def bool) {
				if def || m.reads {
					return
				}
				m.reads = reading[m.class+"::"+string(n)] || reading["::"+string(n)] ||
					methodCallAt(m.body, cap(m.body)-cap(n)) && sc.readsThroughMember(m.class, string(n), reading)
			})
			if m.reads {
				reading[m.class+"::"+m.name] = true
				changed = true
			}
		}
	}
}

// methodCallAt reports whether the name at offset at of b is called on an
// object (`t.Start(`, `t->Start(`).
func methodCallAt(b []byte, at int) bool {
	j := at
	for j > 0 && isBlank(b[j-1]) {
		j--
	}
	return j > 0 && b[j-1] == '.' || j > 1 && b[j-1] == '>' && b[j-2] == '-'
}

// readsThroughMember reports whether a method call named method, made in a
// method of class, reaches a reading method of another class of the file
// that class's body names (its member's or a parameter's type).
func (sc *classScan) readsThroughMember(class, method string, reading map[string]bool) bool {
	if class == "" {
		return false
	}
	for key := range reading {
		other, name, ok := strings.Cut(key, "::")
		if !ok || other == "" || other == class || name != method {
			continue
		}
		for _, b := range sc.bodies() {
			if b.name == class && b.stop > b.open && containsWord(sc.src[b.open:b.stop], other) {
				return true
			}
		}
	}
	return false
}

// timerClassesOf groups the reading methods by class and keeps the classes
// that look like timers and launch nothing.
func timerClassesOf(ms []*classMethod, sc *classScan) []knowledge.TimerClass {
	byClass := map[string]*knowledge.TimerClass{}
	launches := map[string]bool{}
	// A class's namespace is the one its reading methods agree on; a
	// class of one name defined in two namespaces of the file (a public
	// class forwarding to an implementation twin) is one entry, of no
	// namespace (seen from everywhere, as every class was before).
	namespaces := map[string][]*classMethod{}
	for _, m := range ms {
		if m.class == "" {
			continue
		}
		if spellsLaunch(m.body) {
			launches[m.class] = true
		}
		if !m.reads {
			continue
		}
		t := byClass[m.class]
		if t == nil {
			t = &knowledge.TimerClass{Class: m.class}
			byClass[m.class] = t
		}
		namespaces[m.class] = append(namespaces[m.class], m)
		switch {
		case m.name == m.class:
			t.Constructor = true
		case m.name == "~"+m.class:
			// A destructor that only stops the clock into the object's
			// own members measures for nobody: the object dies with the
			// value (AMGX's TimerCPU, `~TimerCPU() { stop(); }`).
			t.Destructor = destructorPublishes(m, ms)
		case !containsString(t.Reads, m.name):
			t.Reads = append(t.Reads, m.name)
		}
	}
	// A class whose methods record events and read no other clock times
	// the GPU.
	events, host, methods := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, m := range ms {
		methods[m.class+"::"+m.name] = true
	}
	for _, m := range ms {
		events[m.class] = events[m.class] || m.readsEvents
		for _, name := range m.hostReads {
			host[m.class] = host[m.class] || !methods[m.class+"::"+name]
		}
	}
	var out []knowledge.TimerClass
	for class, t := range byClass {
		if launches[class] || !looksLikeTimer(t) {
			continue
		}
		t.Events = events[class] && !host[class]
		sort.Strings(t.Reads)
		seen := map[string]bool{}
		for _, m := range namespaces[class] {
			seen[sc.namespaceOf(m)] = true
		}
		if len(seen) == 1 {
			for n := range seen {
				t.Namespace = n
			}
		}
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Class < out[j].Class })
	return out
}

// destructorPublishes reports whether a destructor hands its measurement
// out: it, or a method of its class it calls, prints, logs, reports or
// stores it somewhere (a call such as push_back or add, a write through
// a pointer or reference). A scope timer's destructor does; a timer
// whose destructor only calls its own stop() does not.
func destructorPublishes(d *classMethod, ms []*classMethod) bool {
	if spellsPublish(d.body) {
		return true
	}
	own := func(name string) *classMethod {
		for _, m := range ms {
			if m.class == d.class && m.name == name && m != d {
				return m
			}
		}
		return nil
	}
	published := false
	EachName(d.body, func(n []byte, def bool) {
		if def || published {
			return
		}
		at := cap(d.body) - cap(n) + len(n)
		for at < len(d.body) && isBlank(d.body[at]) {
			at++
		}
		if at >= len(d.body) || d.body[at] != '(' || controlWords[string(n)] {
			return // not a call
		}
		if m := own(string(n)); m != nil {
			published = spellsPublish(m.body)
			return
		}
		// Any other call hands the object's state to someone else (a
		// scope timer's `totals_.Stop(name_)`, `record(name_, t)`).
		published = true
	})
	return published
}

// publishSpellings are what a method that hands a value out spells.
var publishSpellings = [][]byte{
	[]byte("print"), []byte("cout"), []byte("cerr"), []byte("clog"), []byte("puts"), []byte("<<"),
	[]byte("log"), []byte("Log"), []byte("LOG"), []byte("report"), []byte("Report"), []byte("write"), []byte("Write"),
	[]byte("push_back"), []byte("emplace"), []byte("insert("), []byte("append("), []byte("add("), []byte("Add("),
}

func spellsPublish(body []byte) bool {
	for _, s := range publishSpellings {
		if bytes.Contains(body, s) {
			return true
		}
	}
	// A write through a pointer or reference member (`out_->total +=`),
	// not a call of its own method (`this->stop()`).
	for i := 0; ; {
		k := bytes.Index(body[i:], []byte("->"))
		if k < 0 {
			return false
		}
		at := i + k
		if !bytes.HasSuffix(bytes.TrimRight(body[:at], " \t"), []byte("this")) {
			return true
		}
		i = at + 2
	}
}

// looksLikeTimer reports whether a class that reads a clock is a timer: it
// is named for one (Timer, StopWatch, GpuClock), or a reading method is
// named as timers' are (Start, Stop, Elapsed). A solver whose Run() times
// itself is not.
func looksLikeTimer(t *knowledge.TimerClass) bool {
	if knowledge.TimerObject.MatchString(t.Class) || t.Constructor && t.Destructor {
		return true // named for a timer, or a scope timer (RAII)
	}
	for _, m := range t.Reads {
		if knowledge.TimerMethod.MatchString(m) {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// spellsLaunch reports whether a body spells a kernel launch or preload.
func spellsLaunch(body []byte) bool {
	for _, lit := range kernelLoadLiterals {
		if bytes.Contains(body, lit) {
			return true
		}
	}
	return false
}

// classBody is the braces of a class or struct definition.
type classBody struct {
	name       string
	open, stop int
}

// classBodies returns the bodies of the class and struct definitions of
// src (not forward declarations, nor `class T` of a template's parameter
// list).
func classBodies(src []byte) []classBody {
	return syntax.WithTokens(src, func(toks []syntax.Token) []classBody { return classBodiesIn(src, toks) })
}

func classBodiesIn(src []byte, toks []syntax.Token) []classBody {
	var out []classBody
	for k := 0; k+1 < len(toks); k++ {
		t := toks[k]
		if t.Kind != syntax.TokIdent {
			continue
		}
		word := string(src[t.Start:t.End])
		if word != "class" && word != "struct" || toks[k+1].Kind != syntax.TokIdent {
			continue
		}
		name := string(src[toks[k+1].Start:toks[k+1].End])
		if open := classBrace(src, toks, k+2); open >= 0 {
			out = append(out, classBody{name: name, open: open, stop: matchingBrace(src, open)})
		}
	}
	return out
}

// classBrace returns the offset of the brace that opens a class body after
// its name (toks from k on: `final`, a base list), or -1.
func classBrace(src []byte, toks []syntax.Token, k int) int {
	bases := false
	for ; k < len(toks); k++ {
		t := toks[k]
		if t.Kind == syntax.TokComment {
			continue
		}
		c := src[t.Start]
		switch {
		case c == '{' && t.Kind == syntax.TokPunct:
			return int(t.Start)
		case c == ':' && t.Kind == syntax.TokPunct:
			bases = true
		case t.Kind == syntax.TokIdent && (bases || string(src[t.Start:t.End]) == "final"):
		case bases && t.Kind == syntax.TokPunct && (c == ',' || c == '<' || c == '>'):
		default:
			return -1
		}
	}
	return -1
}

// enclosingClass returns the name of the innermost class body holding the
// offset, or "".
func enclosingClass(classes []classBody, at int) string {
	name, size := "", -1
	for _, c := range classes {
		if c.open < at && at < c.stop && (size < 0 || c.stop-c.open < size) {
			name, size = c.name, c.stop-c.open
		}
	}
	return name
}

// DeclaresTimerObject reports whether src declares an object of the
// timer class (`Timer tim;`, `Timer<DEVICE> t;`, not a pointer or a
// reference), or calls one of its reading methods through the class's
// name (`Timer::Start()`: static methods, measurements kept by handle).
// namespaces are those the project defines the class in ("" for the
// global one): `Kokkos::Timer t;` declares an object of the library's
// timer, not of a Timer the project defines elsewhere.
func DeclaresTimerObject(src []byte, class string, namespaces, reads []string) bool {
	return declaresObjectOf(src, class, namespaces) || callsStaticReader(src, class, reads)
}

// namesNamespace reports whether a declaration that writes a qualifier
// before a class's name (`Kokkos` of Kokkos::Timer, "" for none) may
// declare an object of the project's class of that name, defined in
// namespaces: unless the qualified name is a library's timer
// (knowledge.LibraryTimerTypes) that the project does not define itself.
// (Any other qualifier may be an alias or an older name of the project's
// namespace.)
func namesNamespace(written, class string, namespaces []string) bool {
	written = strings.TrimPrefix(written, "::")
	if _, library := knowledge.LibraryTimerTypes[written+"::"+class]; written == "" || !library {
		return true
	}
	for _, ns := range namespaces {
		if ns == written || strings.HasSuffix(ns, "::"+written) {
			return true
		}
	}
	return false
}

// ReadsTimerMember reports whether src calls one of reads on a data member
// of the name reached through an object or a pointer (`u.t.start()`,
// `udata->t_advec.stop()`).
func ReadsTimerMember(src []byte, member string, reads []string) bool {
	found := false
	eachWord(src, []byte(member), func(at, end int) bool {
		before := skipBlanksBack(src, at)
		if !(before > 0 && src[before-1] == '.' || before > 1 && src[before-2] == '-' && src[before-1] == '>') {
			return true
		}
		j := skipSpaces(src, end)
		if j >= len(src) || src[j] != '.' {
			return true
		}
		j = skipSpaces(src, j+1)
		k := j
		for k < len(src) && syntax.IsIdentByte(src[k]) {
			k++
		}
		found = slices.Contains(reads, string(src[j:k])) && skipSpaces(src, k) < len(src) && src[skipSpaces(src, k)] == '('
		return !found
	})
	return found
}

// SpelledIn returns the literals src contains, in their order, found in
// one pass over src (a search per literal cost 2.6 times as much on CUB's
// headers).
func SpelledIn(src []byte, lits [][]byte) [][]byte { return spelledIn(src, lits) }

// callsStaticReader reports whether src calls one of the class's reading
// methods through the class's name (`Timer::Start()`: a timer whose
// methods are static, its measurements kept by handle).
func callsStaticReader(src []byte, class string, reads []string) bool {
	if !bytes.Contains(src, []byte(class+"::")) {
		return false
	}
	found := false
	for _, m := range reads {
		eachWord(src, []byte(class+"::"+m), func(_, end int) bool {
			found = end < len(src) && src[end] == '('
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// declaresObjectOf reports whether src declares an object (not a pointer
// or reference) of the class: its name, as a whole word, followed by a
// variable's name and what may follow one in a declaration.
func declaresObjectOf(src []byte, class string, namespaces []string) bool {
	found := false
	eachObjectOf(src, class, namespaces, func(_, _ int) bool {
		found = true
		return false
	})
	return found
}

// memberObjectsOf returns the names of the data members that class bodies
// of src declare as objects of the class (`Timer t_advec;` directly in a
// struct's body, not in one of its methods), sorted, without repeats.
func memberObjectsOf(src []byte, class string, bodies []classBody) []string {
	var out []string
	eachObjectOf(src, class, nil, func(start, end int) bool {
		for _, b := range bodies {
			if b.open < start && start < b.stop && b.name != class && braceDepth(src, b.open, start) == 1 {
				if name := string(src[start:end]); !slices.Contains(out, name) {
					out = append(out, name)
				}
				break
			}
		}
		return true
	})
	sort.Strings(out)
	return out
}

// braceDepth returns how many braces opened at or after offset from are
// still open at offset at (1: directly inside the brace at from).
func braceDepth(src []byte, from, at int) int {
	depth := 0
	for _, c := range src[from:at] {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		}
	}
	return depth
}

// eachObjectOf calls visit with the name (its offsets) of each object
// (not a pointer or reference) src declares of the class, until visit
// returns false. A declaration that qualifies the class's name with a
// namespace (`Kokkos::Timer t;`) declares an object of the class only
// when the namespace is one of namespaces (nil: any).
func eachObjectOf(src []byte, class string, namespaces []string, visit func(start, end int) bool) {
	eachWord(src, []byte(class), func(at, i int) bool {
		if namespaces != nil && !namesNamespace(qualifierText(src, at), class, namespaces) {
			return true
		}
		// `Timer<DEVICE> t;`: an instantiation of a class template (or of
		// a specialization) is an object of the class as well.
		j, ok := skipTemplateArgs(src, skipSpaces(src, i))
		if !ok {
			return true
		}
		j = skipSpaces(src, j)
		start := j
		for j < len(src) && syntax.IsIdentByte(src[j]) {
			j++
		}
		if j == start || !syntax.IsIdentStart(src[start]) {
			return true
		}
		end := j
		for j < len(src) && syntax.IsSpace(src[j]) {
			j++
		}
		if j < len(src) && bytes.IndexByte([]byte(";({=,["), src[j]) >= 0 {
			return visit(start, end)
		}
		return true
	})
}

// initializerListOwner returns the name of the constructor whose member
// initializer list holds the item named at offset at (`sync` of
// `Timer::Timer(c) : comm(c), sync(false) {`), walking back over the
// items before it; ok false when the name is not an initializer's.
func initializerListOwner(src []byte, at int) (name []byte, ok bool) {
	k := at
	for range 64 { // items of one list
		k = skipBlanksBack(src, k)
		switch {
		case k > 0 && src[k-1] == ',':
			if k, ok = initializerBefore(src, k-1); !ok {
				return nil, false
			}
		case k > 1 && src[k-1] == ':' && src[k-2] != ':':
			return constructorBefore(src, k-1)
		default:
			return nil, false
		}
	}
	return nil, false
}

// initializerBefore returns where the initializer list item that ends
// before offset k starts (`name(args)`, `Base<T>{args}`, `ns::Base(x)`).
func initializerBefore(src []byte, k int) (int, bool) {
	k = skipBlanksBack(src, k)
	if k == 0 || src[k-1] != ')' && src[k-1] != '}' {
		return 0, false
	}
	if k = openingBefore(src, k-1); k < 0 {
		return 0, false
	}
	k = skipBlanksBack(src, k)
	for k > 0 && (syntax.IsIdentByte(src[k-1]) || src[k-1] == ':' || src[k-1] == '>' || src[k-1] == '<') {
		k-- // the member's or base's name, qualified or instantiated
	}
	return k, true
}

// constructorBefore returns the name of the constructor whose member
// initializer list's colon is at offset colon: its parameters end before
// it, after `noexcept` or the like.
func constructorBefore(src []byte, colon int) ([]byte, bool) {
	k := skipBlanksBack(src, colon)
	for k > 0 && syntax.IsIdentByte(src[k-1]) {
		word := k
		for k > 0 && syntax.IsIdentByte(src[k-1]) {
			k--
		}
		if w := string(src[k:word]); w != "noexcept" && w != "override" && w != "explicit" {
			return nil, false
		}
		k = skipBlanksBack(src, k)
	}
	if k == 0 || src[k-1] != ')' {
		return nil, false
	}
	if k = openingBefore(src, k-1); k < 0 {
		return nil, false
	}
	end := skipBlanksBack(src, k)
	start := end
	for start > 0 && syntax.IsIdentByte(src[start-1]) {
		start--
	}
	if start == end || !syntax.IsIdentStart(src[start]) {
		return nil, false
	}
	return src[start:end], true
}

// skipBlanksBack returns the offset after the last non-blank byte before k.
func skipBlanksBack(src []byte, k int) int {
	for k > 0 && isBlank(src[k-1]) {
		k--
	}
	return k
}

// openingBefore returns the offset of the bracket that opens the one that
// closes at src[close] (a parenthesis or a brace), or -1.
func openingBefore(src []byte, closing int) int {
	shut, open := src[closing], byte('(')
	if shut == '}' {
		open = '{'
	}
	depth := 0
	for i := closing; i >= 0; i-- {
		switch src[i] {
		case shut:
			depth++
		case open:
			depth--
			if depth == 0 {
				return i
			}
		case ';':
			return -1
		}
	}
	return -1
}

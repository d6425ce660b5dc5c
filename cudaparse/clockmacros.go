package cudaparse

import (
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/knowledge"
)

// Macros that read a clock. Projects keep their timing in macros of a
// header (`#define START_GPU_TIMER() cudaEventRecord(t_begin)`, or one that
// times the statement it is given: `#define TIMED(stmt, ms) { record;
// stmt; record; elapsed }`), whose names need not say "timer". What a
// macro does to a clock is read from its body, not its name.

// clockMacro is what a macro's body does with clocks.
type clockMacro struct {
	// records: the body records a CUDA event; elapsed: it reads the time
	// between two events; host: it reads a host clock.
	records, elapsed, host bool
	// timedParam is the index of the parameter the body measures (clock
	// reads before and after it), or -1.
	timedParam int
	// elapsedEvents are the events the body's elapsed-time calls compare
	// (their second and third arguments, as written).
	elapsedEvents []string
	// timingRecord: an event the body records is named for timing
	// (`cuEventRecord(range.start, s)`), as a record written in the
	// function is kept by its event's name (timingRecords).
	timingRecord bool
}

// reads reports whether the macro reads a clock at all.
func (m clockMacro) reads() bool { return m.records || m.host }

// kind is the clock a call of the macro reads.
func (m clockMacro) kind() ClockKind {
	if m.records {
		return ClockEvent
	}
	return ClockHost
}

// readsClock reports whether the macro's body reads a clock (a host
// clock, a CUDA event record, or a timer function by its name), or the
// time between two events: a call of it is a clock read, times its
// argument, or closes a measurement.
func (m Macro) readsClock() bool { return touchesClock(m.Body, nil) }

// touchesClock reports whether a macro body reads a clock or an elapsed
// time, through the macros of t too.
func touchesClock(body string, t MacroTable) bool {
	cm := clockMacro{}
	return len(clockReadsIn(body, t, 0, &cm)) > 0 || cm.elapsed
}

// maxQualifierLen is how far before a name its qualifier is looked for.
const maxQualifierLen = 64

// clockReadsIn returns the offsets in body of the clock reads it spells:
// the calls of knowledge's clock vocabulary and of clock macros of t
// (through at most maxExpansionDepth macros). The kinds found are added to
// into, when it is not nil.
func clockReadsIn(body string, t MacroTable, depth int, into ...*clockMacro) []int {
	var at []int
	each := func(f func(*clockMacro)) {
		for _, m := range into {
			f(m)
		}
	}
	eachCalledName(body, func(name string, i, open int) {
		switch {
		case knowledge.IsEventRecord(name):
			at = append(at, i)
			timing := false
			if args := callArguments([]byte(body), open); len(args) > 0 {
				timing = namedForTiming(args[0])
			}
			each(func(m *clockMacro) { m.records, m.timingRecord = true, m.timingRecord || timing })
		case knowledge.IsEventElapsed(name):
			events := elapsedArgs(body[open:])
			each(func(m *clockMacro) { m.elapsed, m.elapsedEvents = true, append(m.elapsedEvents, events...) })
		case name == "now" && i >= 2 && body[i-2:i] == "::", knowledge.IsClockName(name),
			knowledge.IsQualifiedClock(name, body[max(0, i-maxQualifierLen):i+len(name)]):
			at = append(at, i)
			each(func(m *clockMacro) { m.host = true })
		case t != nil && depth < maxExpansionDepth && len(t[name]) > 0:
			inner := clockMacro{timedParam: -1}
			if len(clockReadsIn(t[name][0].Body, t, depth+1, &inner)) > 0 {
				at = append(at, i)
				each(func(m *clockMacro) {
					m.records, m.host, m.timingRecord = m.records || inner.records, m.host || inner.host, m.timingRecord || inner.timingRecord
				})
			}
			if inner.elapsed {
				each(func(m *clockMacro) {
					m.elapsed, m.elapsedEvents = true, append(m.elapsedEvents, inner.elapsedEvents...)
				})
			}
		}
	})
	return at
}

// eachCalledName calls visit with each name in body that a parenthesis
// follows (a call or a function-like macro), its offset and that of its
// parenthesis.
func eachCalledName(body string, visit func(name string, at, open int)) {
	for i := 0; i < len(body); {
		if !syntax.IsIdentStart(body[i]) || i > 0 && syntax.IsIdentByte(body[i-1]) {
			i++
			continue
		}
		j := i
		for j < len(body) && syntax.IsIdentByte(body[j]) {
			j++
		}
		k := j
		for k < len(body) && (body[k] == ' ' || body[k] == '\t') {
			k++
		}
		if k < len(body) && body[k] == '(' {
			visit(body[i:j], i, k)
		}
		i = j
	}
}

// elapsedArgs returns the events an elapsed-time call compares, from the
// text of its argument list (starting at its parenthesis): the second and
// third arguments when they are plain names.
func elapsedArgs(call string) []string {
	args := callArguments([]byte(call), 0)
	var out []string
	for _, a := range args[min(1, len(args)):] {
		if isIdentifier(a) {
			out = append(out, a)
		}
	}
	return out
}

// namedForTiming reports whether an event argument, as written
// (`r.start`, `ev->stop`, `(CUevent)t0`), names an event for timing.
func namedForTiming(arg string) bool {
	arg = strings.TrimSpace(arg)
	if k := strings.LastIndexAny(arg, ".>)"); k >= 0 {
		arg = strings.TrimSpace(arg[k+1:])
	}
	return timingEvent.MatchString(arg)
}

// analyzeClockMacro reads what macro m of table t does with clocks.
func analyzeClockMacro(m Macro, t MacroTable) (clockMacro, bool) {
	cm := clockMacro{timedParam: -1}
	reads := clockReadsIn(m.Body, t, 0, &cm)
	if len(reads) == 0 {
		// TIME_ELAPSED(ms): reads no clock, but closes a measurement.
		return cm, cm.elapsed
	}
	if m.FunctionLike && len(reads) >= 2 {
		for pi, p := range m.Params {
			if p == "..." {
				p = "__VA_ARGS__"
			}
			at := wordIndex(m.Body, p)
			if at > reads[0] && at < reads[len(reads)-1] {
				cm.timedParam = pi
				break
			}
		}
	}
	return cm, true
}

// wordIndex returns the offset of word in s as a whole identifier, or -1.
func wordIndex(s, word string) int {
	for from := 0; ; {
		k := strings.Index(s[from:], word)
		if k < 0 {
			return -1
		}
		at := from + k
		end := at + len(word)
		if (at == 0 || !syntax.IsIdentByte(s[at-1])) && (end == len(s) || !syntax.IsIdentByte(s[end])) {
			return at
		}
		from = end
	}
}

// clockMacroOf returns what the macro a call names does with clocks, when
// the call is of a clock macro the file sees (and not of a function of the
// file of the same name).
func (f *File) clockMacroOf(c *Call) (clockMacro, bool) {
	if f == nil || len(f.macros) == 0 {
		return clockMacro{}, false
	}
	name := c.Spelled
	if name == "" {
		name = c.Name
	}
	f.clockMacrosOnce.Do(func() {
		for n, defs := range f.macros {
			if cm, ok := analyzeClockMacro(defs[0], f.macros); ok {
				if f.clockMacros == nil {
					f.clockMacros = map[string]clockMacro{}
				}
				f.clockMacros[n] = cm
			}
		}
	})
	cm, ok := f.clockMacros[name]
	if !ok || f.FunctionNamed(name) != nil {
		return clockMacro{}, false
	}
	return cm, true
}

// SpellsClockMacro reports whether a table holds a macro that reads a
// clock (what a file spelling it asks the prefilters to count as a clock).
func SpellsClockMacro(t MacroTable) bool {
	for _, defs := range t {
		for _, m := range defs {
			if m.readsClock() {
				return true
			}
		}
	}
	return false
}

package cudaparse

import (
	"bytes"
	"regexp"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse/syntax"
	"github.com/lazylint/lazylint/knowledge"
)

// Timers and the regions of code they measure.

// ClockKind says which clock a timing call reads.
type ClockKind uint8

const (
	ClockNone  ClockKind = iota
	ClockEvent           // CUDA events: cudaEventRecord, cuEventRecord
	ClockHost            // a host clock: std::chrono, clock_gettime, timer objects...
)

// ClockOf says whether a call reads a clock, and which kind.
func ClockOf(c *Call) ClockKind {
	if knowledge.IsEventRecord(c.Name) {
		return ClockEvent
	}
	// std::chrono::steady_clock::now(), Clock::now(), clock_t::now()
	if c.Name == "now" && strings.Contains(c.Callee.Text(), "::") || knowledge.IsQualifiedClock(c.Name, c.Callee.Text()) {
		return ClockHost
	}
	// A macro whose body reads a clock (START_GPU_TIMER(), stamp(t0)): its
	// body, not its name, says which clock; one that times its argument is
	// a region of its own (TimedRegions).
	if cm, ok := c.Node.f.clockMacroOf(c); ok && cm.timedParam < 0 && cm.reads() {
		return cm.kind()
	}
	if knowledge.IsClockName(c.Name) || c.Node.f.ownClock(c) {
		return ClockHost
	}
	// A function of another file of the project that reads a host clock
	// (`double seconds() { ... clock_gettime ... }` in a utility file), or
	// of this file.
	if f := c.Node.f; f != nil && (f.projectClocks[c.Name] && f.FunctionNamed(c.Name) == nil || f.clockHelpers()[c.Name]) {
		return ClockHost
	}
	if _, _, ok := c.Node.f.parameterClock(c); ok {
		return ClockHost
	}
	if c.Callee.Is("field_expression") && c.Node.f != nil && c.Node.f.timerMethodCall(c) {
		return ClockHost
	}
	if c.Callee.Is("qualified_identifier") && c.Node.f != nil && c.Node.f.staticTimerCall(c) {
		return ClockHost
	}
	if c.Callee.Is("field_expression") && knowledge.TimerMethod.MatchString(c.Name) {
		if knowledge.TimerObject.MatchString(c.Callee.ChildByField("argument").Text()) {
			return ClockHost
		}
	}
	return ClockNone
}

// TimedRegion is code between two reads of the same clock in one function:
// what a benchmark measures.
type TimedRegion struct {
	// From and To bound the measured code (byte offsets).
	From, To int
	// Start and Stop are the clock reads (for a benchmark loop: its range
	// expression and its body).
	Start, Stop Node
	Clock       ClockKind
	Func        *Function
	// EventTimer: a host region of a timer object whose class records
	// CUDA events (knowledge.TimerClass.Events): it times the GPU, as the
	// messages say; the rules judge it as a host region.
	EventTimer bool
}

// Contains reports whether n lies inside the measured code.
func (r TimedRegion) Contains(n Node) bool { return r.From <= n.Start() && n.End() <= r.To }

func regionBetween(start, stop *Call, kind ClockKind, fn *Function) TimedRegion {
	return TimedRegion{From: start.Node.End(), To: stop.Node.Start(), Start: start.Node, Stop: stop.Node, Clock: kind, Func: fn}
}

// TimedRegions returns the timed regions of a function. Event regions pair
// the records that a cudaEventElapsedTime(&ms, a, b) of the same function
// compares. Host regions are between consecutive clock reads.
// A loop over a benchmark state (`for (auto _ : state)`) is timed as a whole.
//
// The answer is memoized per function (the rules ask it of every function,
// some of them twice); callers must not change it.
func (f *File) TimedRegions(fn *Function) []TimedRegion {
	if out, ok := f.timedRegions[fn]; ok {
		return out
	}
	out := f.findTimedRegions(fn)
	if f.timedRegions == nil {
		f.timedRegions = map[*Function][]TimedRegion{}
	}
	f.timedRegions[fn] = out
	return out
}

// findTimedRegions is TimedRegions without the memo.
func (f *File) findTimedRegions(fn *Function) []TimedRegion {
	var events, host []*Call
	var elapsed []*Call
	var measured []TimedRegion
	macroRecords := map[*Call]bool{}
	macroTimingRecords := map[*Call]bool{} // records of events named for timing
	macroElapsed := false
	macroEvents := map[string]bool{} // the events macros' elapsed-time calls compare
	for _, c := range f.CallsIn(fn) {
		if cm, ok := f.clockMacroOf(c); ok {
			macroElapsed = macroElapsed || cm.elapsed
			for _, ev := range cm.elapsedEvents {
				macroEvents[ev] = true
			}
			if k := cm.timedParam; k >= 0 && k < len(c.Args) {
				// MEASURE(stmt, ms): the macro times its argument.
				arg := c.Args[k]
				measured = append(measured, TimedRegion{From: arg.Start(), To: arg.End(), Start: c.Node, Stop: c.Node, Clock: cm.kind(), Func: fn})
				continue
			}
			macroRecords[c] = cm.records
			macroTimingRecords[c] = cm.timingRecord
		}
		switch ClockOf(c) {
		case ClockEvent:
			events = append(events, c)
		case ClockHost:
			host = append(host, c)
		default:
			if f.discardsMeasurement(c) {
				host = append(host, c) // a bound of measurements, not one
			}
		}
		if knowledge.IsEventElapsed(c.Name) {
			elapsed = append(elapsed, c)
		}
	}
	out := measured
	for _, e := range elapsed {
		if len(e.Args) < 3 {
			continue
		}
		startEv, stopEv := VarKey(e.Args[1]), VarKey(e.Args[2])
		// The last record of stop before the elapsed-time call, and the last
		// record of start before that.
		var stop, start *Call
		for _, r := range events {
			if r.Node.Start() < e.Node.Start() && len(r.Args) > 0 && VarKey(r.Args[0]) == stopEv {
				stop = r
			}
		}
		if stop == nil {
			continue
		}
		for _, r := range events {
			if r.Node.Start() < stop.Node.Start() && len(r.Args) > 0 && VarKey(r.Args[0]) == startEv {
				start = r
			}
		}
		if start != nil {
			out = append(out, regionBetween(start, stop, ClockEvent, fn))
		}
	}
	// Records without an elapsed-time computation in the function are
	// usually dependencies between streams (cudaStreamWaitEvent), not
	// timing: they pair only when their events are named for timing and
	// never waited on (the elapsed time may be computed by a helper).
	// A macro that records an event is a timing record when the function
	// reads an elapsed time through a macro (a begin/finish pair of a
	// project header, or an explicit record closed by such a macro).
	if len(elapsed) == 0 {
		out = append(out, consecutive(timingRecords(events, f, fn, func(r *Call) bool {
			return macroElapsed && (macroRecords[r] || len(r.Args) > 0 && macroEvents[VarKey(r.Args[0])]) || macroTimingRecords[r]
		}), ClockEvent, fn)...)
	}
	if decls := f.timerDeclarations(fn); len(decls) > 0 {
		host = append(host, decls...)
		slices.SortFunc(host, func(a, b *Call) int { return a.Node.Start() - b.Node.Start() })
	}
	objects := len(out)
	out = append(out, hostRegions(host, fn)...)
	out = append(out, sinceStartRegions(host, fn)...)
	out = append(out, runningStopwatchRegions(f.CallsIn(fn), fn)...)
	out = append(out, f.eventHelperRegions(fn)...)
	out = append(out, f.ownTimerScopes(fn, host)...)
	for k := objects; k < len(out); k++ {
		out[k].EventTimer = f.eventTimerAt(out[k].Start)
	}
	out = append(out, f.benchmarkLoops(fn)...)
	return out
}

// eventHelperRegions returns the regions fn times with event helpers of
// its file: functions that launch nothing and record one CUDA event, one
// that starts (`initializeEvents(&start, &stop)`: creates both, records
// start) and one that stops and reads the time between them
// (`finalizeEvents(start, stop)`: records stop, cudaEventElapsedTime). A
// region runs from a start helper's call to the next stop helper's.
func (f *File) eventHelperRegions(fn *Function) []TimedRegion {
	var out []TimedRegion
	var start *Call
	for _, c := range f.CallsIn(fn) {
		switch f.eventHelper(c.Name) {
		case eventHelperStart:
			start = c
		case eventHelperStop:
			if start != nil {
				out = append(out, regionBetween(start, c, ClockEvent, fn))
			}
			start = nil
		}
	}
	return out
}

// Kinds of event helpers (eventHelper).
const (
	notEventHelper = iota
	eventHelperStart
	eventHelperStop
)

// eventHelper says whether the file's function of the name is an event
// helper that starts a measurement (it records one event and reads no
// elapsed time) or stops one (it records one event and reads the elapsed
// time): every definition of the name in the file the same, none
// launching.
func (f *File) eventHelper(name string) int {
	if f.eventHelpers == nil {
		f.eventHelpers = map[string]int{}
		for _, fn := range f.Functions {
			if fn.Name == "" || fn.Space&SpaceHost == 0 || len(f.LaunchesIn(fn)) > 0 {
				continue
			}
			records, elapsed := 0, false
			for _, c := range f.CallsIn(fn) {
				if knowledge.IsEventRecord(c.Name) {
					records++
				}
				elapsed = elapsed || knowledge.IsEventElapsed(c.Name)
			}
			kind := notEventHelper
			switch {
			case records == 1 && elapsed:
				kind = eventHelperStop
			case records == 1:
				kind = eventHelperStart
			}
			if prior, seen := f.eventHelpers[fn.Name]; seen && prior != kind {
				kind = notEventHelper
			}
			f.eventHelpers[fn.Name] = kind
		}
	}
	return f.eventHelpers[name]
}

// runningStopwatchRegions returns the regions, in fn's calls, from a
// stopwatch's start to each read of its value (knowledge.TimerValueReads)
// made while it runs, no stop of it between: `cutStartTimer(t); print(cutGetTimerValue(t));
// k<<<...>>>(); print(cutGetTimerValue(t));` measures k since the start.
// A read after a stop returns the sessions summed, which hostRegions
// bounds.
func runningStopwatchRegions(calls []*Call, fn *Function) []TimedRegion {
	var out []TimedRegion
	started := map[string]*Call{} // each running watch: its start
	for _, c := range calls {     // in source order
		if len(c.Args) == 0 {
			continue
		}
		watch := VarKey(addressed(c.Args[0]))
		switch {
		case knowledge.StopwatchStarts[c.Name]:
			started[watch] = c
		case knowledge.StopwatchStops[c.Name]:
			delete(started, watch)
		case knowledge.TimerValueReads[c.Name] && started[watch] != nil && !c.Node.Parent().Is("expression_statement"):
			// A read whose value is used (an argument, an initializer):
			// one dropped measures nothing.
			out = append(out, regionBetween(started[watch], c, ClockHost, fn))
		}
	}
	return out
}

// timingEvent matches names of events used for timing.
var timingEvent = regexp.MustCompile(`(?i)^(start|stop|begin|end|tic|toc|t0|t1|t_start|t_stop|ev_?start|ev_?stop|start_?ev(ent)?|stop_?ev(ent)?|begin_?ev(ent)?|end_?ev(ent)?)$`)

// timingRecords keeps the event records whose events are named for timing
// and not waited on in the function, and those timing says to keep.
func timingRecords(records []*Call, f *File, fn *Function, timing func(*Call) bool) []*Call {
	waited := map[string]bool{}
	for _, c := range f.Calls {
		if c.Func == fn && (c.Name == "cudaStreamWaitEvent" || c.Name == "cuStreamWaitEvent") && len(c.Args) > 1 {
			waited[VarKey(c.Args[1])] = true
		}
	}
	var out []*Call
	for _, r := range records {
		if timing(r) {
			out = append(out, r)
			continue
		}
		if len(r.Args) == 0 {
			continue
		}
		ev := VarKey(r.Args[0])
		if ev == "" || waited[ev] || !timingEvent.MatchString(ev[strings.LastIndexByte(ev, '.')+1:]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// consecutive pairs each clock read with the next one.
// A pair whose first read stops a timer, or whose second starts one, is the
// gap between two measurements, not a measurement.
func consecutive(reads []*Call, kind ClockKind, fn *Function) []TimedRegion {
	var out []TimedRegion
	for j := 1; j < len(reads); j++ {
		i := startFor(reads, j)
		if i < 0 || namesStop(reads[i].Name) || namesStart(reads[j].Name) {
			continue
		}
		out = append(out, regionBetween(reads[i], reads[j], kind, fn))
	}
	return out
}

// startFor returns the index of the read that read j ends a measurement
// from: the one before it, unless that one lies in a branch that leaves
// before j (`if (covered) { ...; t = now() - t; continue; }`, the loop's
// next iteration reading the clock again at its top), then the latest
// earlier read that reaches j. -1 when none does.
func startFor(reads []*Call, j int) int {
	for i := j - 1; i >= 0; i-- {
		if !leavesBefore(reads[i].Node, reads[j].Node, reads) {
			return i
		}
	}
	return -1
}

// leavesBefore reports whether every path from a leaves before it gets to
// b: a lies in a block, not holding b, that ends in a return or throw, a
// break out of a loop or switch that holds b, or a continue of a loop that
// holds b and, before b, another read on every path to b (the next
// iteration reads the clock again before b).
func leavesBefore(a, b Node, reads []*Call) bool {
	for x, p := a, a.Parent(); p.Valid() && !p.Contains(b); x, p = p, p.Parent() {
		if p.Is("function_definition", "lambda_expression") {
			return false
		}
		if !p.Is("compound_statement") {
			continue
		}
		last := lastStatement(p)
		if !last.Valid() || last.Start() < x.End() {
			continue // the block's jump comes before a (or is a's own statement)
		}
		switch last.Kind() {
		case "return_statement", "throw_statement":
			return true
		case "break_statement", "continue_statement":
			loop := jumpTarget(last)
			if !loop.Valid() || !loop.Contains(b) {
				continue
			}
			if last.Is("break_statement") {
				return true
			}
			for _, r := range reads {
				if r.Node != a && r.Node.Start() < b.Start() && loop.Contains(r.Node) && OnTheWay(r.Node, b) {
					return true
				}
			}
		}
	}
	return false
}

// jumpTarget returns the loop a break or continue leaves (for a break, a
// switch too).
func jumpTarget(jump Node) Node {
	for p := jump.Parent(); p.Valid(); p = p.Parent() {
		switch {
		case p.Is("for_statement", "for_range_loop", "while_statement", "do_statement"):
			return p
		case p.Is("switch_statement") && jump.Is("break_statement"):
			return p
		case p.Is("function_definition", "lambda_expression"):
			return Node{}
		}
	}
	return Node{}
}

// addedTo reports whether a clock read's value has something added to it
// (`now() + timeout`, `timeout + now()`): a deadline.
func addedTo(c *Call) bool {
	p := outsideParens(c.Node)
	return p.Is("binary_expression") && strings.TrimSpace(p.ChildByField("operator").Text()) == "+"
}

// outsideParens returns the nearest ancestor of n that is not a
// parenthesized expression: the expression n is an operand of.
func outsideParens(n Node) Node {
	p := n.Parent()
	for p.Is("parenthesized_expression") {
		p = p.Parent()
	}
	return p
}

// checksElapsed reports whether a read only checks how long it has been
// since a stamp kept outside the function (a member, a global), against a
// bound: `now() - m_last_draw > 50ms`, a redraw throttle or a time limit,
// which starts and ends no measurement of the function. (A window against
// a stamp of the function's own, `for (; now() - t0 < 0.02; n++)`, is one.)
func checksElapsed(c *Call, fn *Function) bool {
	p := outsideParens(c.Node)
	if !p.Is("binary_expression") || strings.TrimSpace(p.ChildByField("operator").Text()) != "-" || p.ChildByField("left").Unparen().Start() != c.Node.Start() {
		return false
	}
	if stamp := VarKey(p.ChildByField("right")); stamp == "" || !strings.Contains(stamp, ".") && declaredLocal(fn, stamp) {
		return false
	}
	q := outsideParens(p)
	if !q.Is("binary_expression") {
		return false
	}
	switch strings.TrimSpace(q.ChildByField("operator").Text()) {
	case ">", ">=", "<", "<=":
		return true
	}
	return false
}

// discards reports whether a host read is a timer's reset that reads no
// clock (File.discardsMeasurement).
func discards(c *Call) bool { return c.Node.f.discardsMeasurement(c) }

var (
	startsTimer = regexp.MustCompile(`(?i)start|begin|tic$|\breset\b`)
	stopsTimer  = regexp.MustCompile(`(?i)stop|end$|toc$|elapsed|finish`)
	// stopwatchWord names a timer, not what it does: stopwatch_start
	// starts.
	stopwatchWord = regexp.MustCompile(`(?i)stop_?watch`)
)

// namesStop reports whether a read's name (and the variable it is stored
// in) says it stops a timer; namesStart, that it starts one.
func namesStop(s string) bool  { return stopsTimer.MatchString(stopwatchWord.ReplaceAllString(s, "")) }
func namesStart(s string) bool { return startsTimer.MatchString(stopwatchWord.ReplaceAllString(s, "")) }

// hostRegions pairs consecutive host clock reads. Where the reads are
// stored in variables, the function's own use of them decides: a pair the
// code compares (`later - earlier`, or both passed to one call such as
// elapsed_time(a, b)), through copies (`t_phase = t_now`), is a
// measurement whatever the names; when the function compares some stored
// reads but not these two, they bound the gap between two measurements
// (`finish` of one, `start_bwd` of the next). Reads not stored, or a
// function that compares none, fall back to names: a pair whose first read
// (call or variable) names a stop, or whose second names a start, is a gap.
func hostRegions(reads []*Call, fn *Function) []TimedRegion {
	// A read stored in a variable the function never reads again measures
	// nothing (a timestamp taken and dropped, or kept for a log line
	// through another read).
	kept := reads[:0:0]
	for _, r := range reads {
		if v := storedIn(r); v == "" || strings.Contains(v, ".") || !declaredLocal(fn, v) || readAfter(storedScope(r, fn), v, r.Node.End()) {
			kept = append(kept, r)
		}
	}
	reads = kept
	vars := make([]string, len(reads))
	known := map[string]int{} // each variable: the first read stored in it
	for i, r := range reads {
		if vars[i] = storedIn(r); vars[i] != "" {
			if _, ok := known[vars[i]]; !ok {
				known[vars[i]] = i
			}
		}
	}
	measured := comparedPairs(fn, known)
	var out []TimedRegion
	for j := 1; j < len(reads); j++ {
		if arg, since, _ := reads[j].Node.f.parameterClock(reads[j]); since {
			if k := sinceStart(vars, j, arg); k >= 0 {
				out = append(out, regionBetween(reads[k], reads[j], ClockHost, fn))
			}
			continue
		}
		i := startFor(reads, j)
		if i < 0 || knowledge.TimerValueReads[reads[i].Name] {
			// sdkGetTimerValue returns what the stopwatch summed so far:
			// what follows it is not measured from there.
			continue
		}
		a, b := vars[i], vars[j]
		if a != "" && b != "" && len(measured) > 0 {
			if measured[[2]string{a, b}] {
				out = append(out, regionBetween(reads[i], reads[j], ClockHost, fn))
			} else if k := previousOfClock(reads, j); k >= 0 && k < i && vars[k] != "" && measured[[2]string{vars[k], b}] {
				// Two clocks interleaved (a clock() run time inside
				// steady_clock phases): the read before is the other
				// clock's; this one's measurement starts at the read of
				// its own clock it is compared with.
				out = append(out, regionBetween(reads[k], reads[j], ClockHost, fn))
			}
			continue
		}
		// The declaration of a timer object starts that object: it ends
		// no measurement of the read before it (another timer's). A reset
		// that reads no clock measures nothing, up to it or from it. A
		// read that a duration is added to is a deadline (`deadline =
		// now() + timeout`), which later reads are compared with or
		// subtracted from: a time budget, not a measurement.
		if namesStop(reads[i].Name+" "+a) || namesStart(reads[j].Name+" "+b) || isTimerDeclaration(reads[j]) ||
			discards(reads[i]) || discards(reads[j]) || addedTo(reads[i]) || checksElapsed(reads[i], fn) || checksElapsed(reads[j], fn) {
			continue
		}
		out = append(out, regionBetween(reads[i], reads[j], ClockHost, fn))
	}
	return out
}

// sinceStart returns the index of the read a since helper's call
// (`seconds_since(t)`, read j, given the variable arg) measures from: the
// last one before it stored in arg, or -1.
func sinceStart(vars []string, j int, arg string) int {
	if arg == "" {
		return -1
	}
	for k := j - 1; k >= 0; k-- {
		if vars[k] == arg {
			return k
		}
	}
	return -1
}

// previousOfClock returns the index of the last read before reads[j] of
// the same clock (sameClock), or -1.
func previousOfClock(reads []*Call, j int) int {
	for k := j - 1; k >= 0; k-- {
		if sameClock(reads[k], reads[j]) {
			return k
		}
	}
	return -1
}

// sameClock reports whether two reads read the same clock, as spelled: the
// same function (`std::chrono::steady_clock::now`, `clock`), or methods of
// the same object (`timer.start()`, `timer.stop()`).
func sameClock(a, b *Call) bool {
	if a.Callee.Is("field_expression") && b.Callee.Is("field_expression") {
		return compactSpace(a.Callee.ChildByField("argument").Text()) == compactSpace(b.Callee.ChildByField("argument").Text())
	}
	return compactSpace(a.Callee.Text()) == compactSpace(b.Callee.Text())
}

// readAfter reports whether scope names the variable v after offset at
// (or anywhere, inside a loop that holds at: the next iteration reads it).
func readAfter(scope Node, v string, at int) bool {
	found := false
	scope.Descendants(func(n Node) bool {
		if found {
			return false
		}
		if n.Is("identifier") && n.Text() == v && (n.Start() >= at || inLoopWith(n, at)) {
			if p := n.Parent(); !(p.Is("init_declarator", "declaration") && n.Field() == "declarator") {
				found = true
			}
		}
		return true
	})
	return found
}

// declaredLocal reports whether fn's body declares a variable v (not a
// parameter, a member or a global, which others read).
func declaredLocal(fn *Function, v string) bool {
	found := false
	fn.Body.Descendants(func(n Node) bool {
		if found {
			return false
		}
		if n.Is("identifier") && n.Text() == v && declaratorName(n) {
			found = true
		}
		return true
	})
	return found
}

// inLoopWith reports whether n and the offset at lie in one loop.
func inLoopWith(n Node, at int) bool {
	for p := n.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("for_statement", "while_statement", "do_statement", "for_range_loop") && p.Start() <= at && at < p.End() {
			return true
		}
	}
	return false
}

// storedIn is the variable a clock read is stored in (`auto t0 =
// clock::now()`, `t1 = seconds()`), or "".
// storedScope returns where the variable a read is stored in can be read:
// the block of its declaration when the read initializes it (`const double
// t = timer.seconds();` in a block of its own: another block's t is
// another variable), else fn's body.
func storedScope(c *Call, fn *Function) Node {
	if p := c.Node.Parent(); p.Is("init_declarator") {
		if block := p.Parent().Parent(); block.Is("compound_statement") {
			return block
		}
	}
	return fn.Body
}

// soleVar returns the clock variable (a key of names) that expression n
// is made of: n itself, or the one such variable its parts name
// (`time_end.tv_sec * 1000000 + time_end.tv_usec` is time_end's); ""
// when it names none or several.
func soleVar(n Node, names map[string]map[string]bool) string {
	if k := VarKey(n); k != "" {
		return k
	}
	found := ""
	several := false
	n.Descendants(func(x Node) bool {
		if several || !x.Is("identifier") {
			return !several
		}
		if k := x.Text(); names[k] != nil && k != found {
			several = found != ""
			found = k
		}
		return true
	})
	if several {
		return ""
	}
	return found
}

// addressed returns the variable whose address n takes (`&tv` of
// tvsub(&end, &start, &tv)), or n itself.
func addressed(n Node) Node {
	n = n.Unparen()
	if n.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(n.Text()), "&") {
		return n.ChildByField("argument")
	}
	return n
}

func storedIn(c *Call) string {
	// start_timer(t), a stamp helper of the file: the read is stored in
	// its argument.
	if arg, since, ok := c.Node.f.parameterClock(c); ok && !since {
		return arg
	}
	return storedDirectly(c)
}

// storedDirectly is storedIn for the reads the tables know (no helper of
// the file): what clockHelpers itself asks.
func storedDirectly(c *Call) string {
	// gettimeofday(&tv, 0), clock_gettime(CLOCK_MONOTONIC, &ts): the read
	// is stored where its pointer argument points.
	if k, ok := knowledge.ClockOutParams[c.Name]; ok && k < len(c.Args) {
		if a := addressed(c.Args[k]); a != c.Args[k].Unparen() {
			return VarKey(a)
		}
		return ""
	}
	p := c.Node.Parent()
	switch {
	case p.Is("init_declarator"):
		return VarKey(p.ChildByField("declarator"))
	case p.Is("assignment_expression") && p.ChildByField("right").Start() == c.Node.Start():
		return VarKey(p.ChildByField("left"))
	}
	return ""
}

// comparedPairs returns the pairs {earlier, later} of clock variables that
// fn compares: `later - earlier`, or both as arguments of one call, or as
// fields of one object handed to a call (`elapsed(&sw)` of sw.begin and
// sw.end, earlier the field read first). Copies (`auto t_start =
// t_phase;`, `t_phase = t_now;`) make a variable stand for the read it
// copies. known are the clock variables, each with the index of the first
// read stored in it.
func comparedPairs(fn *Function, known map[string]int) map[[2]string]bool {
	if len(known) < 2 || fn == nil || !fn.Body.Valid() {
		return nil
	}
	// names[v]: the clock variables v may hold.
	names := map[string]map[string]bool{}
	for v := range known {
		names[v] = map[string]bool{v: true}
	}
	copyOf := func(dst, src string) {
		if dst == "" || src == "" || names[src] == nil {
			return
		}
		if names[dst] == nil {
			names[dst] = map[string]bool{}
		}
		for v := range names[src] {
			names[dst][v] = true
		}
	}
	for range 2 { // copies of copies
		fn.Body.Descendants(func(n Node) bool {
			switch {
			case n.Is("init_declarator"):
				copyOf(VarKey(n.ChildByField("declarator")), VarKey(n.ChildByField("value")))
			case n.Is("assignment_expression") && n.ChildByField("operator").Text() == "=":
				copyOf(VarKey(n.ChildByField("left")), VarKey(n.ChildByField("right")))
			}
			return true
		})
	}
	out := map[[2]string]bool{}
	pair := func(later, earlier string) {
		// `end.tv_sec - begin.tv_sec`: the fields of two stored reads
		// (a timeval or timespec filled through a pointer) compare them.
		if names[later] == nil && names[earlier] == nil {
			if l, _, ok := strings.Cut(later, "."); ok {
				if e, _, ok := strings.Cut(earlier, "."); ok {
					later, earlier = l, e
				}
			}
		}
		for l := range names[later] {
			for e := range names[earlier] {
				if l != e {
					out[[2]string{e, l}] = true
				}
			}
		}
	}
	fn.Body.Descendants(func(n Node) bool {
		switch {
		case n.Is("binary_expression") && n.ChildByField("operator").Text() == "-":
			pair(soleVar(n.ChildByField("left"), names), soleVar(n.ChildByField("right"), names))
		case n.Is("call_expression") && !printsValues(n.ChildByField("function").Name()):
			var args []string
			for _, a := range n.ChildByField("arguments").NamedChildren() {
				k := VarKey(addressed(a))
				if names[k] != nil {
					args = append(args, k)
					continue
				}
				// get_interval(&sw): the object whose fields hold reads
				// (stamp helpers' sw.begin and sw.end) hands them, in the
				// order they are first read: the field read last after
				// the one read first is no measurement (a stop, then the
				// next start).
				var fields []string
				for v := range known {
					if k != "" && root(v) == k && v != k {
						fields = append(fields, v)
					}
				}
				slices.SortFunc(fields, func(a, b string) int { return known[a] - known[b] })
				for j := 1; j < len(fields); j++ {
					pair(fields[j], fields[j-1])
				}
			}
			for i := range args {
				for j := range args {
					if i != j {
						pair(args[i], args[j])
					}
				}
			}
		}
		return true
	})
	return out
}

// printsValues reports whether a function of the name prints or formats
// what it is handed (printf, fprintf, std::format): two clock variables
// passed to it are shown side by side, not compared (`printf("%f %f",
// t_fft, t_ifft)` of two durations). A logger named for what it logs
// (`log_elapsed(t0, t1)`) may compare them, and is not one.
func printsValues(name string) bool {
	lower := strings.ToLower(name)
	return strings.Contains(lower, "print") || lower == "format"
}

// benchmarkLoops returns the bodies of Google Benchmark loops,
// `for (auto _ : state)`, as regions bounded by the loop itself.
func (f *File) benchmarkLoops(fn *Function) []TimedRegion {
	var out []TimedRegion
	fn.Body.Descendants(func(n Node) bool {
		if n.Is("for_range_loop") && f.isBenchmarkState(n.ChildByField("right")) {
			body := n.ChildByField("body")
			out = append(out, TimedRegion{From: body.Start(), To: body.End(), Start: n.ChildByField("right"), Stop: body, Clock: ClockHost, Func: fn})
		}
		return true
	})
	return out
}

// isBenchmarkState reports whether x names a Google Benchmark state: the
// conventional name, or a variable declared benchmark::State.
func (f *File) isBenchmarkState(x Node) bool {
	if x.Text() == "state" {
		return true
	}
	if !x.Is("identifier") {
		return false
	}
	typ, _ := f.DeclaredType(x)
	return strings.HasSuffix(typ, "benchmark::State") || typ == "State"
}

// IsBenchmarkLoop reports whether a timed region is a Google Benchmark
// loop (`for (auto _ : state)`) rather than code between clock reads.
func (r TimedRegion) IsBenchmarkLoop() bool {
	return r.Start.Valid() && r.Start.Parent().Is("for_range_loop") && r.Start.Field() == "right"
}

// ManualTime reports whether Google Benchmark reports, for the benchmark
// function fn, the times it hands to state.SetIterationTime rather than
// the loop's own wall time: registered with `->UseManualTime()`, or
// calling SetIterationTime at all. The loop then measures nothing itself;
// the regions it hands on are measured on their own.
func (f *File) ManualTime(fn *Function) bool {
	if fn.Body.Valid() && bytes.Contains(f.Src[fn.Body.Start():fn.Body.End()], []byte("SetIterationTime(")) {
		return true
	}
	if !bytes.Contains(f.Src, []byte("UseManualTime")) {
		return false // most files: no registration to scan for
	}
	return registeredWith(f.Src, fn.Name, "UseManualTime")
}

// FixedIterations reports whether the file registers the Google Benchmark
// function name with a fixed iteration count (`BENCHMARK(fn)->Iterations(n)`).
func (f *File) FixedIterations(name string) bool {
	return registeredWith(f.Src, name, "Iterations")
}

// registeredWith reports whether src registers the benchmark function
// name with the builder call method: `BENCHMARK(name)->method(`, any
// BENCHMARK_* macro, anything but a `;` between the macro and the call.
// It scans rather than compiling an expression: names are the source's
// own bytes, which need not be valid UTF-8 (a regular expression built
// from one fails to compile), and a compile per asked function was most
// of the cost.
func registeredWith(src []byte, name, method string) bool {
	if name == "" {
		return false
	}
	macro := []byte("BENCHMARK")
	for from := 0; ; {
		at := bytes.Index(src[from:], macro)
		if at < 0 {
			return false
		}
		i := from + at + len(macro)
		from = i
		for i < len(src) && syntax.IsIdentByte(src[i]) {
			i++
		}
		if i >= len(src) || src[i] != '(' {
			continue
		}
		i = skipSpaces(src, i+1)
		if !bytes.HasPrefix(src[i:], []byte(name)) {
			continue
		}
		i += len(name)
		if i < len(src) && syntax.IsIdentByte(src[i]) {
			continue // a longer name: BENCHMARK(run_all) for run
		}
		end := bytes.IndexByte(src[i:], ';')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		if callsBuilder(src[i:end], method) {
			return true
		}
	}
}

// callsBuilder reports whether text holds `->method(`, spaces allowed
// around the name.
func callsBuilder(text []byte, method string) bool {
	for {
		at := bytes.Index(text, []byte("->"))
		if at < 0 {
			return false
		}
		text = text[at+2:]
		rest := text[skipSpaces(text, 0):]
		if !bytes.HasPrefix(rest, []byte(method)) {
			continue
		}
		rest = rest[len(method):]
		if rest = rest[skipSpaces(rest, 0):]; len(rest) > 0 && rest[0] == '(' {
			return true
		}
	}
}

// clockHelpers returns the file's own timestamp helpers, found once: host
// functions that read a host clock exactly once, by a call the tables
// know, and launch nothing, and either return the read (`static double
// wall() { clock_gettime(...); return ...; }`, `double now_seconds()`
// over std::chrono) or keep it in a variable of the file (`void tic() {
// gettimeofday(&t0, 0); }`, the start of a stopwatch whose stop reads
// t0). A call of one is a clock read, as a helper of another file is
// (Project.ClockFunctions, which asks no more than the one read). A
// function reading twice measures something itself and is not one.
func (f *File) clockHelpers() map[string]bool {
	f.clockHelpersOnce.Do(func() {
		var globals map[string]bool // the file's variables, once asked
		for _, fn := range f.Functions {
			reads := f.helperReads(fn)
			if len(reads) != 1 {
				continue
			}
			// A helper named as a clock (start_timer) is a clock read
			// already; its parameter says where the read goes.
			keeps := func() bool {
				if globals == nil {
					globals = f.fileVariables()
				}
				return storesInto(fn, reads[0], globals)
			}
			if !knowledge.IsClockName(fn.Name) && (returnsTime(fn) && returnsRead(fn, reads[0]) || keeps()) {
				if f.ownClockHelpers == nil {
					f.ownClockHelpers = map[string]bool{}
				}
				f.ownClockHelpers[fn.Name] = true
			}
			f.noteParameterClock(fn, reads[0])
		}
	})
	return f.ownClockHelpers
}

// helperReads returns the clock reads of fn that one build compiles (nil
// for a function no helper can be: device code, main, one that launches).
func (f *File) helperReads(fn *Function) []*Call {
	if fn.Space&SpaceHost == 0 || fn.Name == "" || fn.Name == "main" || len(f.LaunchesIn(fn)) > 0 {
		return nil
	}
	var reads []*Call
	for _, c := range f.CallsIn(fn) {
		if f.readsClockDirectly(c) || f.projectClocks[c.Name] && f.FunctionNamed(c.Name) == nil {
			reads = append(reads, c)
		}
	}
	return readsOfOneBuild(reads)
}

// storesInto reports whether fn stores its clock read into one of the
// variables of the file (globals), not a parameter or local of its own.
func storesInto(fn *Function, read *Call, globals map[string]bool) bool {
	v := root(strings.TrimPrefix(storedDirectly(read), "*"))
	if v == "" || !globals[v] || declaredLocal(fn, v) {
		return false
	}
	return !slices.ContainsFunc(fn.Params, func(p Param) bool { return p.Name == v })
}

// fileVariables returns the names of the variables the file declares
// outside functions and classes: at file scope, in namespaces, extern "C"
// blocks and preprocessor branches.
func (f *File) fileVariables() map[string]bool {
	out := map[string]bool{}
	var walk func(n Node)
	walk = func(n Node) {
		for _, c := range n.NamedChildren() {
			switch {
			case c.Is("declaration"):
				for _, d := range c.NamedChildren() {
					if d.Field() == "declarator" && !d.Is("function_declarator") {
						if name := declaredVariable(d); name != "" {
							out[name] = true
						}
					}
				}
			case c.Is("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
				"namespace_definition", "declaration_list", "linkage_specification"):
				walk(c)
			}
		}
	}
	walk(f.Root())
	return out
}

// derivedThroughCalls adds to vars what fn's calls fill from them:
// `timersub(&stop, &start, &elapsed)`, handed a read's variable and the
// address of another, fills that one from the read.
func derivedThroughCalls(fn *Function, read *Call, vars map[string]bool) {
	fn.Body.Descendants(func(n Node) bool {
		if !n.Is("call_expression") || n == read.Node {
			return true
		}
		args := n.ChildByField("arguments").NamedChildren()
		if !slices.ContainsFunc(args, func(a Node) bool { return vars[VarKey(addressed(a))] }) {
			return true
		}
		for _, a := range args {
			if a.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(a.Text()), "&") {
				vars[VarKey(a.ChildByField("argument"))] = true
			}
		}
		return true
	})
}

// readsOfOneBuild keeps the reads one build compiles: of a preprocessor
// conditional holding reads in two or more of its branches (`#ifdef WIN32
// QueryPerformanceCounter(&li); #else gettimeofday(&tv, 0); #endif`), the
// branch holding the most, the last of those (the `#else`, the build
// without the switch) on a tie.
func readsOfOneBuild(reads []*Call) []*Call {
	for len(reads) > 1 {
		branches := map[Node]map[int][]*Call{} // conditional -> branch -> its reads
		var order []Node
		for _, r := range reads {
			for cond, branch := range conditionalBranches(r.Node) {
				if branches[cond] == nil {
					branches[cond] = map[int][]*Call{}
					order = append(order, cond)
				}
				branches[cond][branch] = append(branches[cond][branch], r)
			}
		}
		var split Node
		for _, cond := range order {
			if len(branches[cond]) > 1 {
				split = cond
				break
			}
		}
		if !split.Valid() {
			return reads
		}
		best := -1
		for branch, rs := range branches[split] {
			if best < 0 || len(rs) > len(branches[split][best]) || len(rs) == len(branches[split][best]) && branch > best {
				best = branch
			}
		}
		var kept []*Call
		for _, r := range reads {
			if b, in := conditionalBranches(r.Node)[split]; !in || b == best {
				kept = append(kept, r)
			}
		}
		reads = kept
	}
	return reads
}

// conditionalBranches returns the preprocessor conditionals around n (up
// to its function), each with the index of its branch that holds n: 0 for
// the first, one more for each #else or #elif after it.
func conditionalBranches(n Node) map[Node]int {
	out := map[Node]int{}
	branch := 0
	for p := n.Parent(); p.Valid() && !p.Is("function_definition", "lambda_expression"); p = p.Parent() {
		switch {
		case p.Is("preproc_else", "preproc_elif", "preproc_elifdef"):
			branch++
		case p.Is("preproc_if", "preproc_ifdef"):
			out[p] = branch
			branch = 0
		}
	}
	return out
}

// noteParameterClock notes fn, which reads a host clock once (read) and
// launches nothing, as a stamp helper when the read is stored into one of
// its parameters (`void start_timer(timeval &t) { gettimeofday(&t, 0); }`,
// `*t = now()`), or as a since helper when it subtracts a parameter from
// the read (`double seconds_since(timeval &t) { gettimeofday(&end, 0);
// return end.tv_sec - t.tv_sec + ...; }`): a call of either is a clock
// read, whose measurement the argument variable ties together.
func (f *File) noteParameterClock(fn *Function, read *Call) {
	param := map[string]int{}
	for _, p := range fn.Params {
		if p.Name != "" {
			param[p.Name] = p.Index
		}
	}
	if len(param) == 0 {
		return
	}
	into := storedDirectly(read)
	if k, ok := knowledge.ClockOutParams[read.Name]; ok && into == "" && k < len(read.Args) {
		into = VarKey(read.Args[k]) // gettimeofday(t, 0) through a pointer parameter
	}
	into = strings.TrimPrefix(into, "*")
	if k, ok := param[root(into)]; ok {
		if f.stampHelpers == nil {
			f.stampHelpers = map[string]int{}
		}
		f.stampHelpers[fn.Name] = k
		if field := strings.TrimPrefix(into, root(into)); field != "" {
			if f.stampFields == nil {
				f.stampFields = map[string]string{}
			}
			f.stampFields[fn.Name] = field
		}
		return
	}
	if into == "" {
		return
	}
	// The read's variable minus a parameter, fields of either included.
	fn.Body.Descendants(func(n Node) bool {
		if !n.Is("binary_expression") || n.ChildByField("operator").Text() != "-" {
			return true
		}
		if root(VarKey(n.ChildByField("left").Unparen())) != into {
			return true
		}
		if k, ok := param[root(VarKey(n.ChildByField("right").Unparen()))]; ok {
			if f.sinceHelpers == nil {
				f.sinceHelpers = map[string]int{}
			}
			f.sinceHelpers[fn.Name] = k
			return false
		}
		return true
	})
}

// root is the variable a key names a field of (`t` for `t.tv_sec`).
func root(key string) string {
	if i := strings.IndexByte(key, '.'); i >= 0 {
		return key[:i]
	}
	return key
}

// parameterClock reports whether c calls a stamp or since helper of the
// file (noteParameterClock) with the argument it ties the read to (ok),
// the variable that argument names, and whether the helper is a since
// helper (told even when the call lacks the argument).
func (f *File) parameterClock(c *Call) (arg string, since, ok bool) {
	if f == nil || c.Callee.Is("field_expression") {
		return "", false, false
	}
	f.clockHelpers()
	k, stamp := f.stampHelpers[c.Name]
	if !stamp {
		if k, since = f.sinceHelpers[c.Name]; !since {
			return "", false, false
		}
	}
	if k >= len(c.Args) {
		return "", since, false
	}
	return VarKey(addressed(c.Args[k])) + f.stampFields[c.Name], since, true
}

// returnsTime reports whether fn returns what a timestamp can be: a
// number, a time point or duration, auto; not text (`char *time_string()`
// formats the time of day for a log), nor nothing.
func returnsTime(fn *Function) bool {
	typ := fn.Node.ChildByField("type")
	if !typ.Valid() {
		return false
	}
	t := typ.Text()
	if d := fn.Node.ChildByField("declarator"); d.Is("pointer_declarator", "reference_declarator") && !strings.HasPrefix(strings.TrimSpace(d.Text()), "&") {
		return false // char *f(), T *f()
	}
	switch {
	case strings.Contains(t, "char") || strings.Contains(t, "string") || strings.TrimSpace(t) == "void" || strings.Contains(t, "bool"):
		return false
	}
	return true
}

// returnsRead reports whether fn returns what the clock read c gives: a
// return holds c itself, or a variable c fills (`clock_gettime(id, &ts)`)
// or initializes (`auto t = now()`). A function that reads the clock for
// something else (a throttle, a log line) and returns a count is no
// timestamp.
func returnsRead(fn *Function, c *Call) bool {
	vars := map[string]bool{}
	for _, a := range c.Args {
		if a.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(a.Text()), "&") {
			vars[VarKey(a.ChildByField("argument"))] = true
		}
	}
	for p := c.Node.Parent(); p.Valid() && !p.Is("expression_statement", "compound_statement"); p = p.Parent() {
		if p.Is("init_declarator") {
			vars[VarKey(p.ChildByField("declarator"))] = true
			break
		}
		if p.Is("assignment_expression") {
			vars[VarKey(p.ChildByField("left"))] = true
			break
		}
	}
	derivedThroughCalls(fn, c, vars)
	found := false
	fn.Body.Descendants(func(n Node) bool {
		if found {
			return false
		}
		if !n.Is("return_statement") {
			return !n.Is("lambda_expression")
		}
		if n.Contains(c.Node) {
			found = true
			return false
		}
		n.Descendants(func(x Node) bool {
			if x.Is("identifier") && vars[x.Text()] {
				found = true
			}
			return !found
		})
		return false
	})
	return found
}

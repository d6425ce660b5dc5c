package knowledge

import (
	"regexp"
	"sort"
	"strings"
)

// EventRecords record a CUDA event: a clock read when an elapsed-time call
// pairs two of them.
var EventRecords = map[string]bool{
	"cudaEventRecord": true, "cudaEventRecordWithFlags": true, "cuEventRecord": true, "cuEventRecordWithFlags": true,
}

// EventTimerSpellings are literals a timer class of CUDA events spells
// all of: it records events and reads the time between them (a class that
// only records orders streams).
var EventTimerSpellings = []string{"EventElapsedTime(", "EventRecord"}

// EventElapsed read the time between two recorded events.
var EventElapsed = map[string]bool{"cudaEventElapsedTime": true, "cuEventElapsedTime": true}

// IsEventRecord reports whether a call of name records a CUDA event: one
// of EventRecords, or a wrapper of one (EntryPoint).
func IsEventRecord(name string) bool { return EventRecords[EntryPoint(name)] }

// IsEventElapsed reports whether a call of name reads the time between
// two events: one of EventElapsed, or a wrapper of one (EntryPoint).
func IsEventElapsed(name string) bool { return EventElapsed[EntryPoint(name)] }

// Programs that load the driver themselves (dlopen, cuGetProcAddress) call
// its entry points through pointers or wrappers named for them: Warp's
// `cuEventRecord_f`, `pfn_cuEventRecord`, `cuEventRecord_ptr`.
var (
	entryPointSuffixes = []string{"_f", "_fn", "_ptr", "_func", "_wrapper"}
	entryPointPrefixes = []string{"pfn_", "pfn", "p_", "wrap_"}
)

// EntryPoint returns the CUDA API name that name stands for: name
// itself, or, for a wrapper, the name of a CUDA API (cu..., cuda...)
// without the wrapper's affix.
func EntryPoint(name string) string {
	for _, suffix := range entryPointSuffixes {
		if api, ok := strings.CutSuffix(name, suffix); ok && strings.HasPrefix(api, "cu") {
			return api
		}
	}
	for _, prefix := range entryPointPrefixes {
		if api, ok := strings.CutPrefix(name, prefix); ok && strings.HasPrefix(api, "cu") {
			return api
		}
	}
	return name
}

// HostClockCalls are C, OS and common helper functions that read a host
// clock by their name alone.
var HostClockCalls = map[string]bool{
	"clock_gettime": true, "gettimeofday": true, "omp_get_wtime": true, "MPI_Wtime": true,
	"QueryPerformanceCounter": true, "GetTickCount": true, "GetTickCount64": true,
	"timeGetTime": true, "mach_absolute_time": true, "rdtsc": true, "__rdtsc": true,
	"clock": true, "cpuSecond": true, "seconds": true, "wtime": true, "get_time": true,
	"getTime": true, "walltime": true, "wall_time": true, "now_ms": true, "now_us": true,
	// cuda-samples' helper_timer.h
	"sdkStartTimer": true, "sdkStopTimer": true,
	"cutStartTimer": true, "cutStopTimer": true,
	// Parboil's timer set (parboil.h), which its benchmarks and those
	// built on them (ISPASS 2009) print per category: switching the
	// active timer stops one and starts the other.
	"pb_SwitchToTimer": true, "pb_StartTimer": true, "pb_StopTimer": true,
}

// QualifiedClockCalls read a host clock when called under one of their
// namespaces or classes (AMReX's ParallelDescriptor::second() and
// amrex::second()); the bare names are too common to count alone.
var QualifiedClockCalls = map[string][]string{"second": {"ParallelDescriptor", "amrex"}}

// IsQualifiedClock reports whether a call of name whose callee is written
// callee (`amrex::ParallelDescriptor::second`) reads a host clock by
// QualifiedClockCalls.
func IsQualifiedClock(name, callee string) bool {
	for _, q := range QualifiedClockCalls[name] {
		if strings.HasSuffix(strings.Join(strings.Fields(callee), ""), q+"::"+name) {
			return true
		}
	}
	return false
}

// StopwatchStops stop a stopwatch (cuda-samples' helper_timer.h and
// cutil): what it measured is read only by TimerValueReads.
var StopwatchStops = map[string]bool{"sdkStopTimer": true, "cutStopTimer": true}

// SwitchingTimers switch a timer set from one category to another (Parboil's
// pb_SwitchToTimer): a function that calls one times its own work in its
// own categories, and its caller's category stops at the switch.
var SwitchingTimers = map[string]bool{"pb_SwitchToTimer": true}

// StopwatchStarts start one: a TimerValueRead after it, before a stop,
// reads the running watch (what it measured so far).
var StopwatchStarts = map[string]bool{"sdkStartTimer": true, "cutStartTimer": true}

// TimerValueReads return a stopwatch's accumulated time (cuda-samples'
// helper_timer.h, and cutil's before it): a duration summed over its
// start/stop sessions, not a timestamp. A read of one ends what the
// stopwatch's start began; two of them in a row bound nothing.
var TimerValueReads = map[string]bool{
	"sdkGetTimerValue": true, "sdkGetAverageTimerValue": true,
	"cutGetTimerValue": true, "cutGetAverageTimerValue": true,
}

// TimerMethodNames are the methods of timer objects that read the clock
// (t.start(), timer.Stop(), sw.tic(), gpu_timer.Elapsed()), in lower case;
// reset and create do not read it.
var TimerMethodNames = []string{"start", "stop", "begin", "end", "tic", "toc", "elapsed", "elapsed_ms", "elapsedmillis", "record", "restart", "lap", "split"}

// TimerMethod matches TimerMethodNames in any case.
var TimerMethod = regexp.MustCompile(`^(?i:` + strings.Join(TimerMethodNames, "|") + `)$`)

// TimerObjectWords are the words that name an object as a timer.
var TimerObjectWords = []string{"timer", "clock", "watch", "tick", "profil"}

// TimerObject matches names of objects that are timers.
var TimerObject = regexp.MustCompile(`(?i)` + strings.Join(TimerObjectWords, "|"))

// TimerFunction matches free functions named for a timer: StartTimer,
// stop_timer, timerStart.
var TimerFunction = regexp.MustCompile(`^(?i:(start|stop|begin|end)_?timer|timer_?(start|stop|begin|end))$`)

// IsClockName reports whether a free function of the name reads a host
// clock by its name alone.
func IsClockName(name string) bool { return HostClockCalls[name] || isTimerFunction(name) }

// isTimerFunction is TimerFunction.MatchString, the regular expression
// asked only of names of its lengths (8 to 11 bytes) that start or end
// with "timer" in any case: IsClockName is asked of every called name of
// every macro body.
func isTimerFunction(name string) bool {
	if n := len(name); n < 8 || n > 11 {
		return false
	}
	if !strings.EqualFold(name[:5], "timer") && !strings.EqualFold(name[len(name)-5:], "timer") {
		return false
	}
	return TimerFunction.MatchString(name)
}

// HostClockSpellings are literals a call that reads a host clock contains:
// a call of one of HostClockCalls (its name and the parenthesis, so that
// `clock` does not match clock64 or a word in a comment), or std::chrono's
// now(). What marks a file that may read a clock, and define a timer
// helper for the others.
func HostClockSpellings() []string {
	out := []string{"::now"}
	for name := range HostClockCalls {
		// GNU style puts a blank before the parenthesis
		// (`gettimeofday (&tv, &tz)`).
		out = append(out, name+"(", name+" (")
	}
	for name, qs := range QualifiedClockCalls {
		for _, q := range qs {
			out = append(out, q+"::"+name+"(")
		}
	}
	sort.Strings(out)
	return out
}

// TimerMethodSpellings are literals of a timer object's start or stop
// (t.start(), timer->Stop(), sw.tic()).
func TimerMethodSpellings() []string {
	return []string{".start(", ".stop(", ".Start(", ".Stop(", "->start(", "->stop(", "->Start(", "->Stop(", "::Start(", "::Stop(",
		".tic(", ".toc(", ".elapsed", ".Elapsed", "->elapsed", "->Elapsed", ".record(", ".Record("}
}

// A file holds a clock read only if it contains one of ClockReadSpellings,
// or one of TimerObjectSpellings and one of TimerCallSpellings (t.start() on
// an object named for a timer). Prefilters are built from these, so that
// they never skip a file a rule would time (but a project's own timer
// helper, which the project step knows).

// ClockReadSpellings are the spellings of clock reads by a call's name: the
// host clocks, CUDA event records, and timer functions (StartTimer,
// timer_stop: "timer" in any case). ("imer" would do for the timer
// functions, but it is in every license header's "disclaimer": it let
// 3,600 of 15,400 files of the real corpus past LL002's prefilter.)
func ClockReadSpellings() []string {
	out := append(HostClockSpellings(), "EventRecord")
	out = append(out, caseVariants("timer")...)
	sort.Strings(out)
	return out
}

// TimerFunctionSpellings are literals every call TimerFunction matches
// contains: "timer" in its usual cases next to a parenthesis, an
// underscore or a start/stop word (startTimer(), stop_timer(),
// timerBegin()).
func TimerFunctionSpellings() []string {
	var out []string
	for _, w := range []string{"timer", "Timer", "TIMER"} {
		out = append(out, w+"(", w+"_", "_"+w)
		for _, m := range []string{"start", "stop", "begin", "end"} {
			out = append(out, w+m, w+strings.ToUpper(m[:1])+m[1:], w+strings.ToUpper(m))
		}
	}
	sort.Strings(out)
	return out
}

// TimerObjectSpellings are TimerObjectWords in lower, title and upper case.
func TimerObjectSpellings() []string {
	var out []string
	for _, w := range TimerObjectWords {
		out = append(out, w, strings.ToUpper(w[:1])+w[1:], strings.ToUpper(w))
	}
	return out
}

// TimerCallSpellings are the calls of timer objects' methods (t.start(),
// sw->Elapsed(), timer.begin()) in their usual cases. Alone they say
// little: begin() and end() are every container's.
func TimerCallSpellings() []string {
	var out []string
	for _, m := range TimerMethodNames {
		for _, name := range []string{m, strings.ToUpper(m[:1]) + m[1:]} {
			out = append(out, "."+name+"(", "->"+name+"(")
		}
	}
	sort.Strings(out)
	return out
}

// caseVariants returns word in every mix of upper and lower case.
func caseVariants(word string) []string {
	out := []string{""}
	for _, c := range word {
		var next []string
		for _, prefix := range out {
			next = append(next, prefix+strings.ToLower(string(c)), prefix+strings.ToUpper(string(c)))
		}
		out = next
	}
	return out
}

// ClockOutParams are the host clock calls that store their reading through
// a pointer argument, by the argument's index: gettimeofday(&tv, tz),
// clock_gettime(clock, &ts), timespec_get(&ts, base).
var ClockOutParams = map[string]int{"gettimeofday": 0, "clock_gettime": 1, "timespec_get": 0}

package knowledge

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Additions are a team's own entries for the tables above, from its
// configuration (launchers:, preloads:, clocks: and timers: in
// .lazylint.yml): a kernel launch helper whose body lazylint cannot see (a
// library's, or one behind a macro), a function that loads a kernel without
// launching it, a clock function, a timer class. They extend the built-in
// tables for one run: the engine hands them with each file's settings to
// the prefilters and the parser, and the rules see their effect in the
// parsed file's launches, preloads and clock reads. Nothing changes a
// package variable; the nil *Additions adds nothing.
type Additions struct {
	launchers, preloads map[string][]Helper // by plain name
	clocks              map[string][]string // qualified spellings by plain name ("" for unqualified)
	timers              map[string][]TimerClass
	timerMethods        map[string]bool
	list                AdditionsList
	key                 string
	loadSpellings       []string
	clockSpellings      []string
}

// AdditionsList is the entries of Additions as given.
type AdditionsList struct {
	Launchers []Helper
	Preloads  []Helper
	Clocks    []string
	Timers    []TimerClass
}

// Helper is a function, or a function-like macro, that launches (or, for a
// preload, loads without launching) the kernel given as one of its
// arguments: `launch_on(stream, my_kernel, n, args...)`, or a portability
// layer's `for_each_cell(box, [=] __device__ (int i) {...})`.
type Helper struct {
	// Name is the name calls use: plain (launch_on) or qualified
	// (gpu::launch_on); a qualified name also matches calls written
	// without the namespace.
	Name string
	// Kernel is the index, from 0, of the argument that is the kernel: a
	// kernel symbol, a functor or a lambda. LastArgument means the last.
	Kernel int
}

// LastArgument is Helper.Kernel for a kernel passed last.
const LastArgument = -1

// TimerClass is a class whose objects read a clock.
type TimerClass struct {
	// Class is its name, plain or qualified, as for Helper.Name.
	Class string
	// Reads are the methods that read the clock (start, stop, elapsed).
	Reads []string
	// Constructor: declaring an object starts a measurement (RAII).
	// Destructor: its destruction at the end of the enclosing block
	// reads the clock (a scoped timer that reports when it goes).
	Constructor, Destructor bool
	// Namespace is the namespace a project's file defines the class in
	// ("a::b"; "" when global or not known from the text). The project
	// tells classes of one name apart by it; a configuration's timer has
	// none.
	Namespace string `json:",omitempty"`
	// Events: its reads record CUDA events (a timer of the GPU's time),
	// for the messages' name of the clock.
	Events bool `json:",omitempty"`
	// Members are the data members of other classes that the defining
	// file declares of this class (`Timer t_advec;` in a struct of user
	// data): a file that reaches one (`udata->t_advec.start()`) times
	// with it though it never spells the class. A project's classes only.
	Members []string `json:",omitempty"`
}

// NewAdditions returns the additions of the entries, or nil when there are
// none. Entries with an empty name are left out (the configuration reports
// them).
func NewAdditions(l AdditionsList) *Additions {
	if len(l.Launchers)+len(l.Preloads)+len(l.Clocks)+len(l.Timers) == 0 {
		return nil
	}
	a := &Additions{
		launchers: map[string][]Helper{}, preloads: map[string][]Helper{},
		clocks: map[string][]string{}, timers: map[string][]TimerClass{}, timerMethods: map[string]bool{},
		list: l,
	}
	var key strings.Builder
	load := map[string]bool{}
	clock := map[string]bool{}
	for _, set := range []struct {
		kind    string
		helpers []Helper
		into    map[string][]Helper
	}{{"launcher", l.Launchers, a.launchers}, {"preload", l.Preloads, a.preloads}} {
		for _, h := range set.helpers {
			plain := plainName(h.Name)
			if plain == "" {
				continue
			}
			set.into[plain] = append(set.into[plain], h)
			load[plain] = true
			key.WriteString(set.kind + " " + strconv.Quote(h.Name) + " " + strconv.Itoa(h.Kernel) + "\n")
		}
	}
	for _, c := range l.Clocks {
		plain := plainName(c)
		if plain == "" {
			continue
		}
		a.clocks[plain] = append(a.clocks[plain], c)
		clock[plain] = true
		key.WriteString("clock " + strconv.Quote(c) + "\n")
	}
	for _, t := range l.Timers {
		plain := plainName(t.Class)
		if plain == "" {
			continue
		}
		a.timers[plain] = append(a.timers[plain], t)
		clock[plain] = true
		key.WriteString("timer " + strconv.Quote(t.Class) + " " + strconv.FormatBool(t.Constructor) + " " + strconv.FormatBool(t.Destructor) + " " + strconv.FormatBool(t.Events))
		for _, m := range t.Reads {
			a.timerMethods[m] = true
			key.WriteString(" " + strconv.Quote(m))
		}
		key.WriteString("\n")
	}
	a.key = key.String()
	a.loadSpellings = slices.Sorted(maps.Keys(load))
	a.clockSpellings = slices.Sorted(maps.Keys(clock))
	return a
}

// plainName returns a name without its namespace or class qualifier and
// without spaces: gpu::launch_on gives launch_on.
func plainName(name string) string {
	name = strings.Join(strings.Fields(name), "")
	return name[strings.LastIndex(name, ":")+1:]
}

// matches reports whether a call or type written as spelled (its text
// without spaces and template arguments: "gpu::launch_on", "launch_on")
// names the entry: the same plain name, and where both are qualified, the
// same qualification as far as the shorter goes.
func matches(entry, spelled string) bool {
	entry = strings.TrimPrefix(strings.Join(strings.Fields(entry), ""), "::")
	spelled = strings.TrimPrefix(spelled, "::")
	if entry == spelled || !strings.Contains(spelled, "::") || !strings.Contains(entry, "::") {
		return plainName(entry) == plainName(spelled)
	}
	return strings.HasSuffix(entry, "::"+spelled) || strings.HasSuffix(spelled, "::"+entry)
}

// Spelling returns a callee's or type's text as matches wants it: without
// spaces, template arguments or a leading `::` (ns::f<T> gives ns::f).
func Spelling(text string) string {
	t := strings.Join(strings.Fields(text), "")
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	return strings.TrimPrefix(t, "::")
}

// Launcher returns the launch helper a call of the plain name, written as
// spelled (see Spelling), is.
func (a *Additions) Launcher(name, spelled string) (Helper, bool) {
	if a == nil {
		return Helper{}, false
	}
	return helperOf(a.launchers[name], spelled)
}

// Preload returns the preload helper a call is, as Launcher does.
func (a *Additions) Preload(name, spelled string) (Helper, bool) {
	if a == nil {
		return Helper{}, false
	}
	return helperOf(a.preloads[name], spelled)
}

func helperOf(hs []Helper, spelled string) (Helper, bool) {
	for _, h := range hs {
		if matches(h.Name, spelled) {
			return h, true
		}
	}
	return Helper{}, false
}

// ArgumentIndex returns the index of the kernel argument among n
// arguments, and whether there is one.
func (h Helper) ArgumentIndex(n int) (int, bool) {
	k := h.Kernel
	if k == LastArgument {
		k = n - 1
	}
	return k, k >= 0 && k < n
}

// IsClock reports whether a call of the plain name, written as spelled,
// reads a clock the configuration names.
func (a *Additions) IsClock(name, spelled string) bool {
	if a == nil {
		return false
	}
	for _, c := range a.clocks[name] {
		if matches(c, spelled) {
			return true
		}
	}
	return false
}

// Timer returns the timer class a type, written as spelled, is, or nil.
func (a *Additions) Timer(spelled string) *TimerClass {
	if a == nil {
		return nil
	}
	for i, t := range a.timers[plainName(spelled)] {
		if matches(t.Class, spelled) {
			return &a.timers[plainName(spelled)][i]
		}
	}
	return nil
}

// TimerOfMember returns the timer class of which a data member of the
// name is declared (TimerClass.Members), or nil (none, or several).
func (a *Additions) TimerOfMember(member string) *TimerClass {
	if a == nil {
		return nil
	}
	var found *TimerClass
	for _, ts := range a.timers {
		for i := range ts {
			if slices.Contains(ts[i].Members, member) {
				if found != nil && found.Class != ts[i].Class {
					return nil
				}
				found = &ts[i]
			}
		}
	}
	return found
}

// IsTimerMethod reports whether some timer class the configuration names
// reads its clock in a method of the name (a cheap test before the
// object's type is looked up).
func (a *Additions) IsTimerMethod(name string) bool { return a != nil && a.timerMethods[name] }

// HasTimers reports whether the configuration names timer classes.
func (a *Additions) HasTimers() bool { return a != nil && len(a.timers) > 0 }

// LoadSpellings are the plain names of the launch and preload helpers:
// every file that calls one spells one (the prefilters' literals).
func (a *Additions) LoadSpellings() []string {
	if a == nil {
		return nil
	}
	return a.loadSpellings
}

// ClockSpellings are the plain names of the clocks and timer classes.
func (a *Additions) ClockSpellings() []string {
	if a == nil {
		return nil
	}
	return a.clockSpellings
}

// Key is the additions as text, the same for the same entries in the same
// order: what cache keys hash ("" for none).
func (a *Additions) Key() string {
	if a == nil {
		return ""
	}
	return a.key
}

// List returns the entries as given (`lazylint config` shows them).
func (a *Additions) List() AdditionsList {
	if a == nil {
		return AdditionsList{}
	}
	return a.list
}

// WithTimers returns the additions with more timer classes after the
// configured ones (a project's own timer classes, found in its files: a
// configured entry of the same class comes first and wins). a itself when
// there are none.
func (a *Additions) WithTimers(more []TimerClass) *Additions {
	if len(more) == 0 {
		return a
	}
	l := a.List()
	l.Timers = append(slices.Clip(l.Timers), more...)
	return NewAdditions(l)
}

// WithLaunchers returns a's entries and the launchers more (a project's
// launch macros, for the summaries read from the text); a itself when
// there are none.
func (a *Additions) WithLaunchers(more []Helper) *Additions {
	if len(more) == 0 {
		return a
	}
	l := a.List()
	l.Launchers = append(slices.Clip(l.Launchers), more...)
	return NewAdditions(l)
}

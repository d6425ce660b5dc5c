package config

import (
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/lazylint/lazylint/knowledge"
)

// A team's own launch and preload helpers, clocks and timer classes: they
// extend the built-in tables (knowledge.Additions) for every file.
//
//	launchers:                         # functions or macros that launch a kernel given as an argument
//	  - {name: launch_on, kernel: 1}   # launch_on(stream, my_kernel, ...): argument 1, from 0
//	  - {name: gpu::for_each_cell, kernel: last}  # the functor or lambda passed last
//	  - run_kernel                     # a name alone: the kernel is argument 0
//	preloads:                          # functions that load the kernel given as an argument, without launching it
//	  - {name: warm_kernel, kernel: 0}
//	clocks: [what_time_is_it_now]      # functions that return a timestamp
//	timers:                            # classes whose objects read a clock
//	  - class: perf::ScopedTimer
//	    reads: [lap, stop]             # methods that read it
//	    constructor: true              # declaring one starts a measurement
//	    destructor: true               # leaving its block ends one
//
// A file that extends another adds to its entries; an entry of the same
// name replaces the extended file's.

// additionKeys are the top-level keys of the additions.
var additionKeys = []string{"launchers", "preloads", "clocks", "timers"}

// cppName matches a C or C++ name, qualified or not.
var cppName = regexp.MustCompile(`^(::)?[A-Za-z_]\w*(::[A-Za-z_]\w*)*$`)

// additions are the entries read so far, in order; a later file's entry
// replaces an earlier one of the same kind and name.
type additions struct {
	launchers, preloads []knowledge.Helper
	clocks              []string
	timers              []knowledge.TimerClass
}

// replace puts the entry named name at the index the function finds, or
// appends it.
func replace[T any](list []T, v T, same func(T) bool) []T {
	for i := range list {
		if same(list[i]) {
			list[i] = v
			return list
		}
	}
	return append(list, v)
}

// additions reads the file's launchers, preloads, clocks and timers.
func (l *loader) additions(path string, f map[string]*yaml.Node) {
	a := &l.adds
	for _, kind := range []string{"launchers", "preloads"} {
		n := f[kind]
		if n == nil {
			continue
		}
		for _, h := range l.helpers(path, kind, n) {
			if kind == "launchers" {
				a.launchers = replace(a.launchers, h, func(o knowledge.Helper) bool { return o.Name == h.Name })
			} else {
				a.preloads = replace(a.preloads, h, func(o knowledge.Helper) bool { return o.Name == h.Name })
			}
		}
	}
	if n := f["clocks"]; n != nil {
		seen := map[string]bool{}
		for _, s := range l.listOf(path, "clocks", n) {
			name := l.name(path, "clocks", s, seen)
			if name == "" {
				continue
			}
			a.clocks = replace(a.clocks, name, func(o string) bool { return o == name })
			l.cfg.where["clocks/"+name] = at(path, s)
		}
	}
	if n := f["timers"]; n != nil {
		seen := map[string]bool{}
		for _, item := range l.listOf(path, "timers", n) {
			if t, ok := l.timer(path, item, seen); ok {
				a.timers = replace(a.timers, t, func(o knowledge.TimerClass) bool { return o.Class == t.Class })
			}
		}
	}
}

// listOf returns the items of a list (a single item counts as a list of
// one).
func (l *loader) listOf(path, key string, n *yaml.Node) []*yaml.Node {
	switch n.Kind {
	case yaml.SequenceNode:
		return n.Content
	case yaml.ScalarNode, yaml.MappingNode:
		return []*yaml.Node{n}
	}
	l.errorf(path, n, "%s wants a list", key)
	return nil
}

// name returns a scalar that names a function or class, or "" after
// reporting what is wrong with it.
func (l *loader) name(path, key string, s *yaml.Node, seen map[string]bool) string {
	if s.Kind != yaml.ScalarNode || s.Tag == "!!null" {
		l.errorf(path, s, "%s: want a name", key)
		return ""
	}
	name := strings.TrimPrefix(strings.TrimSpace(s.Value), "::")
	if !cppName.MatchString(name) {
		l.errorf(path, s, "%s: %q is not a C++ name (a function, macro or class, qualified or not: gpu::launch_on)", key, s.Value)
		return ""
	}
	if seen[name] {
		l.errorf(path, s, "%s: %s is named twice", key, name)
		return ""
	}
	seen[name] = true
	return name
}

// helpers reads a list of launch or preload helpers: each a name (the
// kernel is argument 0) or {name, kernel}.
func (l *loader) helpers(path, key string, n *yaml.Node) []knowledge.Helper {
	var out []knowledge.Helper
	seen := map[string]bool{}
	for _, item := range l.listOf(path, key, n) {
		nameNode, kernelNode := item, (*yaml.Node)(nil)
		if item.Kind == yaml.MappingNode {
			before := len(l.errs)
			fields := l.fieldsOf(path, item, []string{"name", "kernel"})
			if nameNode = fields["name"]; nameNode == nil {
				// After an unknown key (nme: for name:) its error says it all.
				if len(l.errs) == before {
					l.errorf(path, item, "%s: an entry needs name: the function or macro called", key)
				}
				continue
			}
			kernelNode = fields["kernel"]
		}
		name := l.name(path, key, nameNode, seen)
		if name == "" {
			continue
		}
		h := knowledge.Helper{Name: name}
		if kernelNode != nil {
			k, ok := kernelIndex(kernelNode)
			if !ok {
				l.errorf(path, kernelNode, "%s: kernel of %s wants the index of its kernel argument, from 0, or last; not %q", key, name, kernelNode.Value)
				continue
			}
			h.Kernel = k
		}
		out = append(out, h)
		l.cfg.where[key+"/"+name] = at(path, item)
	}
	return out
}

// maxKernelIndex bounds a kernel argument's index (a slip such as 10000
// is no call's).
const maxKernelIndex = 64

func kernelIndex(n *yaml.Node) (int, bool) {
	if n.Kind != yaml.ScalarNode {
		return 0, false
	}
	if strings.EqualFold(n.Value, "last") {
		return knowledge.LastArgument, true
	}
	k, err := strconv.Atoi(n.Value)
	return k, err == nil && k >= 0 && k <= maxKernelIndex
}

// timerKeys are the settings of a timer class.
var timerKeys = []string{"class", "reads", "constructor", "destructor"}

// timer reads one timer class.
func (l *loader) timer(path string, item *yaml.Node, seen map[string]bool) (knowledge.TimerClass, bool) {
	if item.Kind != yaml.MappingNode {
		l.errorf(path, item, "timers: an entry wants a mapping, e.g. {class: ScopedTimer, reads: [stop], constructor: true}")
		return knowledge.TimerClass{}, false
	}
	fields := l.fieldsOf(path, item, timerKeys)
	if fields["class"] == nil {
		l.errorf(path, item, "timers: an entry needs class: the timer's class")
		return knowledge.TimerClass{}, false
	}
	t := knowledge.TimerClass{Class: l.name(path, "timers", fields["class"], seen)}
	if t.Class == "" {
		return t, false
	}
	if n := fields["reads"]; n != nil {
		methods := map[string]bool{}
		for _, s := range l.strings(path, n) {
			if m := strings.TrimSpace(s.Value); cppName.MatchString(m) && !strings.Contains(m, ":") && !methods[m] {
				methods[m] = true
				t.Reads = append(t.Reads, m)
			} else if !methods[m] {
				l.errorf(path, s, "timers: %q is not a method name (start, stop, elapsed)", s.Value)
			}
		}
	}
	for _, key := range []string{"constructor", "destructor"} {
		n := fields[key]
		if n == nil {
			continue
		}
		var b bool
		if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
			l.errorf(path, n, "timers: %s of %s wants true or false", key, t.Class)
			return t, false
		}
		if key == "constructor" {
			t.Constructor = b
		} else {
			t.Destructor = b
		}
	}
	if len(t.Reads) == 0 && !t.Constructor && !t.Destructor {
		l.errorf(path, item, "timers: %s reads no clock: give reads (its methods that do), constructor: true or destructor: true", t.Class)
		return t, false
	}
	l.cfg.where["timers/"+t.Class] = at(path, item)
	return t, true
}

// EffectiveHelper is a launch or preload helper as `lazylint config`
// shows it: kernel is the argument's index (an int) or "last".
type EffectiveHelper struct {
	Name   string `yaml:"name"`
	Kernel any    `yaml:"kernel"`
}

// EffectiveTimer is a timer class as `lazylint config` shows it.
type EffectiveTimer struct {
	Class       string   `yaml:"class"`
	Reads       []string `yaml:"reads,flow,omitempty"`
	Constructor bool     `yaml:"constructor"`
	Destructor  bool     `yaml:"destructor"`
}

// effectiveAdditions fills e's launchers, preloads, clocks and timers.
func (c *Config) effectiveAdditions(e *Effective) {
	e.Launchers, e.Preloads, e.Clocks, e.Timers = []EffectiveHelper{}, []EffectiveHelper{}, []string{}, []EffectiveTimer{}
	if c == nil {
		return
	}
	l := c.Additions.List()
	show := func(hs []knowledge.Helper) []EffectiveHelper {
		out := []EffectiveHelper{}
		for _, h := range hs {
			var k any = h.Kernel
			if h.Kernel == knowledge.LastArgument {
				k = "last"
			}
			out = append(out, EffectiveHelper{Name: h.Name, Kernel: k})
		}
		return out
	}
	e.Launchers, e.Preloads = show(l.Launchers), show(l.Preloads)
	e.Clocks = append(e.Clocks, l.Clocks...)
	for _, t := range l.Timers {
		e.Timers = append(e.Timers, EffectiveTimer{Class: t.Class, Reads: t.Reads, Constructor: t.Constructor, Destructor: t.Destructor})
	}
}

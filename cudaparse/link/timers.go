package link

import (
	"maps"
	"slices"
	"sort"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// projectTimer is the project's timer classes of one name: each
// namespace's (knowledge.TimerClass.Namespace) and the files defining any.
type projectTimer struct {
	byNamespace map[string]*knowledge.TimerClass
	files       []string
	// namespaces are byNamespace's keys, sorted; reads the reading
	// methods of any of them (indexTimers).
	namespaces, reads []string
}

// addTimers gathers the timer classes of a file's summary. A class that
// several files define (under one name, in one namespace) reads in each of
// their reading methods, starts when constructed if one of them does, and
// reads when destroyed (a scope timer) if one of them does.
func (p *Project) addTimers(fsum *cudaparse.FileSummary) {
	for _, t := range fsum.Timers {
		if p.timers == nil {
			p.timers = map[string]*projectTimer{}
		}
		pt := p.timers[t.Class]
		if pt == nil {
			pt = &projectTimer{byNamespace: map[string]*knowledge.TimerClass{}}
			p.timers[t.Class] = pt
		}
		pt.files = append(pt.files, fsum.Path)
		c := pt.byNamespace[t.Namespace]
		if c == nil {
			c = &knowledge.TimerClass{Class: t.Class, Namespace: t.Namespace}
			pt.byNamespace[t.Namespace] = c
		}
		merge(c, &t)
	}
}

// merge adds what t says of a class to c.
func merge(c *knowledge.TimerClass, t *knowledge.TimerClass) {
	c.Constructor = c.Constructor || t.Constructor
	c.Destructor = c.Destructor || t.Destructor
	c.Events = c.Events || t.Events
	for _, m := range t.Reads {
		if !slices.Contains(c.Reads, m) {
			c.Reads = append(c.Reads, m)
		}
	}
	sort.Strings(c.Reads)
	for _, m := range t.Members {
		if !slices.Contains(c.Members, m) {
			c.Members = append(c.Members, m)
		}
	}
	sort.Strings(c.Members)
}

// TimerClassNames returns the names of the project's timer classes,
// sorted (the project's own slice: not to be changed).
func (p *Project) TimerClassNames() []string {
	if p == nil {
		return nil
	}
	return p.timerNames
}

// indexTimers sorts the timer classes' names once the files are added.
func (p *Project) indexTimers() {
	p.timerNames = make([]string, 0, len(p.timers))
	for name := range p.timers {
		p.timerNames = append(p.timerNames, name)
	}
	sort.Strings(p.timerNames)
	p.timerLits = make([][]byte, len(p.timerNames))
	p.timerMembers = map[string][]string{}
	for i, name := range p.timerNames {
		p.timerLits[i] = []byte(name)
		for _, c := range p.timers[name].byNamespace {
			for _, m := range c.Members {
				if !slices.Contains(p.timerMembers[m], name) {
					p.timerMembers[m] = append(p.timerMembers[m], name)
				}
			}
		}
	}
	p.memberNames = slices.Sorted(maps.Keys(p.timerMembers))
	p.nameLits = slices.Clone(p.timerLits)
	for _, m := range p.memberNames {
		sort.Strings(p.timerMembers[m])
		if p.timers[m] == nil {
			p.nameLits = append(p.nameLits, []byte(m))
		}
	}
	for _, pt := range p.timers {
		pt.namespaces = slices.Sorted(maps.Keys(pt.byNamespace))
		pt.reads = nil
		for _, ns := range pt.namespaces {
			for _, m := range pt.byNamespace[ns].Reads {
				if !slices.Contains(pt.reads, m) {
					pt.reads = append(pt.reads, m)
				}
			}
		}
	}
}

// TimerMemberNames returns the names of the data members that the files
// defining the project's timer classes declare of them, sorted (the
// project's own slice: not to be changed).
func (p *Project) TimerMemberNames() []string {
	if p == nil {
		return nil
	}
	return p.memberNames
}

// DeclaredTimers returns the timer classes of other files of the project
// that src (the file at path) declares objects of (`Timer tim;`,
// `mfem::StopWatch sw;`, `Timer t(true);`): checked with them as the
// configuration's timers, the file times with them. A class the file
// defines itself is its own (the file's check knows it already). Of the
// classes of one name in several namespaces, those the file shows it
// names (cudaparse.SeesNamespace: qualified, through `using namespace`,
// from inside the namespace, or global) count; when it shows none of
// them, all do, as the text cannot tell which one it names.
func (p *Project) DeclaredTimers(path string, src []byte) []knowledge.TimerClass {
	if p == nil || len(p.timers) == 0 {
		return nil
	}
	var out []knowledge.TimerClass
	// The class and member names the file spells, in one pass.
	var members []string
	for _, lit := range cudaparse.SpelledIn(src, p.nameLits) {
		name := string(lit)
		if _, ok := p.timerMembers[name]; ok {
			members = append(members, name)
		}
		pt := p.timers[name]
		if pt == nil || slices.Contains(pt.files, path) {
			continue
		}
		if !cudaparse.DeclaresTimerObject(src, name, pt.namespaces, pt.reads) {
			continue
		}
		out = append(out, pt.seenFrom(src, name))
	}
	// Members of user data declared of a timer class in its header
	// (`udata->t_advec.start()`), in a file that never spells the class.
	for _, member := range members {
		for _, name := range p.timerMembers[member] {
			pt := p.timers[name]
			if slices.Contains(pt.files, path) || slices.ContainsFunc(out, func(c knowledge.TimerClass) bool { return c.Class == name }) {
				continue
			}
			if c := pt.seenFrom(src, name); cudaparse.ReadsTimerMember(src, member, c.Reads) {
				out = append(out, c)
			}
		}
	}
	return out
}

// seenFrom merges the classes of pt that src names (see DeclaredTimers),
// in the order of their namespaces.
func (pt *projectTimer) seenFrom(src []byte, name string) knowledge.TimerClass {
	namespaces := make([]string, 0, len(pt.byNamespace))
	for ns := range pt.byNamespace {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	if len(namespaces) > 1 {
		var seen []string
		for _, ns := range namespaces {
			if cudaparse.SeesNamespace(src, ns, name) {
				seen = append(seen, ns)
			}
		}
		if len(seen) > 0 {
			namespaces = seen
		}
	}
	out := knowledge.TimerClass{Class: name}
	for _, ns := range namespaces {
		merge(&out, pt.byNamespace[ns])
	}
	return out
}

package link

import (
	"slices"
	"sort"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// projectTimer is a timer class of the project and the files defining it.
type projectTimer struct {
	class knowledge.TimerClass
	files []string
}

// addTimers gathers the timer classes of a file's summary. A class that
// several files define (under one name) reads in each of their reading
// methods, and starts when constructed if one of them does.
func (p *Project) addTimers(fsum *cudaparse.FileSummary) {
	for _, t := range fsum.Timers {
		if p.timers == nil {
			p.timers = map[string]*projectTimer{}
		}
		pt := p.timers[t.Class]
		if pt == nil {
			pt = &projectTimer{class: knowledge.TimerClass{Class: t.Class}}
			p.timers[t.Class] = pt
		}
		pt.files = append(pt.files, fsum.Path)
		pt.class.Constructor = pt.class.Constructor || t.Constructor
		for _, m := range t.Reads {
			if !slices.Contains(pt.class.Reads, m) {
				pt.class.Reads = append(pt.class.Reads, m)
			}
		}
		sort.Strings(pt.class.Reads)
	}
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
	for i, name := range p.timerNames {
		p.timerLits[i] = []byte(name)
	}
}

// DeclaredTimers returns the timer classes of other files of the project
// that src (the file at path) declares objects of (`Timer tim;`,
// `mfem::StopWatch sw;`, `Timer t(true);`): checked with them as the
// configuration's timers, the file times with them. A class the file
// defines itself is its own (the file's check knows it already).
func (p *Project) DeclaredTimers(path string, src []byte) []knowledge.TimerClass {
	if p == nil || len(p.timers) == 0 {
		return nil
	}
	var out []knowledge.TimerClass
	// The names the file spells, in one pass (in the order of the names).
	for _, lit := range cudaparse.SpelledIn(src, p.timerLits) {
		name := string(lit)
		pt := p.timers[name]
		if slices.Contains(pt.files, path) || !cudaparse.DeclaresTimerObject(src, name, pt.class.Reads) {
			continue
		}
		c := pt.class
		c.Reads = append([]string(nil), c.Reads...)
		out = append(out, c)
	}
	return out
}

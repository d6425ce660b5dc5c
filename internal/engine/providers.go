package engine

import (
	"fmt"
	"io"
	"sort"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
)

// A provider is what the project step does for one kind of project fact
// (rule.Fact): what more the link summarizes for it (linkAlso) and adds
// once the files checked again are linked (extend), which files the fact
// may give another result (affects), what of it a file's result rests on
// (digest), what a file's check again is given of it (give), and what it
// prepares for the files chosen (prepare). The link, select and recheck
// phases run the providers in order and name none of them; a new kind of
// fact is a new entry here (and its rule.Fact).
//
// What the providers share stays in the link: one summary per file
// (cudaparse.FileSummary) holds what the loaders, clocks and callers ask,
// the demand-driven search for definers serves them all, and one linked
// project (link.Project) answers them.
type provider struct {
	fact *rule.Fact
	// affects reports whether file i may get other findings with the
	// fact. It is asked only when the fact is every rule's or a finding
	// of the file comes from a rule that requires it.
	affects func(pr *projectRun, p *link.Project, i int) bool
	// digest writes what of the fact file i's result rests on (nil:
	// nothing beyond the project's other facts).
	digest func(pr *projectRun, p *link.Project, i int, h io.Writer)
	// give fills what the check of file i (its text in text) is given.
	give func(pr *projectRun, p *link.Project, i int, text *rule.Text, in *projectInput)
	// pass, when set, is what a pass of a rule that requires the fact
	// reads of it (rule.Pass.Fact) from the linked project.
	pass func(p *link.Project) any
	// prepare runs once the files to check again are chosen (indices),
	// before they are checked.
	prepare func(pr *projectRun, indices []int, results sourceResults)
	// linkAlso lists more files the link summarizes when a finding of
	// the first check comes from a rule that requires the fact.
	linkAlso func(pr *projectRun) []int
	// extend adds to the project, once the files checked again are
	// linked, what the fact needs beyond them, and reports whether it
	// summarized a file.
	extend func(pr *projectRun, results sourceResults) bool
}

// providers run in this order: the cheaper questions of affects first
// (needsRecheck stops at the first yes).
var providers = []provider{
	{
		fact: rule.Loaders,
		// A function that measures calls a loader of another file.
		affects: func(pr *projectRun, p *link.Project, i int) bool { return pr.timedCallsLoader(p, i) },
		digest: func(pr *projectRun, p *link.Project, i int, h io.Writer) {
			eachCallee(pr, p, i, func(name string, pf *link.ProjectFunction) {
				fmt.Fprintf(h, "%s %s:%d %v\n", name, pf.File(), pf.Summary().Line, *p.Kernels(pf))
			})
		},
		give: func(pr *projectRun, p *link.Project, i int, text *rule.Text, _ *projectInput) {
			text.Give(rule.Loaders, pr.callsLoaderElsewhere(p, i))
		},
		pass: func(p *link.Project) any { return p },
	},
	{
		fact: rule.CallerLoads,
		// The callers of the functions that hold findings, in any file.
		extend: (*projectRun).findCallers,
		// A finding sits in a function whose callers may load first.
		affects: func(pr *projectRun, p *link.Project, i int) bool { return pr.hasLoadingCallers(p, i) },
		pass:    func(p *link.Project) any { return p },
		digest: func(pr *projectRun, p *link.Project, i int, h io.Writer) {
			if sum := pr.facts[i].summary(); sum != nil {
				for _, fn := range sum.EachFunction() {
					if pf := p.Function(sum.Path, fn.Name, int(fn.Line)); pf != nil {
						fmt.Fprintf(h, "entry %s:%d %v\n", fn.Name, fn.Line, *p.LoadedOnEntry(pf))
					}
				}
			}
		},
	},
	{
		fact:    rule.HeaderMacros,
		affects: func(pr *projectRun, _ *link.Project, i int) bool { return pr.callsHeaderMacro(i) },
		digest: func(pr *projectRun, _ *link.Project, i int, h io.Writer) {
			macros := pr.visibleMacros(i)
			names := make([]string, 0, len(macros))
			for name := range macros {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				fmt.Fprintf(h, "macro %v\n", macros[name])
			}
		},
		give: func(pr *projectRun, _ *link.Project, i int, text *rule.Text, in *projectInput) {
			in.facts.Macros = spelledMacros(pr.visibleMacros(i), text)
		},
	},
	{
		fact: rule.ProjectPreloads,
		// The files that may preload the project's kernel table.
		linkAlso: func(pr *projectRun) []int {
			var out []int
			for i := range pr.facts {
				if pr.facts[i].is(factPreloader) {
					out = append(out, i)
				}
			}
			return out
		},
		affects: func(pr *projectRun, p *link.Project, i int) bool {
			return p.PreloadsEveryKernel(pr.sources.shown(i))
		},
		digest: func(pr *projectRun, p *link.Project, i int, h io.Writer) {
			fmt.Fprintf(h, "preloads every kernel %v\n", p.PreloadsEveryKernel(pr.sources.shown(i)))
		},
		pass: func(p *link.Project) any { return p },
	},
	{
		fact: rule.UnitDevice,
		// Whether the other files of its units release its waits is
		// known only once they are parsed (prepare).
		affects: func(*projectRun, *link.Project, int) bool { return true },
		digest: func(pr *projectRun, _ *link.Project, i int, h io.Writer) {
			for _, d := range pr.unitDevice[i] {
				fmt.Fprintf(h, "device %s %v %v %v\n", d.Name, d.Kernel, d.Calls, d.Releases)
			}
		},
		give: func(pr *projectRun, _ *link.Project, i int, _ *rule.Text, in *projectInput) {
			in.facts.UnitDevice = pr.unitDevice[i]
		},
		prepare: (*projectRun).prepareUnits,
	},
	{
		fact: rule.Clocks,
		// Another file's clock or timer class first: the cheaper
		// question, and most files have none.
		affects: func(pr *projectRun, p *link.Project, i int) bool {
			names := pr.calledNames(i)
			return (len(p.ClockFunctions(names, pr.sources.shown(i))) > 0 || pr.handsCodeTo(p.TimingHelpers(names, pr.sources.shown(i)), i) || len(pr.declaredTimers(p, i, nil)) > 0) && pr.mayTimeLoads(p, i)
		},
		digest: func(pr *projectRun, p *link.Project, i int, h io.Writer) {
			eachCallee(pr, p, i, func(name string, pf *link.ProjectFunction) {
				fn := pf.Summary()
				fmt.Fprintf(h, "clock %s %s:%d %v %d %d\n", name, pf.File(), fn.Line, fn.ReadsClock, fn.TimesParam, fn.TimesClock)
			})
		},
		give: func(pr *projectRun, p *link.Project, i int, text *rule.Text, in *projectInput) {
			names := pr.calledNames(i)
			in.facts.Clocks = p.ClockFunctions(names, pr.sources.shown(i))
			in.facts.TimingHelpers = p.TimingHelpers(names, pr.sources.shown(i))
			in.timers = pr.declaredTimers(p, i, text.Src)
			// A clock macro of a header counts as a clock for the
			// prefilters (HeaderMacros gave in.facts.Macros before), as
			// does a timing helper the file hands code to.
			text.Give(rule.Clocks, len(in.facts.Clocks) > 0 || len(in.facts.TimingHelpers) > 0 || cudaparse.SpellsClockMacro(in.facts.Macros))
		},
	},
}

// given returns what the passes of a file's rules are given of the
// project's facts: each provider's value (nil: the file checked alone).
func given(p *link.Project) rule.Given {
	if p == nil {
		return nil
	}
	g := rule.Given{}
	for k := range providers {
		if pv := &providers[k]; pv.pass != nil {
			g[pv.fact] = pv.pass(p)
		}
	}
	return g
}

// eachCallee calls visit with each definition a call of file i may reach,
// by the names it calls.
func eachCallee(pr *projectRun, p *link.Project, i int, visit func(name string, pf *link.ProjectFunction)) {
	for _, name := range pr.calledNames(i) {
		for _, pf := range p.Reachable(name, pr.sources.shown(i)) {
			visit(name, pf)
		}
	}
}

// linkAlso gathers the files the providers ask the link to summarize too,
// each provider's only when a finding of results requires its fact.
func linkAlso(pr *projectRun, results sourceResults) []int {
	var out []int
	for k := range providers {
		pv := &providers[k]
		if pv.linkAlso == nil {
			continue
		}
		for i := range results.len() {
			if requiresFact(results.findings(i), pv.fact) {
				out = append(out, pv.linkAlso(pr)...)
				break
			}
		}
	}
	return out
}

// extend runs the providers' extend steps (all of them: each looks at the
// findings of its own rules), and reports whether one summarized a file.
func extend(pr *projectRun, results sourceResults) bool {
	added := false
	for k := range providers {
		if pv := &providers[k]; pv.extend != nil && pv.extend(pr, results) {
			added = true
		}
	}
	return added
}

// requiresFact reports whether one of the findings comes from a rule that
// requires facts of kind k.
func requiresFact(fs []Finding, k *rule.Fact) bool {
	for _, f := range fs {
		if f.Rule.RequiresFact(k) {
			return true
		}
	}
	return false
}

// asks reports whether provider pv is asked about a file with these
// findings: always for a fact every rule sees.
func (pv *provider) asks(fs []Finding) bool {
	return pv.fact.EveryRule || requiresFact(fs, pv.fact)
}

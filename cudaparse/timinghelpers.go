package cudaparse

import (
	"bytes"
	"slices"
)

// Timing helpers: a function that runs the code it is handed between two
// clock reads (`float timeGpu(F &&f) { record(start); f(); record(stop);
// ... }`) times the first launches of a lambda passed to it. Its file
// knows it by its parse (TimedParam); the project knows it by the summary
// (FunctionSummary.TimesParam), and gives it to the files that call it
// (ProjectFacts.TimingHelpers), which may see nothing of its clock.

// TimingHelper is a function of another file that times one of its
// parameters: the parameter's index and the clock it reads.
type TimingHelper struct {
	Param int
	Clock ClockKind
	// Kernel: the parameter is a kernel the helper launches; otherwise
	// code it calls (a lambda).
	Kernel bool
}

// TimedParam returns the parameter fn runs inside one of its timed
// regions (calls it, or launches it: a kernel passed in), and that region,
// when fn does not also run it before the timer starts (a warm-up inside
// the helper).
func (f *File) TimedParam(fn *Function) (param int, region TimedRegion, ok bool) {
	if fn.Space&SpaceHost == 0 || len(fn.Params) == 0 {
		return 0, TimedRegion{}, false
	}
	// A helper runs a parameter: most functions run none, and their timed
	// regions (the costlier question) are not needed.
	runs := f.parameterRuns(fn)
	if len(runs) == 0 {
		return 0, TimedRegion{}, false
	}
	regions := f.TimedRegions(fn)
	if len(regions) == 0 {
		return 0, TimedRegion{}, false
	}
	for _, prm := range fn.Params {
		if timed, ok := timedRun(runs[prm.Index], regions); ok {
			return prm.Index, timed, true
		}
	}
	return 0, TimedRegion{}, false
}

// timedRun returns the region of regions that runs, the places a helper
// runs a parameter, in source order, lie in, when no run comes before the
// timer starts (a warm-up inside the helper).
func timedRun(runs []Node, regions []TimedRegion) (TimedRegion, bool) {
	var timed *TimedRegion
	for _, at := range runs {
		for i := range regions {
			if regions[i].Contains(at) && timed == nil {
				timed = &regions[i]
			}
		}
		if timed == nil || at.End() <= timed.From {
			return TimedRegion{}, false // run once before the timer: a warm-up
		}
	}
	if timed == nil {
		return TimedRegion{}, false
	}
	return *timed, true
}

// TimedLambdaParam is TimedParam for a lambda that fn binds to a name
// (`auto time_it = [&](auto &&f) { auto t0 = now(); f(); ...; return
// now() - t0; };`): the lambda's parameter that it calls inside one of
// fn's timed regions lying in its body, and that region, when the lambda
// does not also call it before the timer starts.
func (f *File) TimedLambdaParam(fn *Function, lambda Node) (param int, region TimedRegion, ok bool) {
	body := lambda.ChildByField("body")
	if !lambda.Is("lambda_expression") || !body.Valid() {
		return 0, TimedRegion{}, false
	}
	var inside []TimedRegion
	for _, r := range f.TimedRegions(fn) {
		if body.Contains(r.Start) && body.Contains(r.Stop) {
			inside = append(inside, r)
		}
	}
	if len(inside) == 0 {
		return 0, TimedRegion{}, false
	}
	params := lambda.ChildByField("declarator").ChildByField("parameters").NamedChildren()
	for k, prm := range params {
		name := declaredName(prm.ChildByField("declarator"))
		if name == "" {
			continue
		}
		var runs []Node
		for _, c := range f.CallsIn(fn) {
			if body.Contains(c.Node) && callsParameter(c, name) {
				runs = append(runs, c.Node)
			}
		}
		if timed, ok := timedRun(runs, inside); ok {
			return k, timed, true
		}
	}
	return 0, TimedRegion{}, false
}

// parameterRuns returns where fn runs each of its parameters it runs, by
// index: calls of it, and launches of it (a kernel handed in).
func (f *File) parameterRuns(fn *Function) map[int][]Node {
	runs := map[int][]Node{}
	for _, c := range f.CallsIn(fn) {
		for _, p := range fn.Params {
			if callsParameter(c, p.Name) {
				runs[p.Index] = append(runs[p.Index], c.Node)
			}
		}
	}
	for _, l := range f.LaunchesIn(fn) {
		if i, ok := f.KernelParam(fn, l); ok {
			runs[i] = append(runs[i], l.Node)
		}
	}
	return runs
}

// launchesParam reports whether fn launches its parameter param (a kernel
// handed in).
func (f *File) launchesParam(fn *Function, param int) bool {
	for _, l := range f.LaunchesIn(fn) {
		if i, ok := f.KernelParam(fn, l); ok && i == param {
			return true
		}
	}
	return false
}

// callsParameter reports whether c runs the parameter name: name(),
// std::invoke(name, ...), std::forward<F>(name)().
func callsParameter(c *Call, name string) bool {
	callee := c.Callee.Unparen()
	if callee.Is("identifier") && callee.Text() == name {
		return true
	}
	if callee.Is("call_expression") { // std::forward<F>(f)()
		if args := callee.ChildByField("arguments").NamedChildren(); len(args) == 1 && args[0].Unparen().Text() == name {
			return true
		}
	}
	if c.Name == "invoke" && len(c.Args) > 0 && c.Args[0].Unparen().Text() == name {
		return true
	}
	return false
}

// lexicalTimedParam is TimedParam from the text: the 1-based index of the
// parameter (params, as lexicalParams reads the definition's list)
// that body runs between its first and last clock read (reads, their
// offsets in body, sorted) and not before the first; 0 for none.
func lexicalTimedParam(params []lexicalParam, body []byte, reads []int) int {
	if len(reads) < 2 {
		return 0
	}
	first, last := reads[0], reads[len(reads)-1]
	for k, p := range params {
		name := p.name
		if name == "" {
			continue
		}
		inside, before := false, false
		eachWord(body, []byte(name), func(at, end int) bool {
			if !runsParameterAt(body, at, end) {
				return true
			}
			switch {
			case at < first:
				before = true
			case at < last:
				inside = true
			}
			return true
		})
		if inside && !before {
			return k + 1
		}
	}
	return 0
}

// runsParameterAt reports whether the name at body[at:end] is run there:
// called (`f()`, `std::forward<F>(f)()`) or invoked (`std::invoke(f`).
func runsParameterAt(body []byte, at, end int) bool {
	j := skipSpaces(body, end)
	if j < len(body) && body[j] == '(' {
		return true
	}
	if j+1 < len(body) && body[j] == ')' && body[skipSpaces(body, j+1)] == '(' {
		return true // std::forward<F>(f)()
	}
	i := skipBlanksBack(body, at)
	return i > 0 && body[i-1] == '(' && bytes.HasSuffix(body[:skipBlanksBack(body, i-1)], []byte("invoke"))
}

// TimingHelperDefinitions returns the names of the functions src defines
// that run a parameter between two clock reads (lexicalTimingHelper): CUDA
// event records, or the host clock literals given (those src spells).
// Without a parse, for the files the project step only scans.
func TimingHelperDefinitions(src []byte, clocks [][]byte) []string {
	var out []string
	eachDefinitionHead(src, func(name, head, body []byte) {
		if k, _ := lexicalTimingHelper(head, body, clocks); k > 0 && !slices.Contains(out, string(name)) {
			out = append(out, string(name))
		}
	})
	return out
}

// ProjectTimingHelpers are the functions of other files of the project
// that time a parameter (ProjectFacts.TimingHelpers), by name; the file's
// own are found by TimedParam.
func (f *File) ProjectTimingHelpers() map[string]TimingHelper { return f.timingHelpers }

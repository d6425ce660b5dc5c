// Package ll004 reports code that treats cuModuleLoad* as having put a
// module's kernels on the device: device memory or time measured around the
// load, or a preload function that only loads.
package ll004

import (
	_ "embed"
	"fmt"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

//go:embed doc.md
var doc string

// Rule is LL004.
var Rule = &rule.Rule{
	ID:       "LL004",
	Name:     "module-load-assumed-resident",
	Severity: rule.Warning,
	Since:    "0.1.0",
	Summary:  "memory or time measured around cuModuleLoad, which no longer loads the kernels",
	Doc:      doc,
	Triggers: []string{"cuModuleLoad", "cuLibraryLoad"},
	Run:      run,
}

// Measured on an H100 (CUDA 13.0): cuModuleLoadData of a 10 MB cubin with
// 301 kernels.
const (
	memoryEvidence = "H100, a 10 MB cubin with 301 kernels: 0 KB lazily, 10,240 KB eagerly"
	timeEvidence   = "H100, a 10 MB cubin with 301 kernels: 5.6 ms lazily, 14.6 ms eagerly"
)

// preloadIntent matches names of code meant to make kernels resident.
var preloadIntent = regexp.MustCompile(`(?i)pre_?load|warm_?up|resident|eager`)

func run(p *rule.Pass) {
	a := newAnalysis(p)
	if a.forcesEagerLoading() {
		return // the program measures what it means to measure
	}
	for _, fn := range a.file.Functions {
		if !a.isHostCode(fn) {
			continue
		}
		for _, scope := range a.scopesOf(fn) {
			a.checkMeasurements(scope, fn, nil)
		}
	}
	a.checkTimedCallbacks()
	a.checkPreloads()
}

// checkMeasurements reports loads inside the memory and time measurements
// of one scope (a function body or a lambda body). env binds parameters of
// the function to code that a caller passes (a lambda a timing helper runs).
func (a *analysis) checkMeasurements(scope cudaparse.Node, fn *cudaparse.Function, env map[string]effect) {
	if a.queriesLoadingMode(fn) {
		return // code that asks which mode it runs in knows what it measures
	}
	for _, kind := range []measureKind{measureMemory, measureTime} {
		regions := a.regions(scope, fn, env, kind)
		for i, r := range regions {
			e := a.fold(a.itemsIn(scope, fn, r.from, r.to), fn, env, 0)
			if e.resolves || len(e.loads) == 0 || e.unknownWork || e.memoryWork || kind == measureTime && e.timeWork {
				continue
			}
			if a.measuredSeparately(scope, fn, env, r, regions[i+1:]) {
				continue // the resolution is measured on its own next
			}
			for _, l := range e.loads {
				a.reportMeasured(kind, l, r)
			}
		}
	}
}

// measuredSeparately reports whether the measurement that r's end starts
// resolves kernels: `t0; load; t1; get functions; t2` reports both parts.
func (a *analysis) measuredSeparately(scope cudaparse.Node, fn *cudaparse.Function, env map[string]effect, r region, later []region) bool {
	for _, next := range later {
		if next.start == r.stop && a.fold(a.itemsIn(scope, fn, next.from, next.to), fn, env, 0).resolves {
			return true
		}
	}
	return false
}

// checkTimedCallbacks follows code handed to a helper of the file that
// measures it: `time_ms([&] { cuModuleLoad(&m, path); })`.
func (a *analysis) checkTimedCallbacks() {
	for _, c := range a.file.Calls {
		if c.Func == nil || !a.isHostCode(c.Func) {
			continue
		}
		helper := a.helper(c.Name, c.Func)
		if helper == nil {
			continue
		}
		var env map[string]effect
		for _, prm := range helper.Params {
			code, ok := a.codeArgument(c.Arg(prm.Index), c.Func)
			if !ok || len(code.loads) == 0 || prm.Name == "" {
				continue
			}
			if env == nil {
				env = map[string]effect{}
			}
			env[prm.Name] = code.through(c.Node, helper.Name)
		}
		if env != nil {
			a.checkMeasurements(helper.Body, helper, env)
		}
	}
}

// codeArgument returns what an argument does when the callee runs it: a
// lambda, a lambda variable or a function of the file.
func (a *analysis) codeArgument(arg cudaparse.Node, in *cudaparse.Function) (effect, bool) {
	arg = arg.Unparen()
	switch {
	case arg.Is("lambda_expression"):
		return a.fold(a.itemsIn(arg.ChildByField("body"), in, -1, -1), in, nil, 1), true
	case arg.Is("identifier"):
		if lambda := a.file.LambdaVariable(in, arg); lambda.Valid() {
			return a.fold(a.itemsIn(lambda.ChildByField("body"), in, -1, -1), in, nil, 1), true
		}
		if h := a.helper(arg.Text(), in); h != nil {
			return a.summary(h, 1), true
		}
	}
	return effect{}, false
}

// checkPreloads reports functions and lambdas named for making kernels
// resident (preload, warm-up) that load a module and resolve no kernel
// after it.
func (a *analysis) checkPreloads() {
	for _, fn := range a.file.Functions {
		if !a.isHostCode(fn) || a.queriesLoadingMode(fn) {
			continue
		}
		if preloadIntent.MatchString(fn.Name) {
			a.reportPreload(fn.Name, a.fold(a.itemsIn(fn.Body, fn, -1, -1), fn, nil, 0))
		}
		for name, lambda := range a.file.LambdaVariables(fn) {
			if preloadIntent.MatchString(name) {
				a.reportPreload(name, a.fold(a.itemsIn(lambda.ChildByField("body"), fn, -1, -1), fn, nil, 0))
			}
		}
	}
}

func (a *analysis) reportPreload(name string, e effect) {
	if e.usesData {
		return // it loads the module for its variables, not its kernels
	}
	for _, l := range e.loads {
		if a.reportedAny(l.load) {
			continue
		}
		var related []rule.FindingOption
		if l.via.Valid() {
			related = append(related, rule.Related(l.via, fmt.Sprintf("%s loads the module through this call", name)))
		}
		a.report("preload", l, fmt.Sprintf("%s only loads the module with %s%s, though its name says it makes kernels resident: under lazy loading no kernel is on the device afterwards; call %s for every kernel here, or run with CUDA_MODULE_LOADING=EAGER",
			name, l.load.Name, throughText(l), resolveHint(l.load.Name)), related...)
	}
}

func (a *analysis) reportMeasured(kind measureKind, l loadSite, r region) {
	var msg string
	var related []rule.FindingOption
	switch kind {
	case measureMemory:
		msg = fmt.Sprintf("device memory is measured around %s%s as if the load put the module on the device, but under lazy loading it loads no kernel, so the difference reads about zero (%s); call %s for every kernel before the second query, or run with CUDA_MODULE_LOADING=EAGER",
			l.load.Name, throughText(l), memoryEvidence, resolveHint(l.load.Name))
		related = append(related, rule.Related(r.start, "free memory queried before the load"), rule.Related(r.stop, "and again after it"))
	case measureTime:
		msg = fmt.Sprintf("%s%s is timed as if it loaded the module, but under lazy loading its kernels load at their first use, outside this measurement, which times little more than reading the image (%s); call %s for every kernel inside the timed region, or run with CUDA_MODULE_LOADING=EAGER",
			l.load.Name, throughText(l), timeEvidence, resolveHint(l.load.Name))
		related = append(related, rule.Related(r.start, "the timer starts here"), rule.Related(r.stop, "and stops here"))
	}
	if l.via.Valid() {
		related = append(related, rule.Related(l.via, "the load runs in this call"))
	}
	a.report(string(kind), l, msg, related...)
}

func throughText(l loadSite) string {
	if l.viaName == "" {
		return ""
	}
	return " (through " + l.viaName + ")"
}

// resolveHint names the calls that load a kernel for a load's family.
func resolveHint(load string) string {
	if strings.HasPrefix(load, "cuLibrary") {
		return "cuLibraryGetKernel and cuKernelGetFunction"
	}
	return "cuModuleGetFunction or cuFuncLoad"
}

func (a *analysis) report(kind string, l loadSite, msg string, related ...rule.FindingOption) {
	key := reportKey{l.load.Node.Start(), kind}
	if a.reported[key] {
		return
	}
	a.reported[key] = true
	a.pass.Report(l.load.Callee, msg, related...)
}

func (a *analysis) reportedAny(load *cudaparse.Call) bool {
	return a.reported[reportKey{load.Node.Start(), string(measureMemory)}] || a.reported[reportKey{load.Node.Start(), string(measureTime)}]
}

type reportKey struct {
	at   int
	kind string
}

// envSetters set environment variables.
var envSetters = map[string]bool{
	"setenv": true, "putenv": true, "_putenv": true, "_putenv_s": true, "_wputenv": true, "_wputenv_s": true,
	"SetEnvironmentVariable": true, "SetEnvironmentVariableA": true, "SetEnvironmentVariableW": true,
}

// forcesEagerLoading reports whether the file sets CUDA_MODULE_LOADING to
// EAGER: then a load does put the kernels on the device. (Whether it is set
// early enough is LL007's business.)
func (a *analysis) forcesEagerLoading() bool {
	for _, c := range a.file.Calls {
		if !envSetters[c.Name] {
			continue
		}
		var args strings.Builder
		for _, arg := range c.Args {
			args.WriteString(arg.Text())
		}
		if s := args.String(); strings.Contains(s, "CUDA_MODULE_LOADING") && strings.Contains(s, "EAGER") {
			return true
		}
	}
	return false
}

// queriesLoadingMode reports whether fn asks the driver whether loading is
// lazy (cuModuleGetLoadingMode): such code measures knowingly.
func (a *analysis) queriesLoadingMode(fn *cudaparse.Function) bool {
	for _, c := range a.file.CallsIn(fn) {
		if c.Name == "cuModuleGetLoadingMode" {
			return true
		}
	}
	return false
}

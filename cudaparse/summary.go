package cudaparse

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/knowledge"
)

// What one file tells the rest of the project. A rule sees one parsed file;
// a kernel launched through a wrapper in another file, or warmed up by a
// caller in another file, is invisible to it. Each parsed file therefore
// exports a summary of its host functions (in the spirit of go/analysis
// facts): what each one does to kernels, in order, and which functions it
// calls on the way. Project links the summaries of all files; rules ask it
// about the functions their file does not define. A summary is built from
// the file alone, is small, and is kept in the cache with the file's result.

// StepKind says what a summary step does. Kinds stay below 16 (a
// StepKinds set holds them; storedsteps.go checks the last one).
type StepKind uint8

const (
	// StepLaunch launches the kernels in Keys (a launch that can load its
	// kernel: see File.LaunchMayLoad).
	StepLaunch StepKind = iota + 1
	// StepPreload loads the kernels in Keys without launching them.
	StepPreload
	// StepPreloadAll loads every kernel of a table (a preload loop).
	StepPreloadAll
	// StepCall calls Callee with Arity arguments: a function the project
	// may define.
	StepCall
	// StepDeviceSwitch makes another device or context current: kernels
	// loaded before it were loaded for the previous one (a kernel's module
	// is loaded per context).
	StepDeviceSwitch
	// StepLaunchParam launches the kernel its caller passes as parameter
	// Param (a suite's launch helper: launch(k, grid, block, args...)).
	StepLaunchParam
	// StepLaunchTyped launches the kernel template Keys[0] instantiated
	// for the type of parameter Param, a template type parameter of the
	// function (`template <class F> void run(F op) { apply<<<g, b>>>(op);
	// }`): each functor type its callers pass is a kernel of its own.
	StepLaunchTyped
	// StepPreloadParam preloads the kernel its caller passes as parameter
	// Param (an occupancy or attributes helper:
	// `cudaFuncGetAttributes(&a, kernel)` on its parameter).
	StepPreloadParam
)

// FunctionSummary is what a host function does to kernels, in source order.
// Its fields are ordered by size (strings, numbers, then the flags
// together): a large project holds hundreds of thousands of them.
type FunctionSummary struct {
	Name          string `json:"n"`
	QualifiedName string `json:"q,omitempty"`
	// Class is the class a member belongs to, by plain name (for method
	// calls on objects of the class or of classes derived from it).
	Class string `json:"C,omitempty"`
	Arity int32  `json:"a"`
	// Params is the number of parameters the definition shows, where
	// Arity is -1 (read from the text: a call may pass fewer, the
	// defaults being declared elsewhere): it tells overloads apart, a
	// call's arguments matching it preferred, but none is ruled out.
	Params  int32 `json:"P,omitempty"`
	Line    int32 `json:"l"`
	EndLine int32 `json:"L"`
	// TimesParam is the 1-based index of the parameter the function runs
	// between two reads of a clock (TimesClock), 0 for none: a timing
	// helper (File.TimedParam) times the lambda a call hands it.
	TimesParam int32 `json:"T,omitempty"`
	// storedKinds are the kinds of the stored steps (Kinds). Here, in the
	// room the int32s leave, a function is 120 bytes, not 128: a large
	// project links hundreds of thousands.
	storedKinds StepKinds
	// Steps are what the function does, in order. Read them through
	// StepList: once the summary's steps are moved out of the heap
	// (FileSummary.MoveSteps), Steps is nil and stored names them.
	Steps  []SummaryStep `json:"s,omitempty"`
	stored storedSteps
	// Variant: the file defines the function again (same name and
	// class) in another branch of a preprocessor conditional (`#ifdef
	// SUN ... #else ... #endif`): the definitions are alternatives of
	// one build, not overloads.
	Variant bool `json:"V,omitempty"`
	// Entry marks a program's entry point (main).
	Entry bool `json:"e,omitempty"`
	// Timed: the function reads a clock twice or more (it measures).
	Timed bool `json:"t,omitempty"`
	// Member: a method (defined in a class body, or out of line as
	// C::f where C is not known to be a namespace); Local: visible only in
	// its file (static, or in an unnamed namespace).
	Member bool `json:"m,omitempty"`
	Local  bool `json:"o,omitempty"`
	// ReadsClock: the function reads a host clock once (a timestamp
	// helper, a timer's start or stop).
	ReadsClock bool `json:"c,omitempty"`
	// TimesKernel: that parameter is a kernel the function launches (a
	// caller hands a kernel, not code to run).
	TimesKernel bool      `json:"tk,omitempty"`
	TimesClock  ClockKind `json:"tc,omitempty"`
}

// SummaryStep is one thing a function does. The small fields come first
// and together: a project holds hundreds of thousands of steps.
type SummaryStep struct {
	Kind StepKind `json:"k"`
	// Method is set for obj.f() and p->f().
	Method bool `json:"M,omitempty"`
	// Before marks the earlier steps of the function that run on every
	// path to this one (OnTheWay), among the maxBefore nearest: bit k for
	// the step k+1 places back. Kept for calls only.
	Before uint16 `json:"b,omitempty"`
	// ArgParams, for a call, say which of its first eight arguments pass
	// on a parameter of the function: 4 bits per argument, the
	// parameter's index plus one (0: not a parameter). With Keys, what a
	// callee's StepLaunchTyped instantiates is known at each call.
	ArgParams uint32 `json:"ap,omitempty"`
	// Line is the step's line; Param the parameter a StepLaunchParam
	// launches.
	Line  int `json:"l"`
	Param int `json:"p,omitempty"`
	// Arity is the call's number of arguments (-1: not known).
	Arity int `json:"a,omitempty"`
	// Keys are the kernels a launch or preload loads; for a call, the
	// types of its arguments where the text shows them (a temporary of a
	// class, `Kernel<float>(x)`), by position, "" where it does not (nil
	// when it shows none).
	Keys []string `json:"K,omitempty"`
	// Callee is the called function's plain name, Qualifier what the call
	// wrote before it (`ns` of ns::f); for a method call, the class of the
	// object's declared type when it is known (GpuMatrix of m.Scale() on
	// `GpuMatrix<float> m`).
	Callee    string `json:"c,omitempty"`
	Qualifier string `json:"Q,omitempty"`
	// Far are the steps further back than the mask reaches that also run
	// on every path here: a warm-up launch at the top of main, a hundred
	// calls before the benchmark. Calls are looked for among the
	// maxFarCalls steps beyond the mask; launches, preloads and device
	// switches anywhere before.
	Far []int32 `json:"f,omitempty"`
}

// FileSummary is a file's exported facts.
type FileSummary struct {
	Path      string            `json:"p"`
	Functions []FunctionSummary `json:"f,omitempty"`
	// Device, set only for a file whose findings its translation units
	// may remove (the engine's choice), summarizes its device functions.
	Device []DeviceSummary `json:"d,omitempty"`
	// UnitWants are the origins (OriginKey) whose release in the file's
	// translation units would remove a finding.
	UnitWants []string `json:"w,omitempty"`
	// Timers are the timer classes the file defines (TimerClasses): a
	// file of the project declaring objects of one times with them.
	Timers []knowledge.TimerClass `json:"T,omitempty"`
	// packed are Functions packed (packedfunctions.go), their names in
	// packedIn's table; Functions is then nil.
	packed   []packedFunction
	packedIn *StepStore
}

// maxBefore is how many of the nearest earlier steps the Before mask
// covers; maxFarCalls how many calls further back Far looks at; and
// maxFarStep and maxFarChecks bound the tree walks for Far per step and per
// function: a function of thousands of calls would otherwise cost millions.
const (
	maxBefore    = 16
	maxFarCalls  = 48
	maxFarStep   = 256
	maxFarChecks = 1 << 16
)

// IsDeviceSwitch reports whether a call makes another device or context
// current.
func IsDeviceSwitch(name string) bool { return knowledge.IsDeviceSwitch(name) }

// isCUDAName reports whether a callee is a CUDA API (or one of its
// error-checking wrappers): those are not project functions.
func isCUDAName(name string) bool {
	return IsRuntimeAPI(name) || IsDriverAPI(name)
}

// Summary returns the file's exported facts: one summary per host function
// that launches, preloads, switches devices or calls a function by name.
func (f *File) Summary() *FileSummary {
	s := &FileSummary{Path: f.Path, Timers: f.ownTimers()}
	preloads := map[*Function][]Preload{}
	for _, p := range f.Preloads() {
		preloads[p.Call.Func] = append(preloads[p.Call.Func], p)
	}
	for _, fn := range f.Functions {
		if fn.Space&SpaceHost == 0 || fn.Name == "" {
			continue
		}
		fs := FunctionSummary{
			Name: fn.Name, QualifiedName: fn.QualifiedName, Arity: int32(len(fn.Params)),
			Line: int32(f.Position(fn.Node.Start()).Line), EndLine: int32(f.Position(fn.Node.End()).Line), Entry: fn.Name == "main" && !strings.Contains(fn.QualifiedName, "::"),
		}
		var steps []placed
		params := f.lexicalParamsOf(fn)
		for _, l := range f.LaunchesIn(fn) {
			if l.Kernel == "" || !f.LaunchMayLoad(l) {
				continue
			}
			// A kernel passed in (launch(kernel, ...)) is the caller's:
			// its name here says nothing, its argument at the call does.
			if i, ok := f.KernelParam(fn, l); ok {
				steps = append(steps, placed{SummaryStep{Kind: StepLaunchParam, Param: i}, l.Node})
				continue
			}
			// A kernel template instantiated for the type of a parameter
			// (typedlaunch.go): the caller's argument says which.
			if i, ok := f.typedLaunchParam(fn, l); ok {
				steps = append(steps, placed{SummaryStep{Kind: StepLaunchTyped, Keys: []string{compactSpace(l.KernelExpr.Text())}, Param: i}, l.Node})
				continue
			}
			steps = append(steps, placed{SummaryStep{Kind: StepLaunch, Keys: []string{l.KernelKey()}}, l.Node})
		}
		for _, p := range preloads[fn] {
			st := SummaryStep{Kind: StepPreload, Keys: p.Keys}
			if p.FromParam {
				st = SummaryStep{Kind: StepPreloadParam, Param: p.Param}
			}
			if p.All && strings.HasPrefix(p.Call.Name, "cuda") {
				// A loop over CUfunction handles (cuFuncSetAttribute)
				// touches kernels cuModuleGetFunction loaded already.
				st = SummaryStep{Kind: StepPreloadAll}
			}
			steps = append(steps, placed{st, p.Call.Node})
		}
		launchAt := map[int]bool{}
		for _, l := range f.LaunchesIn(fn) {
			launchAt[l.Node.Start()] = true
		}
		receivers := receiverMemo{}
		fs.Member, fs.Local = memberOrLocal(fn)
		if fs.Member {
			fs.Class = methodClass(fn)
		}
		clockReads, anyClock := 0, 0
		for _, c := range f.CallsIn(fn) {
			switch ClockOf(c) {
			case ClockHost:
				clockReads++
				anyClock++
			case ClockEvent:
				anyClock++
			}
			libraryKey := f.libraryLaunch(c)
			switch {
			case IsDeviceSwitch(c.Name):
				steps = append(steps, placed{SummaryStep{Kind: StepDeviceSwitch}, c.Node})
			case libraryKey != "":
				steps = append(steps, placed{SummaryStep{Kind: StepLaunch, Keys: []string{libraryKey}}, c.Node})
			case c.Name == "" || c.Name == fn.Name || isCUDAName(c.Name) || launchAt[c.Node.Start()] || InHostOnlyBuild(c.Node):
				// A call built only without a GPU runs no kernel of a GPU
				// build (as a library launch there does not).
			default:
				st := SummaryStep{Kind: StepCall, Callee: c.Name, Arity: len(c.Args), Qualifier: CalleeQualifier(c), Method: c.Callee.Is("field_expression")}
				if st.Method {
					st.Qualifier = receivers.classOf(f, c)
				}
				if argsMaySay(c, params) {
					args := make([]string, len(c.Args))
					for j, a := range c.Args {
						args[j] = a.Unparen().Text()
					}
					st.ArgParams, st.Keys = lexicalArgs(args, params)
				}
				steps = append(steps, placed{st, c.Node})
			}
			steps = append(steps, f.callbackSteps(c)...)
		}
		// One read: a timestamp or a timer's start or stop. A function
		// with two reads measures something itself; calling it is not
		// reading a clock.
		fs.ReadsClock = clockReads == 1
		if anyClock < 2 {
			// A timer object started by its construction measures from
			// its declaration: to a read (`Kokkos::Timer t; ...
			// t.seconds()`) or to its scope's end (a scope timer).
			anyClock += 2 * len(f.timerDeclarations(fn))
		}
		fs.Timed = anyClock >= 2 || len(f.benchmarkLoops(fn)) > 0
		if fs.Timed {
			if param, region, ok := f.TimedParam(fn); ok {
				fs.TimesParam, fs.TimesClock = int32(param+1), region.Clock
				fs.TimesKernel = f.launchesParam(fn, param)
			}
		}
		if len(steps) == 0 && !fs.Entry && !fs.ReadsClock {
			// A function that does nothing a caller needs is still the
			// file's own: a call from the file (or from one including it)
			// reaches it, not another file's function of the name (a CPU
			// reference's scale_forward, not the CUDA version's beside it).
			s.Functions = append(s.Functions, fs)
			continue
		}
		for i := 1; i < len(steps); i++ {
			for j := i; j > 0 && steps[j].node.Start() < steps[j-1].node.Start(); j-- {
				steps[j], steps[j-1] = steps[j-1], steps[j]
			}
		}
		farChecks := 0
		fs.Steps = make([]SummaryStep, 0, len(steps)) // no append slack: kept for the whole run
		for i := range steps {
			st := steps[i].step
			st.Line = f.Position(steps[i].node.Start()).Line
			if st.Kind == StepCall {
				// The nearest earlier steps only: a warm-up sits near what
				// it warms up, and a function of thousands of calls would
				// cost a million tree walks.
				for j := max(0, i-maxBefore); j < i; j++ {
					if OnTheWay(steps[j].node, steps[i].node) {
						st.Before |= 1 << (i - 1 - j)
					}
				}
				// Further back: every launch, preload and device switch,
				// and the calls among the maxFarCalls nearest, within a
				// budget for the function. (A budget shared by all steps
				// let a long main's printf calls use it up before the
				// warm-up launch near its top was reached.)
				stepChecks := 0
				for j := 0; j < i-maxBefore && stepChecks < maxFarStep && farChecks < maxFarChecks; j++ {
					if steps[j].step.Kind == StepCall && j < i-maxBefore-maxFarCalls {
						continue
					}
					stepChecks++
					farChecks++
					if OnTheWay(steps[j].node, steps[i].node) {
						st.Far = append(st.Far, int32(j))
					}
				}
			}
			fs.Steps = append(fs.Steps, st)
		}
		s.Functions = append(s.Functions, fs)
	}
	s.Functions = exactFunctions(s.Functions)
	return s
}

// exactFunctions returns fns in an array of their size. A summary lives
// to the end of a run, and the room append leaves (a quarter to a half
// more) was 10 MB of eight copies of the corpus checked as one project.
func exactFunctions(fns []FunctionSummary) []FunctionSummary {
	if cap(fns) == len(fns) {
		return fns
	}
	return slices.Clone(fns)
}

// placed is a summary step and where it happens.
type placed struct {
	step SummaryStep
	node Node
}

// callbackSteps returns, for a call of an event loop (glutMainLoop), a call
// step per callback the file registers: the loop calls each after what led
// to it (and not after one another: they share the loop's place).
func (f *File) callbackSteps(c *Call) []placed {
	if !knowledge.EventLoops[c.Name] {
		return nil
	}
	var out []placed
	for _, cb := range f.registeredCallbacks() {
		out = append(out, placed{SummaryStep{Kind: StepCall, Callee: cb, Arity: -1}, c.Node})
	}
	return out
}

// registeredCallbacks returns the names of the file's functions that the
// file hands to an event loop's registration calls (glutDisplayFunc(display)),
// in order of first registration.
func (f *File) registeredCallbacks() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range f.Calls {
		if !knowledge.IsCallbackRegistrar(c.Name) {
			continue
		}
		for _, a := range c.Args {
			a = a.Unparen()
			if a.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(a.Text()), "&") {
				a = a.ChildByField("argument")
			}
			if name := a.Text(); a.Is("identifier") && !seen[name] && f.FunctionNamed(name) != nil {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}

// CalleeQualifier returns what a call writes before the callee's name:
// `ns` for ns::f(), "" for f() or obj.f().
func CalleeQualifier(c *Call) string {
	callee := c.Callee
	if callee.Is("template_function") {
		callee = callee.ChildByField("name")
	}
	if !callee.Is("qualified_identifier") {
		return ""
	}
	t := compactSpace(callee.Text())
	if i := strings.LastIndex(t, "::"); i >= 0 {
		return strings.TrimPrefix(t[:i], "::")
	}
	return ""
}

// libraryLaunch returns the key of the kernel a portability layer's
// launch written with its namespace (`Kokkos::parallel_for(...)`) runs,
// as other files know it (knowledge.LibraryLaunchKey), or "".
func (f *File) libraryLaunch(c *Call) string {
	q := CalleeQualifier(c)
	if q == "" || InHostOnlyBuild(c.Node) {
		return ""
	}
	call := c.Callee.Text()
	for _, a := range c.Args {
		if !isLambdaText(a.Text()) {
			call += " " + a.Text()
		}
	}
	l := knowledge.LibraryLaunchAt(q, c.Name, call)
	if l == nil {
		return ""
	}
	return knowledge.LibraryLaunchKey(l, c.Name, f.Path, f.Position(c.Node.Start()).Line)
}

// isLambdaText reports whether an argument's text is a lambda (`[=]
// (int i) {...}`, `KOKKOS_LAMBDA(int i) {...}`): the functor, whose body
// says nothing of the policy.
func isLambdaText(arg string) bool {
	arg = strings.TrimSpace(arg)
	return strings.HasPrefix(arg, "[") || strings.HasPrefix(arg, "KOKKOS_") && strings.Contains(arg, "LAMBDA")
}

// LaunchMayLoad reports whether a launch can be the one that loads its
// kernel. Driver-API launches take a CUfunction, which cuModuleGetFunction
// or cuKernelGetFunction returns already loaded; only a CUkernel from
// cuLibraryGetKernel, cast to CUfunction, loads at its first launch.
func (f *File) LaunchMayLoad(l *Launch) bool {
	if l.API == "" || l.Own || !knowledge.DriverLaunch(l.API) {
		return true
	}
	if strings.Contains(l.KernelExpr.Text(), "CUkernel") || l.KernelExpr.Parent().Is("cast_expression") {
		return true
	}
	for _, d := range f.ReachingDefs(l.KernelExpr) {
		if d.Op == DefOut && d.Call != nil && d.Call.Name == "cuLibraryGetKernel" {
			return true
		}
	}
	return false
}

// memberOrLocal says whether fn is a method (defined in a class body, or
// out of line with a qualifier that names no namespace the file opens)
// and whether it is visible only in its file (static at namespace scope,
// or in an unnamed namespace).
func memberOrLocal(fn *Function) (member, local bool) {
	for p := fn.Node.Parent(); p.Valid(); p = p.Parent() {
		switch p.Kind() {
		case "field_declaration_list":
			return true, false
		case "namespace_definition":
			if !p.ChildByField("name").Valid() {
				local = true
			}
		}
	}
	if strings.Contains(fn.QualifiedName, "::") {
		qual := fn.QualifiedName[:strings.LastIndex(fn.QualifiedName, "::")]
		if !fn.Node.f.opensNamespace(qual) {
			member = true
		}
	}
	if !member {
		for _, q := range fn.Node.Children() {
			if q.Is("storage_class_specifier") && q.Text() == "static" {
				local = true
			}
		}
	}
	return member, local
}

// opensNamespace reports whether the file opens a namespace whose name
// ends qual's last component (ns of ns::f, detail of a::detail::f).
func (f *File) opensNamespace(qual string) bool {
	last := qual[strings.LastIndex(qual, "::")+1:]
	last = strings.TrimPrefix(last, ":")
	if f.namespaces == nil {
		f.namespaces = map[string]bool{}
		for _, n := range f.NodesOfKind("namespace_definition") {
			for _, part := range strings.Split(compactSpace(n.ChildByField("name").Text()), "::") {
				f.namespaces[part] = true
			}
		}
	}
	return f.namespaces[last]
}

// BeforeSteps returns the indices of the steps Before marks, for the step
// at index i, in order.
func (st *SummaryStep) BeforeSteps(i int) []int {
	out := make([]int, len(st.Far), len(st.Far)+bits.OnesCount16(st.Before))
	for k, j := range st.Far {
		out[k] = int(j)
	}
	for k := maxBefore - 1; k >= 0; k-- {
		if st.Before&(1<<k) != 0 && i-1-k >= 0 {
			out = append(out, i-1-k)
		}
	}
	return out
}

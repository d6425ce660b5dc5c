package ll003

import (
	"regexp"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/knowledge"
)

// What runs while a waiter spins. A waiter hangs under lazy loading only
// if something has to load between its launch and its release: a kernel
// launched (or preloaded) there that was not loaded before the waiter was
// launched. Whoever releases it (the host through mapped memory, a copy,
// a NIC or proxy, a peer GPU, or a kernel queued or loaded before it)
// needs no load then. So each launch of a waiting kernel is followed
// through its window: from the launch to a synchronization or to the
// host's store to the flag the waiter reads, in the launching function
// and, when that function returns with the waiter still running, in the
// functions of the file that call it.
//
// A preload inside the window does not help: measured on an H100 (driver
// 580, LAZY), cudaFuncGetAttributes or cudaOccupancyMaxPotentialBlockSize
// of a kernel of the waiter's own module, called while the waiter spins,
// returned in 0.03-0.10 ms, yet the kernel launched after it did not run
// until the waiter's 1 s watchdog ended it (4 runs of 4); preloaded before
// the waiter's launch, it ran at once. A preload of another module's
// kernel blocks outright (hazards.md).

// windowVerdict is what a waiter's windows show.
type windowVerdict int

const (
	// windowQuiet: nothing that still has to load runs before a
	// synchronization or the release.
	windowQuiet windowVerdict = iota
	// windowUnseen: the window runs on out of sight (the launching
	// function returns with the waiter running, to callers in other
	// files), and what the file shows of it loads nothing.
	windowUnseen
	// windowLoads: a kernel that was not loaded before the waiter's launch
	// is launched or preloaded while it may spin.
	windowLoads
)

// maxCallerDepth bounds how far a window is followed into callers.
const maxCallerDepth = 4

// launchContext is one way a waiter's launch is reached: the launch (or
// the end of the stream capture recording it), then the call sites of the
// functions it returns to, innermost first. A kernel is loaded before the
// waiter runs if it is loaded on the way to any of them.
type launchContext []cudaparse.Node

func (a *analysis) loadedIn(ctx launchContext, key string) bool {
	for _, n := range ctx {
		if kernelLoadedOnTheWay(a.file, n, key) {
			return true
		}
	}
	return false
}

// windows judges every launch of the waiting kernels in the file. It
// returns the worst verdict, and the contexts of the windows that run on
// out of sight. No launch in the file is windowUnseen, with no context.
func (a *analysis) windows(p *rule.Pass, w waiter, kernels []*cudaparse.Function) (windowVerdict, []launchContext) {
	waiting := map[string]bool{}
	for _, k := range kernels {
		waiting[k.Name] = true
	}
	worst, launched := windowQuiet, false
	var unseen []launchContext
	for _, l := range a.file.Launches {
		if !waiting[l.Kernel] {
			continue
		}
		launched = true
		if l.Func == nil {
			worst = max(worst, windowUnseen)
			unseen = append(unseen, nil)
			continue
		}
		start := l.Node
		if end := a.file.CaptureEnd(l.Node); end != nil {
			// Recorded into a graph: the waiter runs from the graph's
			// launch on, and every kernel the capture recorded loaded
			// at capture time.
			start = end.Node
		}
		s := &windowScan{p: p, waiting: waiting, releases: a.releaseTargets(w, l), visited: map[int]windowVerdict{}}
		v := s.scan(a, l.Func, start, launchContext{start}, 0)
		worst = max(worst, v)
		unseen = append(unseen, s.unseen...)
	}
	if !launched {
		return windowUnseen, nil
	}
	return worst, unseen
}

// windowScan follows one launch's window.
type windowScan struct {
	p       *rule.Pass
	waiting map[string]bool
	// releases are the host variables through which the launching
	// function releases the waiter (the flag it passed to the kernel).
	releases map[string]bool
	unseen   []launchContext
	// visited holds the verdict at each call site already followed, and
	// scans counts the functions followed: a function called from many
	// places, each called from many, would otherwise be followed once per
	// path.
	visited map[int]windowVerdict
	scans   int
}

// maxScans bounds the functions one launch's window is followed into;
// beyond it the window counts as out of sight.
const maxScans = 512

// windowEvent is something the host does while a waiter may spin.
type windowEvent struct {
	at      int
	end     bool // a synchronization, or the host's release of the waiter
	release bool // the host's release
	launch  *cudaparse.Launch
	preload *cudaparse.Preload
	call    *cudaparse.Call
	graph   bool // a graph launch
}

// scan judges fn's events after from; at depth 0 the host's stores to the
// released flag end the window too.
func (s *windowScan) scan(a *analysis, fn *cudaparse.Function, from cudaparse.Node, ctx launchContext, depth int) windowVerdict {
	for _, e := range a.eventsAfter(fn, from, s.releases, depth == 0) {
		switch {
		case e.end:
			return windowQuiet
		case e.graph:
			if !a.file.Captures(fn) {
				return windowLoads // a graph recorded out of sight
			}
		case e.launch != nil:
			if !s.waiting[e.launch.Kernel] && !a.loadedIn(ctx, e.launch.KernelKey()) {
				return windowLoads
			}
		case e.preload != nil:
			if e.preload.All || !s.allLoaded(a, ctx, e.preload.Keys) {
				return windowLoads
			}
		case e.call != nil:
			if s.callLoads(a, e.call, ctx, map[string]bool{}) {
				return windowLoads
			}
		}
	}
	// The function returns with the waiter still running.
	if fn.Name == "main" {
		return windowQuiet // the program ends
	}
	var callers []*cudaparse.Call
	for _, c := range a.file.Calls {
		if c.Name == fn.Name && c.Func != nil && c.Func != fn && a.file.FunctionNamed(c.Name) != nil {
			callers = append(callers, c)
		}
	}
	if len(callers) == 0 || depth >= maxCallerDepth {
		s.unseen = append(s.unseen, ctx)
		return windowUnseen
	}
	worst := windowQuiet
	for _, c := range callers {
		if v, ok := s.visited[c.Node.Start()]; ok {
			worst = max(worst, v)
			continue
		}
		s.scans++
		if s.scans > maxScans {
			s.unseen = append(s.unseen, ctx)
			return max(worst, windowUnseen)
		}
		next := append(append(launchContext(nil), ctx...), c.Node)
		v := s.scan(a, c.Func, c.Node, next, depth+1)
		s.visited[c.Node.Start()] = v
		worst = max(worst, v)
	}
	return worst
}

func (s *windowScan) allLoaded(a *analysis, ctx launchContext, keys []string) bool {
	for _, k := range keys {
		if !s.waiting[cudaparse.PlainKernelName(k)] && !a.loadedIn(ctx, k) {
			return false
		}
	}
	return true
}

// eventsAfter returns fn's launches, preloads, calls, synchronizations and
// (with releases) host stores to the released flag after from, in source
// order, leaving out those in a branch that excludes from.
func (a *analysis) eventsAfter(fn *cudaparse.Function, from cudaparse.Node, releases map[string]bool, withReleases bool) []windowEvent {
	var events []windowEvent
	after := func(n cudaparse.Node) bool {
		return n.Start() >= from.End() && !cudaparse.Exclusive(from, n)
	}
	taken := map[int]bool{}
	for _, l := range a.file.LaunchesIn(fn) {
		if after(l.Node) {
			events = append(events, windowEvent{at: l.Node.Start(), launch: l})
			taken[l.Node.Start()] = true
		}
	}
	for i := range a.file.Preloads() {
		pl := &a.file.Preloads()[i]
		if pl.Call.Func == fn && after(pl.Call.Node) {
			events = append(events, windowEvent{at: pl.Call.Node.Start(), preload: pl})
			taken[pl.Call.Node.Start()] = true
		}
	}
	for _, c := range a.file.CallsIn(fn) {
		if !after(c.Node) || taken[c.Node.Start()] {
			continue
		}
		switch {
		case syncCalls[c.Name]:
			events = append(events, windowEvent{at: c.Node.Start(), end: true})
		case cudaparse.GraphLaunches[c.Name]:
			events = append(events, windowEvent{at: c.Node.Start(), graph: true})
		case withReleases && a.releasesThrough(c, releases):
			events = append(events, windowEvent{at: c.Node.Start(), end: true, release: true})
		default:
			events = append(events, windowEvent{at: c.Node.Start(), call: c})
		}
	}
	if withReleases && len(releases) > 0 {
		fn.Body.Descendants(func(x cudaparse.Node) bool {
			if x.Is("assignment_expression") && after(x) && releases[hostTarget(x.ChildByField("left"))] {
				events = append(events, windowEvent{at: x.Start(), end: true, release: true})
			}
			return true
		})
	}
	sortWindow(events)
	return events
}

func sortWindow(es []windowEvent) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].at < es[j-1].at; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// releaseTargets returns the host variable a launch passes for the
// location the waiter reads (`delay<<<1, 1>>>(flag)` for `while (!*flag)`):
// a store through it on the host releases the waiter.
func (a *analysis) releaseTargets(w waiter, l *cudaparse.Launch) map[string]bool {
	if w.read.key == "" || l.API != "" || l.ViaMacro != "" || !w.fn.IsKernel() || w.fn.Name != l.Kernel {
		return nil
	}
	root := w.read.key
	if i := strings.IndexAny(root, ".[-"); i >= 0 {
		root = root[:i]
	}
	for _, prm := range w.fn.Params {
		if prm.Name == root && prm.Index < len(l.Args) {
			if t := hostTarget(l.Args[prm.Index]); t != "" {
				return map[string]bool{t: true}
			}
		}
	}
	return nil
}

// hostTarget returns the variable an lvalue or pointer expression stores
// through: flag for `*flag`, `flag[0]`, `*(volatile int *)flag`,
// `flag->value`, `(int *)flag`.
func hostTarget(n cudaparse.Node) string {
	for range 6 {
		n = n.Unparen()
		switch n.Kind() {
		case "pointer_expression", "subscript_expression", "field_expression":
			n = n.ChildByField("argument")
		case "cast_expression":
			n = n.ChildByField("value")
		default:
			return cudaparse.VarKey(n)
		}
	}
	return ""
}

// releasesThrough reports whether a host call stores through one of the
// release targets: `flag->store(true)`, `flag.exchange(1)`,
// `__atomic_store_n(flag, 1, ...)`, a write-once macro.
func (a *analysis) releasesThrough(c *cudaparse.Call, releases map[string]bool) bool {
	if len(releases) == 0 {
		return false
	}
	if c.Callee.Is("field_expression") && knowledge.AtomicStoreMethods[c.Name] {
		return releases[hostTarget(c.Callee.ChildByField("argument"))]
	}
	if len(c.Args) == 0 {
		return false
	}
	switch c.Name {
	case "__atomic_store_n", "__atomic_store", "__atomic_exchange_n", "atomic_store", "atomic_store_explicit", "atomic_exchange":
		return releases[hostTarget(c.Args[0])]
	}
	if write, ok := a.file.VolatileAccessMacro(c.Name); ok && write {
		return releases[hostTarget(c.Args[0])]
	}
	return false
}

// libraryPrefix matches the entry points of CUDA libraries whose calls
// launch kernels of their own (which load lazily too) and of the launch
// APIs that take a kernel by handle.
var libraryPrefix = regexp.MustCompile(`^(cublas|cufft|cusparse|cusolver|curand|cudnn|cutensor|nccl|nvshmem|cudaLaunch|cuLaunch)`)

// launcherName matches names of functions not defined in the file that say
// they run GPU work: launch_reduce, runKernel, gemm.run(), forward().
var launcherName = regexp.MustCompile(`(?i)launch|kernel|gemm|forward|backward|^(run|exec|execute|enqueue)`)

// callLoads reports whether call c can load a kernel that was not loaded
// before the waiter: a function of the file that launches or preloads
// one (directly or through its callees), a function of the project whose
// facts say so, a CUDA library's entry point, a function handed such a
// function (std::thread t(launch_all)), or an unknown function whose name
// says it runs GPU work.
func (s *windowScan) callLoads(a *analysis, c *cudaparse.Call, ctx launchContext, seen map[string]bool) bool {
	if c.Name == "" || seen[c.Name] {
		return false
	}
	seen[c.Name] = true
	if libraryPrefix.MatchString(c.Name) {
		return true
	}
	switch q := cudaparse.CalleeQualifier(c); {
	case q == "thrust" || strings.HasPrefix(q, "thrust::") || q == "cub" || strings.HasPrefix(q, "cub::"):
		return true
	}
	for _, arg := range c.Args {
		if fn := a.file.FunctionNamed(arg.Unparen().Name()); fn != nil && fn.Space&cudaparse.SpaceHost != 0 && s.functionLoads(a, fn, ctx, seen) {
			return true
		}
	}
	if fn := a.file.FunctionNamed(c.Name); fn != nil {
		return s.functionLoads(a, fn, ctx, seen)
	}
	p := s.p
	if pf := p.ResolveCall(c); pf != nil {
		return s.factsLoad(a, p.Loaders().Kernels(pf), ctx)
	}
	if p.Loaders().Defines(c.Name) {
		// Defined more than once (or out of sight): any definition that
		// loads counts.
		for _, pf := range p.Loaders().Definitions(c.Name) {
			if s.factsLoad(a, p.Loaders().Kernels(pf), ctx) {
				return true
			}
		}
		return false
	}
	return launcherName.MatchString(c.Name)
}

// functionLoads reports whether fn, a host function of the file, launches
// or preloads a kernel not loaded before the waiter, or calls something
// that may.
func (s *windowScan) functionLoads(a *analysis, fn *cudaparse.Function, ctx launchContext, seen map[string]bool) bool {
	taken := map[int]bool{} // calls that are launches or preloads
	for _, l := range a.file.LaunchesIn(fn) {
		taken[l.Node.Start()] = true
		if !s.waiting[l.Kernel] && !a.loadedIn(ctx, l.KernelKey()) {
			return true
		}
	}
	for _, pl := range a.file.Preloads() {
		if pl.Call.Func == fn {
			taken[pl.Call.Node.Start()] = true
			if pl.All || !s.allLoaded(a, ctx, pl.Keys) {
				return true
			}
		}
	}
	for _, c := range a.file.CallsIn(fn) {
		if taken[c.Node.Start()] || syncCalls[c.Name] {
			continue
		}
		if cudaparse.GraphLaunches[c.Name] {
			if !a.file.Captures(fn) {
				return true
			}
			continue
		}
		if s.callLoads(a, c, ctx, seen) {
			return true
		}
	}
	return false
}

// factsLoad reports whether a project function's kernel facts name a
// kernel not loaded before the waiter (or one its caller passes, or a
// whole table).
func (s *windowScan) factsLoad(a *analysis, k *link.KernelFacts, ctx launchContext) bool {
	if k.Empty() {
		return false
	}
	if k.All || len(k.LaunchedParams) > 0 {
		return true
	}
	return !s.allLoaded(a, ctx, append(slices.Clone(k.Launched), k.Instantiated(nil)...)) || !s.allLoaded(a, ctx, k.Preloaded)
}

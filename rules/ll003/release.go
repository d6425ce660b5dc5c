package ll003

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// Who can release a waiter, and whether anything must load while it waits.

// quietWhileWaiting reports whether every launch of the waiting kernel is
// in this file and, at each, the launching function goes on to a
// synchronization without launching another kernel or calling anything
// that may launch one: nothing has to load while the waiter spins, so its
// release (by the host, through mapped memory, or by a peer) cannot wait
// for a load. A launch after which the function returns still running
// leaves the question to its callers, and is not quiet.
func (a *analysis) quietWhileWaiting(p *rule.Pass, kernel string) bool {
	launched := 0
	for _, l := range a.file.Launches {
		if l.Kernel != kernel {
			continue
		}
		launched++
		if l.Func == nil || !a.quietAfter(p, l) {
			return false
		}
	}
	return launched > 0
}

// quietAfter reports whether the host function of launch l reaches a
// synchronization after l with no launch and no call that may launch on
// the way (branches that exclude l do not count).
func (a *analysis) quietAfter(p *rule.Pass, l *cudaparse.Launch) bool {
	type event struct {
		at   int
		sync bool
	}
	var events []event
	for _, o := range a.file.Launches {
		if o.Func == l.Func && o.Node.Start() > l.Node.End() && !cudaparse.Exclusive(l.Node, o.Node) {
			events = append(events, event{at: o.Node.Start()})
		}
	}
	for _, c := range a.file.Calls {
		if c.Func != l.Func || c.Node.Start() <= l.Node.End() || cudaparse.Exclusive(l.Node, c.Node) {
			continue
		}
		switch {
		case syncCalls[c.Name]:
			events = append(events, event{at: c.Node.Start(), sync: true})
		case a.mayLaunch(p, c, map[string]bool{}):
			events = append(events, event{at: c.Node.Start()})
		}
	}
	first := -1
	for i, e := range events {
		if first < 0 || e.at < events[first].at {
			first = i
		}
	}
	return first >= 0 && events[first].sync
}

// libraryPrefix matches the entry points of CUDA libraries whose calls
// launch kernels of their own (which load lazily too) and of the launch
// APIs that take a kernel by handle or graph.
var libraryPrefix = regexp.MustCompile(`^(cublas|cufft|cusparse|cusolver|curand|cudnn|cutensor|nccl|nvshmem|cudaLaunch|cuLaunch|cudaGraphLaunch|cuGraphLaunch)`)

// launcherName matches names of functions not defined in the file that say
// they run GPU work: launch_reduce, runKernel, gemm.run(), forward().
var launcherName = regexp.MustCompile(`(?i)launch|kernel|gemm|forward|backward|^(run|exec|execute|enqueue)`)

// mayLaunch reports whether call c can launch a kernel: a function of the
// file that launches one (directly or through its callees), a function of
// the project known to, a CUDA library's entry point, or a function handed
// a launcher (std::thread t(launch_all)).
func (a *analysis) mayLaunch(p *rule.Pass, c *cudaparse.Call, seen map[string]bool) bool {
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
		if fn := a.file.FunctionNamed(arg.Unparen().Name()); fn != nil && fn.Space&cudaparse.SpaceHost != 0 && a.functionLaunches(p, fn, seen) {
			return true
		}
	}
	if fn := a.file.FunctionNamed(c.Name); fn != nil {
		return a.functionLaunches(p, fn, seen)
	}
	if pf := p.ResolveCall(c); pf != nil {
		return !p.Project.Kernels(pf).Empty()
	}
	if p.Project != nil && p.Project.Defines(c.Name) {
		// Defined more than once (or out of sight): any definition that
		// launches counts.
		for _, pf := range p.Project.Definitions(c.Name) {
			if !p.Project.Kernels(pf).Empty() {
				return true
			}
		}
		return false
	}
	return launcherName.MatchString(c.Name)
}

func (a *analysis) functionLaunches(p *rule.Pass, fn *cudaparse.Function, seen map[string]bool) bool {
	for _, l := range a.file.Launches {
		if l.Func == fn {
			return true
		}
	}
	for _, c := range a.file.Calls {
		if c.Func == fn && a.mayLaunch(p, c, seen) {
			return true
		}
	}
	return false
}

package ll003

import (
	"fmt"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/rules/fix"
)

// Host side: after the launch of a waiting kernel and before a
// synchronization, the launch of a kernel that was neither launched nor
// preloaded before must load while the waiter occupies the device.

// syncCalls wait for the device (or a stream) to finish.
var syncCalls = map[string]bool{
	"cudaDeviceSynchronize": true, "cudaStreamSynchronize": true, "cudaEventSynchronize": true,
	"cudaThreadSynchronize": true, "cuCtxSynchronize": true, "cuStreamSynchronize": true,
	"cuEventSynchronize": true, "cudaDeviceReset": true,
}

type hostEvent struct {
	node   cudaparse.Node
	launch *cudaparse.Launch
	sync   bool
}

func (a *analysis) checkHost(p *rule.Pass, waiting map[string]waiter) {
	for _, fn := range a.file.Functions {
		if fn.Space&cudaparse.SpaceHost == 0 {
			continue
		}
		events := a.hostEvents(fn)
		reported := map[int]bool{}
		for i, e := range events {
			if e.launch == nil {
				continue
			}
			w, isWaiter := waiting[e.launch.Kernel]
			if !isWaiter || a.file.CaptureEnd(e.launch.Node) != nil {
				// Not a waiter, or one recorded into a graph: it does not
				// run here, and what the capture records loads now.
				continue
			}
			release := a.firstRelease(fn, e.launch, a.releaseTargets(w, e.launch))
			flagged := map[string]bool{}
			for _, later := range events[i+1:] {
				if cudaparse.Exclusive(e.node, later.node) {
					continue // if (push) launch(a) else launch(b): never both
				}
				if later.sync || release >= 0 && later.node.Start() > release {
					break // synchronized, or the host has released the waiter
				}
				l := later.launch
				if l == nil || l.Kernel == e.launch.Kernel || reported[l.Node.Start()] || flagged[l.KernelKey()] {
					continue
				}
				// Loaded before the waiter's launch: a preload after it
				// comes too late (release.go).
				if kernelLoadedOnTheWay(a.file, e.launch.Node, l.KernelKey()) {
					continue
				}
				flagged[l.KernelKey()] = true
				reported[l.Node.Start()] = true
				a.reportLoadWhileWaiting(p, l, e.launch, w)
			}
		}
	}
}

// reportLoadWhileWaiting reports launch l of a kernel that has to load
// while the waiter launched at waiterLaunch may spin.
func (a *analysis) reportLoadWhileWaiting(p *rule.Pass, l, waiterLaunch *cudaparse.Launch, w waiter) {
	opts := []rule.FindingOption{rule.Related(waiterLaunch.Node, "waiting kernel launched here"), rule.Related(w.loop, "it spins here")}
	if fix.IsSymbolLaunch(l) {
		if f, ok := fix.PreloadKernel(a.file, waiterLaunch.Node, l.KernelKey(), "load before the waiter runs"); ok {
			opts = append(opts, rule.WithFix(f))
		}
	}
	p.Report(l.Node, fmt.Sprintf("%s is launched for the first time while %s may be spinning (launched before it, no synchronization since): under lazy loading %s must load first, which waits for the device, and the program deadlocks (measured on an H100); preload %s before launching %s (preloading only the waiter is not enough)",
		l.KernelKey(), waiterLaunch.KernelKey(), l.KernelKey(), l.KernelKey(), waiterLaunch.KernelKey()), opts...)
}

// firstRelease returns where fn first stores, after the waiter's launch
// l, through the variable it passed for the waited-on flag, or -1.
func (a *analysis) firstRelease(fn *cudaparse.Function, l *cudaparse.Launch, releases map[string]bool) int {
	for _, e := range a.eventsAfter(fn, l.Node, releases, true) {
		if e.release {
			return e.at
		}
	}
	return -1
}

// hostEvents are the launches and synchronizations of a host function, in
// source order.
func (a *analysis) hostEvents(fn *cudaparse.Function) []hostEvent {
	var events []hostEvent
	for _, l := range a.file.Launches {
		if l.Func == fn {
			events = append(events, hostEvent{node: l.Node, launch: l})
		}
	}
	for _, c := range a.file.Calls {
		if c.Func == fn && syncCalls[c.Name] {
			events = append(events, hostEvent{node: c.Node, sync: true})
		}
	}
	sortEvents(events)
	return events
}

// preloadedAtEveryLaunch reports whether the file launches the waiting
// kernel and, at each launch, every other kernel its host function launches
// was launched or preloaded on the way: the fix the kernel-side finding
// asks for, done here. A launch with no other kernel beside it proves
// nothing (its releaser is elsewhere), nor does a waiter launched in
// another file.
func (a *analysis) preloadedAtEveryLaunch(kernel string) bool {
	launched := 0
	for _, l := range a.file.Launches {
		if l.Kernel != kernel {
			continue
		}
		launched++
		if l.Func == nil {
			return false
		}
		events := a.hostEvents(l.Func)
		others := 0
		for _, e := range events {
			if e.launch == nil || e.launch.Kernel == kernel || e.launch.Kernel == "" {
				continue
			}
			others++
			if !kernelLoadedOnTheWay(a.file, l.Node, e.launch.KernelKey()) {
				return false
			}
		}
		if others == 0 {
			return false
		}
	}
	return launched > 0
}

func sortEvents(es []hostEvent) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].node.Start() < es[j-1].node.Start(); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// kernelLoadedOnTheWay reports whether the kernel key is loaded (preloaded
// or launched) on the way to n.
func kernelLoadedOnTheWay(f *cudaparse.File, n cudaparse.Node, key string) bool {
	keys, all := f.LoadedOnTheWay(n)
	if all {
		return true
	}
	for _, k := range keys {
		if cudaparse.SameKernel(k, key) {
			return true
		}
	}
	return false
}

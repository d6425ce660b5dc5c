// Package ll003 reports kernels that spin until another kernel, a copy or
// the host releases them, and host code that launches a not-yet-loaded
// kernel while such a waiter may be running.
package ll003

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

//go:embed doc.md
var doc string

// Rule is LL003.
var Rule = &rule.Rule{
	ID:        "LL003",
	Name:      "cross-kernel-spin-wait",
	Severity:  rule.Error,
	Since:     "0.1.0",
	Summary:   "a kernel spins until another kernel, copy or the host releases it; a releaser that still has to load deadlocks",
	Doc:       doc,
	Prefilter: prefilter,
	// A wait is a loop in a function declared __device__ or __global__.
	DeviceCodeOnly: true,
	// A library that preloads its kernel table at start-up (NCCL) has
	// nothing left to load while its kernels wait on its proxy threads
	// (ProjectPreloads). A wait released by the same kernel's code in
	// another header (a persistent kernel's producer stage) is not a hazard
	// (UnitDevice).
	Requires: []*rule.Fact{rule.ProjectPreloads, rule.UnitDevice},
	Run:      run,
}

// prefilter: a file needs device code and a way to wait. `volatile` counts
// only on data (cudaparse.VolatileData), not in `asm volatile`, which every
// PTX-heavy header is full of.
func prefilter(text *rule.Text) bool {
	// "_global" and "_device" also find __global__ and __device__.
	if !text.ContainsAny("_global", "_device", "DEVICE", "GLOBAL", "KERNEL") {
		return false
	}
	// A wait is a loop statement of the file's device code (waiters):
	// a file that spells none is parsed for nothing (129 of the
	// 13-project tree's parses, a tenth of its parse time, most of them
	// PTX-heavy headers of wrappers).
	if !cudaparse.SpellsLoop(text.Src) {
		return false
	}
	// The recognizer's words (spin.go): no-op atomics, atomic objects and
	// loads, cache-bypassing intrinsics, PTX loads with an ordering. Such
	// a read spins only when called in a loop, itself or through a helper
	// of the file; most files that spell atomics call them once a thread.
	if text.ContainsAny("atomic", "__ld") && text.ContainsAny(readWords...) && cudaparse.CallsInLoopThrough(text.Src, spinCalls) {
		return true
	}
	if text.Contains("ld.") && text.ContainsAny(ptxSpinMarkers...) {
		return true
	}
	// READ_ONCE/ACCESS_ONCE-style macros hide the volatile in a header.
	if text.Contains("_ONCE(") {
		return true
	}
	return text.Contains("volatile") && cudaparse.VolatileData(text.Src)
}

// spinCalls are the calls spinReadAt takes for reads: no-op atomics,
// atomicCAS, cache-bypassing and atomic loads, an atomic object's methods.
// The prefilter looks for them in loops, called directly or through the
// file's helpers (newAnalysis's readers, two levels).
var spinCalls = func() []string {
	out := []string{"atomicCAS", "atomicCAS_system"}
	for _, m := range []map[string]bool{noOpAtomics, volatileLoads, atomicObjectMethods} {
		for name := range m {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}()

// readWords are literals one of which every spin read of spin.go that is
// not a volatile access or PTX contains.
var readWords = func() []string {
	out := []string{"atomicCAS", "atomic_", "atomic<", "atomic ", "atomic\t"}
	for name := range noOpAtomics {
		out = append(out, name)
	}
	for name := range volatileLoads {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}()

type analysis struct {
	file *cudaparse.File
	// readers are device functions of the file that spin-read a parameter;
	// writers, those that store through some of theirs
	// (store_release(&flag[i], 1)).
	readers         map[string]*reader
	writers         map[string][]int
	volatileGlobals map[string]bool
	volatileMembers map[string]bool
	atomicMembers   map[string]bool
	// systemWritten are the locations device code of the file writes with
	// a system-scope operation (atomicAdd_system, st.release.sys,
	// red.sys): the way a GPU signals a peer GPU or the host.
	systemWritten map[string]bool
}

type reader struct {
	param int
	how   string
}

// waiter is a spin loop in device code.
type waiter struct {
	fn   *cudaparse.Function
	loop cudaparse.Node
	read spinRead
	// watchdog is the test that gives up waiting (a clock or a spin
	// count), if the loop has one.
	watchdog cudaparse.Node
}

func run(p *rule.Pass) {
	a := newAnalysis(p.File)
	waiters := a.waiters()
	if len(waiters) == 0 || p.PreloadsEveryKernel() {
		// Every kernel of the project is loaded before any can wait:
		// nothing that releases a waiter has to load.
		return
	}
	// Kernels whose code (or whose device callees) spin, and the loop.
	waitingKernels := map[string]waiter{}
	for _, w := range waiters {
		kernels := a.kernelsReaching(w.fn)
		if a.selfReleased(w, kernels) {
			continue
		}
		for _, k := range kernels {
			if _, seen := waitingKernels[k.Name]; !seen {
				waitingKernels[k.Name] = w
			}
		}
		if len(kernels) > 0 && allPreloaded(a, kernels) {
			continue
		}
		verdict, unseen := a.windows(p, w, kernels)
		if verdict == windowQuiet {
			continue // nothing loads before a synchronization or the release
		}
		a.report(p, w, kernels, verdict == windowUnseen && !a.unloadedReleaser(w, kernels, unseen))
	}
	if len(waitingKernels) > 0 {
		a.checkHost(p, waitingKernels)
	}
}

// allPreloaded reports whether every launch of every waiting kernel comes
// after the file's other kernels were loaded.
func allPreloaded(a *analysis, kernels []*cudaparse.Function) bool {
	for _, k := range kernels {
		if !a.preloadedAtEveryLaunch(k.Name) {
			return false
		}
	}
	return true
}

// report reports a waiter. unsure is set when what runs while it waits is
// out of sight and no kernel of the file that still has to load releases
// it: the finding says so and is reported at info severity.
func (a *analysis) report(p *rule.Pass, w waiter, kernels []*cudaparse.Function, unsure bool) {
	names := make([]string, 0, len(kernels))
	for _, k := range kernels {
		names = append(names, k.Name)
	}
	sort.Strings(names)
	who, unseen := "this device function", "no kernel of this file runs it"
	if len(names) > 0 {
		who = "kernel " + strings.Join(names, ", ")
		unseen = "this file does not launch it"
		if a.launchesAny(names) {
			unseen = "the functions that launch it return while it runs, to callers out of sight"
		}
	}
	outcome := "deadlock"
	opts := []rule.FindingOption{rule.Related(w.loop, "wait loop")}
	if w.watchdog.Valid() {
		// The loop gives up: lazy loading turns it into a timeout.
		outcome = "the wait ends only by its watchdog, as a timeout"
		opts = append(opts, rule.Related(w.watchdog, "watchdog"))
	}
	if unsure {
		// The host, a copy, a NIC or a peer may release it, which needs
		// no load; whether a kernel loads before the release is decided
		// where it is launched, which this file does not show.
		opts = append(opts, rule.AtMost(rule.Info))
		p.Report(w.read.node, fmt.Sprintf("%s spins on %s (%s) until another kernel, a copy or the host releases it, and %s: it hangs under lazy loading only if a kernel that was not loaded before its launch is launched or preloaded before its release (measured on an H100: %s), which lazylint cannot see from here; make sure the code that launches it loads every such kernel first (cudaFuncGetAttributes), or run with CUDA_MODULE_LOADING=EAGER",
			who, describe(w.read), w.read.how, unseen, outcome), opts...)
		return
	}
	p.Report(w.read.node, fmt.Sprintf("%s spins on %s (%s) until another kernel, a copy or the host releases it: under lazy loading a releaser that still has to load cannot run while the waiter occupies the device (measured on an H100: %s); preload every kernel that can run while it waits (cudaFuncGetAttributes), or run with CUDA_MODULE_LOADING=EAGER",
		who, describe(w.read), w.read.how, outcome), opts...)
}

func (a *analysis) launchesAny(kernels []string) bool {
	for _, l := range a.file.Launches {
		if slices.Contains(kernels, l.Kernel) {
			return true
		}
	}
	return false
}

// unloadedReleaser reports whether a kernel of the file other than the
// waiting ones writes the location the waiter reads and is not known to be
// loaded before the waiter's launch in every context the file shows (a
// releaser queued before the waiter was loaded by its own launch). Such a
// kernel is the measured deadlock: it has to load while the waiter spins.
func (a *analysis) unloadedReleaser(w waiter, kernels []*cudaparse.Function, contexts []launchContext) bool {
	if w.read.key == "" {
		return false
	}
	for _, fn := range a.file.Functions {
		if !fn.IsKernel() || slices.Contains(kernels, fn) {
			continue
		}
		code := map[*cudaparse.Function]bool{fn: true}
		a.addCallees(fn, code)
		writes := false
		for c := range code {
			writes = writes || a.writes(c.Body, w.read.key)
		}
		if !writes {
			continue
		}
		if len(contexts) == 0 {
			return true
		}
		for _, ctx := range contexts {
			if !a.loadedIn(ctx, fn.Name) {
				return true
			}
		}
	}
	return false
}

func describe(r spinRead) string {
	if r.key != "" {
		return r.key
	}
	return "memory"
}

func newAnalysis(f *cudaparse.File) *analysis {
	a := &analysis{
		file:            f,
		readers:         map[string]*reader{},
		writers:         map[string][]int{},
		volatileGlobals: map[string]bool{},
		volatileMembers: map[string]bool{},
		atomicMembers:   map[string]bool{},
		systemWritten:   map[string]bool{},
	}
	for _, d := range f.NodesOfKind("declaration", "field_declaration") {
		typ := d.ChildByField("type").Text()
		isVolatile := strings.Contains(typ, "volatile") || typeQualified(d, "volatile")
		isAtomic := strings.Contains(typ, "atomic")
		inFunction := d.Ancestor("function_definition").Valid()
		for _, decl := range d.ChildrenByField("declarator") {
			name := declName(decl)
			switch {
			case d.Is("field_declaration") && isVolatile:
				a.volatileMembers[name] = true
			case d.Is("field_declaration") && isAtomic:
				a.atomicMembers[name] = true
			case !inFunction && isVolatile:
				a.volatileGlobals[name] = true
			}
		}
	}
	// Device helpers that return (or compare) a spin read of a parameter:
	// __device__ int load_acquire(const int *p) { asm("ld.acquire..." : "l"(p)); }
	for range 2 { // helpers of helpers
		for _, fn := range f.Functions {
			if fn.Space&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) == 0 || fn.IsKernel() || a.readers[fn.Name] != nil {
				continue
			}
			for _, r := range a.spinReadsIn(fn.Body, fn) {
				for _, prm := range fn.Params {
					if prm.Name == r.key {
						a.readers[fn.Name] = &reader{param: prm.Index, how: r.how}
					}
				}
			}
		}
	}
	for _, fn := range f.Functions {
		if fn.Space&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) != 0 {
			a.noteSystemWrites(fn)
		}
		if fn.Space&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) == 0 || fn.IsKernel() {
			continue
		}
		for _, prm := range fn.Params {
			if a.writes(fn.Body, prm.Name) {
				a.writers[fn.Name] = append(a.writers[fn.Name], prm.Index)
			}
		}
	}
	return a
}

func declName(d cudaparse.Node) string {
	for d.Valid() && !d.Is("identifier", "field_identifier") {
		next := d.ChildByField("declarator")
		if !next.Valid() {
			return ""
		}
		d = next
	}
	return d.Text()
}

// waiters finds the spin loops of device code: loops whose condition (or,
// for an endless loop, a break condition) reads memory another agent
// releases, and whose body does not produce that value itself.
func (a *analysis) waiters() []waiter {
	var out []waiter
	for _, fn := range a.file.Functions {
		if fn.Space&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) == 0 || a.readers[fn.Name] != nil {
			continue
		}
		fn.Body.Descendants(func(n cudaparse.Node) bool {
			if !n.Is("while_statement", "do_statement", "for_statement") {
				return true
			}
			for _, r := range a.loopReads(n, fn) {
				if r.key != "" && a.writes(n.ChildByField("body"), r.key) {
					continue // the loop produces the value it waits for
				}
				out = append(out, waiter{fn: fn, loop: n, read: r, watchdog: watchdogOf(n)})
				break
			}
			return true
		})
	}
	return out
}

// loopReads returns the spin reads that decide whether loop n goes on.
func (a *analysis) loopReads(n cudaparse.Node, fn *cudaparse.Function) []spinRead {
	cond := n.ChildByField("condition")
	if cond.Valid() && !isConstantTrue(cond) {
		if reads := a.spinReadsIn(cond, fn); len(reads) > 0 {
			return reads
		}
		return a.copiedReads(cond, n.ChildByField("body"), fn)
	}
	// while (true) / for (;;): the reads in the tests of its exits.
	var out []spinRead
	n.ChildByField("body").Descendants(func(x cudaparse.Node) bool {
		if x.Is("while_statement", "do_statement", "for_statement", "lambda_expression") {
			return false
		}
		if x.Is("if_statement") && exits(x.ChildByField("consequence")) {
			out = append(out, a.spinReadsIn(x.ChildByField("condition"), fn)...)
		}
		return true
	})
	if len(out) == 0 {
		// v = load(flag); if (v == target) break;  the read is in the body
		n.ChildByField("body").Descendants(func(x cudaparse.Node) bool {
			if x.Is("while_statement", "do_statement", "for_statement", "lambda_expression", "if_statement") {
				return false
			}
			if r, ok := a.spinReadAt(x, fn); ok {
				out = append(out, r)
				return false
			}
			return true
		})
		if !hasExit(n.ChildByField("body")) {
			return nil
		}
	}
	return out
}

// copiedReads returns the spin reads a loop's condition sees through a
// local the body assigns them to: `do { v = *flag; } while (v != want);`.
func (a *analysis) copiedReads(cond, body cudaparse.Node, fn *cudaparse.Function) []spinRead {
	tested := map[string]bool{}
	cond.Descendants(func(x cudaparse.Node) bool {
		if x.Is("identifier") {
			tested[x.Text()] = true
		}
		return true
	})
	var out []spinRead
	body.Descendants(func(x cudaparse.Node) bool {
		if x.Is("while_statement", "do_statement", "for_statement", "lambda_expression") {
			return false
		}
		var value cudaparse.Node
		switch {
		case x.Is("assignment_expression") && tested[x.ChildByField("left").Unparen().Text()]:
			value = x.ChildByField("right")
		case x.Is("init_declarator") && tested[declName(x)]:
			value = x.ChildByField("value")
		default:
			return true
		}
		out = append(out, a.spinReadsIn(value, fn)...)
		return false
	})
	return out
}

// watchdogOf returns the test in a wait loop that leaves it after a time
// or a number of spins: `if (clock64() - t0 > budget) break;`,
// `if (++spins > kMaxSpins) return;`, or the invalid node.
func watchdogOf(loop cudaparse.Node) cudaparse.Node {
	var out cudaparse.Node
	counters := map[string]bool{}
	loop.ChildByField("body").Descendants(func(x cudaparse.Node) bool {
		if x.Is("update_expression") {
			counters[cudaparse.VarKey(x.ChildByField("argument"))] = true
		}
		return true
	})
	var tests []cudaparse.Node
	loopCond := loop.ChildByField("condition")
	if loopCond.Valid() {
		tests = append(tests, loopCond)
	}
	loop.ChildByField("body").Descendants(func(x cudaparse.Node) bool {
		if x.Is("while_statement", "do_statement", "for_statement", "lambda_expression") {
			return false
		}
		if x.Is("if_statement") && exits(x.ChildByField("consequence")) {
			tests = append(tests, x.ChildByField("condition"))
		}
		return true
	})
	for _, t := range tests {
		t.Descendants(func(x cudaparse.Node) bool {
			switch {
			case out.Valid():
			case x.Is("call_expression") && knowledge.DeviceClocks[x.ChildByField("function").Name()],
				x.Is("gnu_asm_expression") && strings.Contains(x.Text(), "globaltimer"):
				out = t
			case x.Is("update_expression") && counters[cudaparse.VarKey(x.ChildByField("argument"))] && x.Parent().Is("binary_expression"):
				out = t // ++spins > limit
			case x.Is("binary_expression") && strings.ContainsAny(x.ChildByField("operator").Text(), "<>=") && t != loopCond &&
				(counters[cudaparse.VarKey(x.ChildByField("left"))] || counters[cudaparse.VarKey(x.ChildByField("right"))]):
				out = t // spins > limit, with spins++ elsewhere in the loop
			}
			return !out.Valid()
		})
	}
	return out
}

func isConstantTrue(cond cudaparse.Node) bool {
	t := compact(cond.Text())
	return t == "(true)" || t == "(1)" || t == "true" || t == "1" || t == ""
}

func exits(n cudaparse.Node) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if x.Is("break_statement", "return_statement") {
			found = true
		}
		return !found && !x.Is("while_statement", "for_statement", "do_statement", "switch_statement")
	})
	return found || n.Is("break_statement", "return_statement")
}

func hasExit(body cudaparse.Node) bool { return exits(body) }

// writes reports whether n writes the location key: an assignment through
// it, an atomic on it, or a release store in PTX.
func (a *analysis) writes(n cudaparse.Node, key string) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if found {
			return false
		}
		switch x.Kind() {
		case "assignment_expression":
			if resolvedKey(x.ChildByField("left")) == key {
				found = true
			}
		case "update_expression":
			if resolvedKey(x.ChildByField("argument")) == key {
				found = true
			}
		case "call_expression":
			if _, isRead := a.spinReadAt(x, nil); isRead {
				return false // atomicCAS(p, v, v) and atomicAdd(p, 0) only read
			}
			name := x.ChildByField("function").Name()
			args := x.ChildByField("arguments").NamedChildren()
			if write, ok := a.file.VolatileAccessMacro(name); ok && write && len(args) > 0 && resolvedKey(args[0]) == key {
				found = true // a write through a write-once macro
			}
			for _, k := range a.writers[name] {
				if k < len(args) && resolvedKey(args[k]) == key {
					found = true
				}
			}
			if len(args) > 0 && resolvedKey(args[0]) == key {
				if (atomicWrites[name] && !(noOpAtomics[name] && len(args) == 2 && isZero(a, args[1]))) || name == "store" || name == "fetch_add" || name == "exchange" {
					found = true
				}
			}
			if fn := x.ChildByField("function"); fn.Is("field_expression") && resolvedKey(fn.ChildByField("argument")) == key {
				if knowledge.AtomicStoreMethods[fn.ChildByField("field").Text()] {
					found = true
				}
			}
		case "gnu_asm_expression":
			t := strings.ToLower(x.ChildByField("assembly_code").Text())
			if strings.Contains(t, "st.") || strings.Contains(t, "red.") || strings.Contains(t, "atom.") {
				for _, addr := range cudaparse.AsmAddressOperands(x) {
					if resolvedKey(addr) == key {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// kernelsReaching returns the kernels of the file whose code runs fn:
// fn itself, or kernels that call it through device functions.
func (a *analysis) kernelsReaching(fn *cudaparse.Function) []*cudaparse.Function {
	if fn.IsKernel() {
		return []*cudaparse.Function{fn}
	}
	callers := map[*cudaparse.Function]bool{fn: true}
	for changed := true; changed; {
		changed = false
		for _, c := range a.file.Calls {
			if c.Func == nil || callers[c.Func] {
				continue
			}
			if callee := a.file.FunctionNamed(c.Name); callee != nil && callers[callee] {
				callers[c.Func] = true
				changed = true
			}
		}
	}
	var out []*cudaparse.Function
	for f := range callers {
		if f.IsKernel() {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node.Start() < out[j].Node.Start() })
	return out
}

// selfReleased reports whether the location a waiter reads is written by
// the same kernel (outside the wait loop): blocks of one kernel waiting on
// each other (decoupled look-back), or peers running the same kernel on
// other GPUs. That kernel is loaded already; nothing has to load to
// release it.
func (a *analysis) selfReleased(w waiter, kernels []*cudaparse.Function) bool {
	if w.read.key == "" {
		return false
	}
	code := map[*cudaparse.Function]bool{w.fn: true}
	for _, k := range kernels {
		code[k] = true
		a.addCallees(k, code)
	}
	if len(kernels) == 0 {
		// No kernel of this file runs the waiter (it is called from
		// elsewhere): any device code of the file may be its own kernel's.
		for _, fn := range a.file.Functions {
			if fn.Space&(cudaparse.SpaceDevice|cudaparse.SpaceGlobal) != 0 {
				code[fn] = true
			}
		}
	}
	for fn := range code {
		if a.writes(fn.Body, w.read.key) {
			return true
		}
	}
	return a.peerProtocol(code, w.read.key) || a.symmetricAcrossDevices(code, kernels) || peerIndexed(w.read.node, 0) ||
		a.releasedInUnit(w)
}

// releasedInUnit reports whether the memory a waiter reads, named in words
// other files share (cudaparse.OriginKey: the accessor that returns it, the
// member it is), is written by device code that a kernel running the
// waiter also runs, in this file or in the other files of its translation
// units (a persistent kernel whose producer stage lives in another
// header). Device functions are matched by name.
func (a *analysis) releasedInUnit(w waiter) bool {
	if w.read.origin == "" {
		return false
	}
	unit := a.file.UnitDevice(w.read.origin)
	if len(unit) == 0 {
		return false
	}
	all := append(append([]cudaparse.DeviceSummary(nil), a.file.DeviceSummaries()...), unit...)
	calls := map[string][]string{}
	callers := map[string][]string{}
	kernel := map[string]bool{}
	releases := map[string]bool{}
	for _, d := range all {
		calls[d.Name] = append(calls[d.Name], d.Calls...)
		for _, c := range d.Calls {
			callers[c] = append(callers[c], d.Name)
		}
		kernel[d.Name] = kernel[d.Name] || d.Kernel
		if slices.Contains(d.Releases, w.read.origin) {
			releases[d.Name] = true
		}
	}
	if len(releases) == 0 {
		return false
	}
	walk := func(from []string, next map[string][]string) map[string]bool {
		seen := map[string]bool{}
		for len(from) > 0 {
			name := from[len(from)-1]
			from = from[:len(from)-1]
			if seen[name] {
				continue
			}
			seen[name] = true
			from = append(from, next[name]...)
		}
		return seen
	}
	var kernels []string
	for name := range walk([]string{w.fn.Name}, callers) {
		if kernel[name] {
			kernels = append(kernels, name)
		}
	}
	for name := range walk(kernels, calls) {
		if releases[name] {
			return true
		}
	}
	return false
}

// peerIndexed reports whether the memory a read waits on is picked by a
// rank or peer index, directly or through the locals it comes from
// (`flag = barrier_ptrs[remote_rank] + i`): another GPU's memory, which
// that GPU's kernels signal, and launches there are not serialized by
// loading here.
func peerIndexed(n cudaparse.Node, depth int) bool {
	if depth > 4 || !n.Valid() {
		return false
	}
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if found {
			return false
		}
		switch {
		case x.Is("subscript_expression"):
			x.ChildByField("indices").Descendants(func(ix cudaparse.Node) bool {
				if ix.Is("identifier", "field_identifier") && (peerName.MatchString(ix.Text()) || peerIndexName.MatchString(ix.Text())) {
					found = true
				}
				return !found
			})
		case x.Is("identifier") && depth < 4:
			for _, d := range x.File().ReachingDefs(x) {
				if (d.Op == cudaparse.DefInit || d.Op == cudaparse.DefAssign) && d.Value.Valid() && !d.Value.Contains(x) && peerIndexed(d.Value, depth+1) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// symmetricAcrossDevices reports whether the waiting kernels are launched
// once per device (in a loop that makes each device current) and signal
// through memory themselves: every GPU runs the same kernel, writes its
// own slot and waits for the others' (arrival_mine / arrival_other). The
// releasers are the same kernel on the other GPUs, which loading on this
// one does not hold up (measured on H100/H200).
func (a *analysis) symmetricAcrossDevices(code map[*cudaparse.Function]bool, kernels []*cudaparse.Function) bool {
	if len(kernels) == 0 {
		return false
	}
	for _, k := range kernels {
		if !a.launchedPerDevice(k.Name) {
			return false
		}
	}
	for fn := range code {
		if a.signals(fn.Body) {
			return true
		}
	}
	return false
}

// launchedPerDevice reports whether the file launches kernel, and every
// launch is in a loop whose body makes another device current.
func (a *analysis) launchedPerDevice(kernel string) bool {
	launched := false
	for _, l := range a.file.Launches {
		if l.Kernel != kernel {
			continue
		}
		launched = true
		loop := l.Node.Ancestor("for_statement", "while_statement", "do_statement", "for_range_loop")
		if !loop.Valid() || !a.switchesDevice(loop.ChildByField("body"), map[string]bool{}) {
			return false
		}
	}
	return launched
}

// switchesDevice reports whether n calls cudaSetDevice or the like,
// directly, through a function of the file, or through a wrapper whose
// name says so (ggml_cuda_set_device).
func (a *analysis) switchesDevice(n cudaparse.Node, seen map[string]bool) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if found || !x.Is("call_expression") {
			return !found
		}
		name := x.ChildByField("function").Name()
		lower := strings.ToLower(name)
		switch {
		case cudaparse.IsDeviceSwitch(name) || strings.Contains(lower, "setdevice") || strings.Contains(lower, "set_device"):
			found = true
		case !seen[name]:
			seen[name] = true
			if fn := a.file.FunctionNamed(name); fn != nil && a.switchesDevice(fn.Body, seen) {
				found = true
			}
		}
		return !found
	})
	return found
}

// signals reports whether n stores to memory other agents watch: through
// a volatile lvalue, an atomic, a writer helper of the file, a volatile
// access macro, or a PTX store, reduction or atomic.
func (a *analysis) signals(n cudaparse.Node) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		switch x.Kind() {
		case "assignment_expression":
			if _, ok := a.volatileBase(x.ChildByField("left").Unparen(), nil); ok {
				found = true
			}
		case "call_expression":
			name := x.ChildByField("function").Name()
			if write, ok := a.file.VolatileAccessMacro(name); ok && write || atomicWrites[name] && !isNoOp(a, x) || len(a.writers[name]) > 0 {
				found = true
			}
		case "gnu_asm_expression":
			t := strings.ToLower(x.ChildByField("assembly_code").Text())
			found = strings.Contains(t, "st.") || strings.Contains(t, "red.") || strings.Contains(t, "atom.")
		}
		return !found
	})
	return found
}

// noteSystemWrites records the locations fn writes with system scope.
func (a *analysis) noteSystemWrites(fn *cudaparse.Function) {
	fn.Body.Descendants(func(x cudaparse.Node) bool {
		switch x.Kind() {
		case "call_expression":
			name := x.ChildByField("function").Name()
			args := x.ChildByField("arguments").NamedChildren()
			if atomicWrites[name] && strings.HasSuffix(name, "_system") && len(args) > 0 {
				a.systemWritten[resolvedKey(args[0])] = true
			}
		case "gnu_asm_expression":
			t := strings.ToLower(x.ChildByField("assembly_code").Text())
			if strings.Contains(t, ".sys") && (strings.Contains(t, "st.") || strings.Contains(t, "red.") || strings.Contains(t, "atom.")) {
				for _, addr := range cudaparse.AsmAddressOperands(x) {
					a.systemWritten[resolvedKey(addr)] = true
				}
			}
		}
		return true
	})
}

// peerName matches names of multi-GPU protocols: ranks, peers, multicast.
var peerName = regexp.MustCompile(`(?i)^(peer|peers|remote|rank|ranks|nranks|n_ranks|num_ranks|nRanks|myrank|my_rank|local_rank|world_size|npes|mype|my_pe)$|^(peer|remote|mc|uc)_|_(peer|mc|uc|remote)$|multimem`)

// peerIndexName matches indexes that pick a GPU's memory: peerName's, and
// src_rank, dst_rank, target_pe.
var peerIndexName = regexp.MustCompile(`(?i)_rank$|^rank_|_pe$`)

// peerProtocol reports whether code is one side of a multi-GPU protocol:
// it names ranks or peers and signals through memory itself (an atomic, a
// release store, a multimem reduction). Its waits are released by the same
// kernel running on the other GPUs, and launches on another GPU are not
// serialized by loading (measured on H100/H200).
//
// A waiter on memory of a multi-GPU window (`uc_flagptr`, an NCCL window
// or communicator, NVSHMEM) that names ranks counts too, even when another
// kernel of the collective is what signals.
func (a *analysis) peerProtocol(code map[*cudaparse.Function]bool, key string) bool {
	names, signals := false, false
	if peerName.MatchString(key) || peerName.MatchString(key[strings.LastIndexByte(key, '.')+1:]) || len(a.systemWritten) > 0 {
		// A peer-named location, or a file whose device code signals with
		// system scope (a sending kernel's atomicAdd_system on the flag
		// that the receiving kernel, on the other GPU, waits on; the two
		// name it differently).
		signals = true
	}
	for fn := range code {
		for _, prm := range fn.Params {
			names = names || peerName.MatchString(prm.Name)
		}
		fn.Body.Descendants(func(x cudaparse.Node) bool {
			switch {
			case x.Is("identifier", "field_identifier"):
				names = names || peerName.MatchString(x.Text())
			case x.Is("call_expression"):
				n := x.ChildByField("function").Name()
				if atomicWrites[n] && !isNoOp(a, x) || signalCall.MatchString(n) && mentionsPeer(x.ChildByField("arguments")) {
					signals = true
				}
			case x.Is("type_identifier", "namespace_identifier"):
				signals = signals || multiGPUType.MatchString(x.Text())
			case x.Is("gnu_asm_expression"):
				t := strings.ToLower(x.ChildByField("assembly_code").Text())
				signals = signals || strings.Contains(t, "st.release") || strings.Contains(t, "multimem") ||
					strings.Contains(t, "red.") || strings.Contains(t, "atom.")
			}
			return true
		})
	}
	return names && signals
}

// signalCall matches macros and functions that signal peers:
// ATOMIC_UCINC(peer_flag + k), nvshmem_signal_op, put_signal.
var signalCall = regexp.MustCompile(`(?i)atomic|signal|notify|put|store|red|inc`)

// multiGPUType matches types of multi-GPU communication libraries.
var multiGPUType = regexp.MustCompile(`^(ncclWindow|ncclDevComm|ncclComm|ncclTeam|nvshmem)|Window_t$`)

func mentionsPeer(n cudaparse.Node) bool {
	found := false
	n.Descendants(func(x cudaparse.Node) bool {
		if x.Is("identifier") && peerName.MatchString(x.Text()) {
			found = true
		}
		return !found
	})
	return found
}

func isNoOp(a *analysis, call cudaparse.Node) bool {
	_, isRead := a.spinReadAt(call, nil)
	return isRead
}

func (a *analysis) addCallees(fn *cudaparse.Function, seen map[*cudaparse.Function]bool) {
	for _, c := range a.file.Calls {
		if c.Func != fn {
			continue
		}
		if callee := a.file.FunctionNamed(c.Name); callee != nil && !seen[callee] {
			seen[callee] = true
			a.addCallees(callee, seen)
		}
	}
}

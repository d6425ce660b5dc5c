package ll001

import (
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/knowledge"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// Allocations that take the memory but cannot starve a lazy load.

// outOfMemory matches the spellings of an allocation failure.
var outOfMemory = regexp.MustCompile(`cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY|out_of_memory|bad_alloc|OutOfMemory|OUT_OF_MEMORY`)

// expectsOutOfMemory reports whether the code expects the allocation to
// fail, as a test of out-of-memory handling does: an assertion holding the
// allocation and a failure code (EXPECT_EQ(cudaMalloc(&p, free * 2),
// cudaErrorMemoryAllocation)), or an assertion comparing its stored result
// with one.
func expectsOutOfMemory(c *cudaparse.Call) bool {
	for p := c.Node.Parent(); p.Valid() && !p.Is("compound_statement", "function_definition"); p = p.Parent() {
		if p.Is("call_expression") && cudaparse.TestAssertion.MatchString(p.ChildByField("function").Name()) && outOfMemory.MatchString(p.Text()) {
			return true
		}
	}
	result := resultVariable(c)
	if result == "" || c.Func == nil {
		return false
	}
	for _, other := range c.Node.File().Calls {
		if other.Func != c.Func || other.Node.Start() < c.Node.End() || !cudaparse.TestAssertion.MatchString(other.Name) {
			continue
		}
		mentions := false
		for _, arg := range other.Args {
			mentions = mentions || cudaparse.VarKey(arg) == result
		}
		if mentions && outOfMemory.MatchString(other.Node.Text()) {
			return true
		}
	}
	return false
}

// freeCalls free device memory, their pointer first.
var freeCalls = map[string]bool{
	"cudaFree": true, "cudaFreeAsync": true, "cuMemFree": true, "cuMemFree_v2": true, "cuMemFreeAsync": true,
}

// freedBeforeLoading reports whether the function frees the allocation
// again before it launches a kernel or loads a module (directly or through
// a function of the file): a probe of how much fits, or a scratch buffer,
// which is gone before anything has to load.
func (a *analysis) freedBeforeLoading(c *cudaparse.Call) bool {
	if c.Func == nil || len(c.Args) == 0 {
		return false
	}
	ptr := addressedVar(c.Args[0])
	if ptr == "" {
		return false
	}
	for _, f := range a.file.Calls {
		if f.Func != c.Func || !freeCalls[f.Name] || len(f.Args) == 0 || cudaparse.VarKey(f.Args[0]) != ptr ||
			!cudaparse.OnTheWay(c.Node, f.Node) {
			continue
		}
		if asyncFrees[f.Name] && a.keepingPool != nil {
			return false // the pool keeps what cudaFreeAsync gives back
		}
		return !a.loadsBetween(c.Func, c.Node.End(), f.Node.Start(), map[*cudaparse.Function]bool{})
	}
	return false
}

// asyncFrees give memory back to the pool it came from, not to the device.
var asyncFrees = map[string]bool{"cudaFreeAsync": true, "cuMemFreeAsync": true}

// releaseThresholdAttr names a pool's release threshold, in the runtime
// and driver APIs.
var releaseThresholdAttr = regexp.MustCompile(`\b(cudaMemPoolAttrReleaseThreshold|CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)\b`)

// keepsAll matches a threshold value that keeps every freed byte in the
// pool: the largest 64-bit value in its usual spellings.
var keepsAll = regexp.MustCompile(`UINT64_MAX|ULLONG_MAX|SIZE_MAX|numeric_limits\s*<[^>]*>\s*::\s*max\s*\(|~\s*0|\(\s*-1\s*\)|=\s*-1\b|0x[fF]{16}`)

// findKeepingPool returns the call of the file that raises a memory pool's
// release threshold to keep all freed memory (cudaMemPoolSetAttribute(pool,
// cudaMemPoolAttrReleaseThreshold, &max)), or nil. Memory freed with
// cudaFreeAsync then stays with the pool, out of reach of a lazy load, so
// an allocation freed that way before any launch still starves one. The
// value is read from the call's text or, passed by address, from the
// variable's declaration in the same function.
func (a *analysis) findKeepingPool() *cudaparse.Call {
	for _, c := range a.file.Calls {
		if c.Name != "cudaMemPoolSetAttribute" && c.Name != "cuMemPoolSetAttribute" || len(c.Args) < 3 || !releaseThresholdAttr.MatchString(c.Args[1].Text()) {
			continue
		}
		value := c.Args[2].Text()
		if v := addressedVar(c.Args[2]); v != "" && c.Func != nil {
			for _, d := range a.file.NodesOfKind("init_declarator") {
				if d.Start() >= c.Func.Node.Start() && d.End() <= c.Node.Start() && cudaparse.VarKey(d.ChildByField("declarator")) == v {
					value += " " + d.Text()
				}
			}
		}
		if keepsAll.MatchString(value) {
			return c
		}
	}
	return nil
}

// addressedVar is the variable whose address an allocator receives:
// p for &p, (void **)&p.
func addressedVar(n cudaparse.Node) string {
	n = n.Unparen()
	if n.Is("pointer_expression") && strings.HasPrefix(strings.TrimSpace(n.Text()), "&") {
		return cudaparse.VarKey(n.ChildByField("argument"))
	}
	return ""
}

// loadsBetween reports whether fn launches a kernel, or makes a call that
// may load one (callLoads), between two offsets.
func (a *analysis) loadsBetween(fn *cudaparse.Function, from, to int, seen map[*cudaparse.Function]bool) bool {
	seen[fn] = true
	for _, l := range a.file.LaunchesIn(fn) {
		if l.Node.Start() >= from && l.Node.Start() < to {
			return true
		}
	}
	for _, c := range a.file.CallsIn(fn) {
		if c.Node.Start() >= from && c.Node.Start() < to && a.callLoads(c, seen) {
			return true
		}
	}
	return false
}

// poolAllocators allocate from a memory pool (the device's default one or
// a named one).
var poolAllocators = map[string]bool{
	"cudaMallocAsync": true, "cudaMallocFromPoolAsync": true, "cuMemAllocAsync": true, "cuMemAllocFromPoolAsync": true,
}

// poolNote points, for a pool allocation in a file whose pool keeps all
// freed memory, at the call that made it keep it.
func (a *analysis) poolNote(c *cudaparse.Call) []rule.FindingOption {
	if !poolAllocators[c.Name] {
		return nil
	}
	if k := a.keepingPool; k != nil {
		return []rule.FindingOption{rule.Related(k.Callee, "the pool keeps memory freed with cudaFreeAsync (release threshold raised here)")}
	}
	return nil
}

// kernelLibrary matches the entry points of CUDA libraries that launch
// kernels of their own, which load lazily like the program's (the list
// LL003 uses for the same question).
var kernelLibrary = regexp.MustCompile(`^(cublas|cufft|cusparse|cusolver|curand|cudnn|cutensor|nccl|nvshmem|nvjpeg|npp)`)

// callLoads reports whether call c can load a kernel or module, as far as
// the file and the project show: a module load or kernel lookup, a CUDA
// library entry point, thrust or CUB, a function of the file that launches
// or loads (seen guards the recursion), or a function of the project whose
// facts say it launches or preloads a kernel.
func (a *analysis) callLoads(c *cudaparse.Call, seen map[*cudaparse.Function]bool) bool {
	switch q := cudaparse.CalleeQualifier(c); {
	case knowledge.IsModuleLoadName(c.Name), kernelLibrary.MatchString(c.Name):
		return true
	case knowledge.HandleAPIs[c.Name], knowledge.KernelResolvers[c.Name]:
		return true
	case q == "thrust" || strings.HasPrefix(q, "thrust::") || q == "cub" || strings.HasPrefix(q, "cub::"):
		return true
	}
	if _, ok := knowledge.LaunchAPIs[c.Name]; ok {
		return true
	}
	if callee := a.file.FunctionNamed(c.Name); callee != nil {
		return !seen[callee] && a.loadsBetween(callee, callee.Node.Start(), callee.Node.End(), seen)
	}
	p := a.pass
	if pf := p.ResolveCall(c); pf != nil {
		return !p.Loaders().Kernels(pf).Empty() || a.fileLoads(pf.File())
	}
	for _, pf := range p.Loaders().Definitions(c.Name) {
		// Defined more than once: any definition that may load counts.
		if !p.Loaders().Kernels(pf).Empty() || a.fileLoads(pf.File()) {
			return true
		}
	}
	return false
}

// fileLoads reports whether a file of the project has a function that
// launches or preloads a kernel. A call's own facts may miss a launch
// made through a table of function pointers (a test driver's list of
// tests): a call into such a file counts as one that may load.
func (a *analysis) fileLoads(path string) bool {
	p := a.pass
	if a.loadingFiles == nil {
		a.loadingFiles = map[string]bool{}
		for _, name := range p.Loaders().Names() {
			for _, pf := range p.Loaders().Definitions(name) {
				if pf.Kinds().Without(cudaparse.StepCall, cudaparse.StepDeviceSwitch) != 0 {
					a.loadingFiles[pf.File()] = true
				}
			}
		}
	}
	return a.loadingFiles[path]
}

// releasedAtScopeEnd reports whether the object a local declaration
// constructs (a pool, an arena or a device container, which give their
// memory back in their destructors) is destroyed at the end of its block
// before anything can load: no launch, module load or call that may load
// between the declaration and the block's end, and no `return` or
// `std::move` of the object there. A test that only constructs a 90% pool
// inside a lambda and lets it go is such a case.
func (a *analysis) releasedAtScopeEnd(decl cudaparse.Node, declarator cudaparse.Node) bool {
	if !decl.Is("declaration") || staticStorage(decl) {
		return false
	}
	block := decl.Parent()
	fn := a.file.FunctionOf(decl)
	if !block.Is("compound_statement") || fn == nil {
		return false
	}
	name := declaredName(declarator)
	if name == "" {
		return false
	}
	escapes := false
	block.Descendants(func(x cudaparse.Node) bool {
		if escapes || x.End() <= decl.End() {
			return !escapes
		}
		switch {
		case x.Is("return_statement"):
			x.Descendants(func(y cudaparse.Node) bool {
				escapes = escapes || y.Is("identifier") && y.Text() == name
				return !escapes
			})
		case x.Is("call_expression") && strings.HasSuffix(x.ChildByField("function").Text(), "move"):
			escapes = strings.Contains(x.ChildByField("arguments").Text(), name)
		}
		return !escapes
	})
	return !escapes && !a.scopeMayLoad(fn, decl.End(), block.End(), name)
}

// scopeMayLoad reports whether fn, between two offsets, launches a kernel
// or makes a call that may load one while the object name holds its
// memory. Calls of functions that neither the file nor the project
// defines count too (a library may launch), except the CUDA APIs that
// load nothing, the standard library, test assertions and the object's
// own methods.
func (a *analysis) scopeMayLoad(fn *cudaparse.Function, from, to int, name string) bool {
	if a.loadsBetween(fn, from, to, map[*cudaparse.Function]bool{}) {
		return true
	}
	for _, c := range a.file.CallsIn(fn) {
		if c.Node.Start() < from || c.Node.Start() >= to || a.file.FunctionNamed(c.Name) != nil || a.pass.ResolveCall(c) != nil ||
			a.pass.Loaders().Defines(c.Name) {
			continue
		}
		q := cudaparse.CalleeQualifier(c)
		own := c.Callee.Is("field_expression") && cudaparse.VarKey(c.Callee.ChildByField("argument")) == name
		if !own && !cudaparse.IsRuntimeAPI(c.Name) && !cudaparse.IsDriverAPI(c.Name) &&
			q != "std" && !strings.HasPrefix(q, "std::") && !cudaparse.TestAssertion.MatchString(c.Name) {
			return true
		}
	}
	return false
}

// staticStorage reports whether a declaration outlives its block.
func staticStorage(decl cudaparse.Node) bool {
	for _, c := range decl.Children() {
		if c.Is("storage_class_specifier") && (strings.Contains(c.Text(), "static") || strings.Contains(c.Text(), "extern") || strings.Contains(c.Text(), "thread_local")) {
			return true
		}
	}
	return false
}

// declaredName is the variable a declarator declares: mr for `mr{up, n}`,
// `mr(up, n)` (parsed as a function declarator) or `*mr = ...`.
func declaredName(d cudaparse.Node) string {
	for range 6 {
		if d.Is("identifier") {
			return d.Text()
		}
		next := d.ChildByField("declarator")
		if !next.Valid() {
			return ""
		}
		d = next
	}
	return ""
}

// gpuLibraryName matches calls of libraries outside the project whose
// names say they run GPU work (cv::cuda::add, faiss::gpu::..., a launch
// helper): a program calling one may load kernels.
var gpuLibraryName = regexp.MustCompile(`(?i)cuda|gpu|kernel|launch`)

// programLoadsNothing reports whether the file is a whole program that
// never loads a kernel: it defines main, defines and launches no kernel,
// loads no module and calls no CUDA library or project function that
// launches one. What it allocates cannot starve a lazy load (an
// allocator's own benchmark).
func (a *analysis) programLoadsNothing() bool {
	if a.loadsNothing != nil {
		return *a.loadsNothing
	}
	v := a.file.FunctionNamed("main") != nil && len(a.file.Launches) == 0 && len(declaredKernels(a.file)) == 0 && len(a.file.Preloads()) == 0
	for _, c := range a.file.Calls {
		if !v {
			break
		}
		cudaAPI := cudaparse.IsRuntimeAPI(c.Name) || cudaparse.IsDriverAPI(c.Name)
		v = !a.callLoads(c, map[*cudaparse.Function]bool{}) &&
			(cudaAPI || !gpuLibraryName.MatchString(cudaparse.CalleeQualifier(c)+"::"+c.Name))
	}
	a.loadsNothing = &v
	return v
}

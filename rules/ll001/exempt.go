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

// loadsBetween reports whether fn launches a kernel, loads a module or
// calls a function of the file that does, between two offsets.
func (a *analysis) loadsBetween(fn *cudaparse.Function, from, to int, seen map[*cudaparse.Function]bool) bool {
	seen[fn] = true
	for _, l := range a.file.Launches {
		if l.Func == fn && l.Node.Start() >= from && l.Node.Start() < to {
			return true
		}
	}
	for _, c := range a.file.Calls {
		if c.Func != fn || c.Node.Start() < from || c.Node.Start() >= to {
			continue
		}
		if knowledge.IsModuleLoadName(c.Name) {
			return true
		}
		if callee := a.file.FunctionNamed(c.Name); callee != nil && !seen[callee] &&
			a.loadsBetween(callee, callee.Node.Start(), callee.Node.End(), seen) {
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

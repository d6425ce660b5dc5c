package ll005

import (
	"fmt"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
)

// A per-device module cache filled on demand is the loop over devices
// spread over calls: `if (!modules[dev]) { cuCtxPushCurrent(ctx[dev]);
// cuModuleLoadData(&modules[dev], image); }`.

// cacheLoad reports whether load fills one slot of a table indexed by a
// device or context (its module handle is `&modules[dev]`), when that slot
// is empty (the load sits under a test of the same slot), with a context
// switch on the way in the same function; and returns the switch.
func cacheLoad(f *cudaparse.File, load *cudaparse.Call) (*cudaparse.Call, bool) {
	if load.Func == nil || len(load.Args) < 2 {
		return nil, false
	}
	slot := load.Args[0].Unparen()
	if !slot.Is("pointer_expression") || !strings.HasPrefix(strings.TrimSpace(slot.Text()), "&") {
		return nil, false
	}
	slot = slot.ChildByField("argument").Unparen()
	if !slot.Is("subscript_expression") {
		return nil, false
	}
	index := compact(slot.ChildByField("indices").Text())
	table := compact(slot.ChildByField("argument").Text())
	// The image must not be picked by the same index: one module for all.
	if strings.Contains(compact(load.Args[1].Text()), "["+strings.Trim(index, "[]")+"]") {
		return nil, false
	}
	// Under `if (!modules[dev])`, `if (modules[dev] == nullptr)` and the like.
	tested := false
	for p := load.Node.Parent(); p.Valid() && p != load.Func.Node; p = p.Parent() {
		if p.Is("if_statement") && strings.Contains(compact(p.ChildByField("condition").Text()), table+index) {
			tested = true
			break
		}
	}
	if !tested {
		return nil, false
	}
	for _, c := range f.Calls {
		if c.Func != load.Func || c.Node.Start() >= load.Node.Start() {
			continue
		}
		if _, ok := contextSwitchTarget[c.Name]; ok && cudaparse.OnTheWay(c.Node, load.Node) {
			return c, true
		}
	}
	return nil, false
}

func cacheMessage(load *cudaparse.Call) string {
	library := "cuLibraryLoadData"
	if load.Name == "cuModuleLoad" {
		library = "cuLibraryLoadFromFile"
	}
	return fmt.Sprintf("the same module is loaded into each context by hand (%s fills a per-device module cache on first use): since CUDA 12.0, %s loads it once for every context, current and future, and cuLibraryGetKernel gives one context-independent kernel handle to launch in whichever context is current; under lazy loading each context loads the kernels at first use either way",
		load.Name, library)
}

func checkCaches(p *rule.Pass, a *analysis, reported map[int]bool) {
	for _, c := range p.File.Calls {
		if !moduleLoads[c.Name] || reported[c.Node.Start()] || a.hasLibraryAlternative(c.Node, c.Func) {
			continue
		}
		if sw, ok := cacheLoad(p.File, c); ok {
			reported[c.Node.Start()] = true
			p.Report(c.Callee, cacheMessage(c), rule.Related(sw.Node, "the context of the device is made current here"))
		}
	}
}

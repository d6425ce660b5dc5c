package engine

import (
	"maps"
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/knowledge"
)

// A portability header may spell the launch for CUDA builds as a macro
// (`#define hipLaunchKernelGGL(F, G, B, M, S, ...) F<<<G, B, M, S>>>(
// __VA_ARGS__)`), and the project's sources launch only through it. The
// files including the header see its uses as launches when parsed (the
// macro is shared with them); for the project's facts, which read most
// files without a parse, the macro is a launcher whose kernel is the
// argument at its kernel parameter, as a configured one is, and the files
// spelling it define loaders.

// macroLaunchers returns the project's launch macros as launchers: those
// whose body launches the kernel one of its parameters names. A name
// defined with the kernel at two places is neither.
func (pr *projectRun) macroLaunchers() []knowledge.Helper {
	seen := map[string]knowledge.Helper{}
	conflicting := map[string]bool{}
	for i := range pr.facts {
		for _, m := range pr.facts[i].scanResult().macros {
			h, ok := launcherOf(m)
			if !ok {
				continue
			}
			if prior, dup := seen[m.Name]; dup && prior.Kernel != h.Kernel {
				conflicting[m.Name] = true
			}
			seen[m.Name] = h
		}
	}
	var out []knowledge.Helper
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		if !conflicting[name] {
			out = append(out, seen[name])
		}
	}
	return out
}

// launcherOf returns the launcher a launch macro is, when its kernel is
// one of its parameters (`F` of `F<<<G, B>>>(__VA_ARGS__)`).
func launcherOf(m cudaparse.Macro) (knowledge.Helper, bool) {
	kernel, ok := cudaparse.LaunchMacroKernel(m)
	if !ok {
		return knowledge.Helper{}, false
	}
	if i := strings.IndexByte(kernel, '<'); i >= 0 {
		kernel = kernel[:i]
	}
	i := slices.Index(m.Params, strings.TrimSpace(kernel))
	if i < 0 {
		return knowledge.Helper{}, false
	}
	return knowledge.Helper{Name: m.Name, Kernel: i}, true
}

// addMacroLoaders notes, for the project's launch macros, the functions of
// the files not parsed that launch through one (as LoaderDefinitions found
// those spelling a launch), and makes the macros launchers of the
// summaries read from the text.
func (pr *projectRun) addMacroLoaders() {
	launchers := pr.macroLaunchers()
	if len(launchers) == 0 {
		return
	}
	pr.launchMacros = launchers
	// A body launches through a macro where it spells the macro's name
	// and its parenthesis (LoaderDefinitions looks for that literal), so
	// the filters are asked about that literal: a name of two letters
	// (`KL`) alone has no three-byte sequence to ask about, and every
	// filter may contain it (which read 20,866 of the corpus's 21,775
	// files here).
	var lits [][]byte
	var probes []rule.NameProbe
	for _, h := range launchers {
		lits = append(lits, []byte(h.Name+"("))
		probes = append(probes, rule.NewNameProbe(h.Name+"("))
	}
	var files []int
	var filterBuf []byte // the filters read from disk, one at a time
	for i := range pr.facts {
		ff := &pr.facts[i]
		if ff.summary() != nil || !ff.hasFilter() {
			continue
		}
		nf := ff.scanFilter(pr.spill, &filterBuf)
		for _, p := range probes {
			if nf.MayContainProbe(p) {
				files = append(files, i)
				break
			}
		}
	}
	defined := make([][]string, len(files))
	onPool(len(files), pr.workers, func(_ *worker, k int) {
		src, err := ReadSource(pr.sources.abs(files[k]))
		if err != nil || binaryError(src) != nil {
			return
		}
		defined[k] = cudaparse.LoaderDefinitions(src, lits)
	})
	for k, i := range files {
		if len(defined[k]) > 0 {
			pr.facts[i].set(factLoader, true) // it launches, as one spelling <<< does
		}
		for _, name := range defined[k] {
			if !slices.Contains(pr.definedBy[name], i) {
				pr.definedBy[name] = append(pr.definedBy[name], i)
			}
		}
	}
}

// withMacroLaunchers returns a file's additions with the project's launch
// macros (memoized by the additions they extend).
func (pr *projectRun) withMacroLaunchers(a *knowledge.Additions) *knowledge.Additions {
	if len(pr.launchMacros) == 0 {
		return a
	}
	pr.launchAddMu.Lock()
	defer pr.launchAddMu.Unlock()
	if pr.launchAdd == nil {
		pr.launchAdd = map[*knowledge.Additions]*knowledge.Additions{}
	}
	if got, ok := pr.launchAdd[a]; ok {
		return got
	}
	got := a.WithLaunchers(pr.launchMacros)
	pr.launchAdd[a] = got
	return got
}

package engine

import (
	"cmp"
	"encoding/binary"
	"maps"
	"slices"
	"sort"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/cudaparse/link"
	"github.com/lazylint/lazylint/internal/rule"
	"github.com/lazylint/lazylint/internal/spill"
)

// findCallers runs the caller rounds: the functions that hold a finding in
// results may be warmed up by their callers. Files that may call them (by
// their name filters, then by their text) are summarized, with the files
// that define what those callers call; then the callers of those callers,
// up to maxLinkRounds. It reports whether it summarized any file.
func (pr *projectRun) findCallers(results sourceResults) bool {
	var holders []callerNode
	for i := range results.len() {
		sum := pr.facts[i].summary()
		if sum == nil {
			continue
		}
		for _, f := range results.findings(i) {
			if !f.Rule.RequiresFact(rule.CallerLoads) {
				continue
			}
			for _, fn := range sum.EachFunction() {
				if int(fn.Line) <= f.Start.Line && f.Start.Line <= int(fn.EndLine) && !fn.Entry {
					holders = append(holders, callerNode{i, fn.Name})
				}
			}
		}
	}
	added := false
	searched := map[string]bool{}
	for round := 0; round < maxLinkRounds; round++ {
		targets := pr.callerTargets(holders)
		var names []string
		for name := range targets {
			if !searched[name] {
				searched[name] = true
				names = append(names, name)
			}
		}
		if len(names) == 0 {
			break
		}
		sort.Strings(names)
		todo := pr.callerFiles(names)
		if len(todo) == 0 {
			continue
		}
		pr.summarize(todo)
		callers := map[string]bool{}
		for _, i := range todo {
			if sum := pr.facts[i].summary(); sum != nil {
				for _, fn := range sum.EachFunction() {
					if callsAny(fn, targets) {
						callers[fn.Name] = true
					}
				}
			}
		}
		pr.linkFrom(todo, callers)
		added = true
	}
	return added
}

// callerNode is a function of a file, by name.
type callerNode struct {
	file int
	name string
}

// callingFunction is a function of a summary: its file, and its index in
// the file summary's Functions.
type callingFunction struct {
	file, function int32
}

// callerTargets returns the names whose callers may decide the findings of
// the holders: the holders', and up the calls the summaries know, their
// callers' up to link.MaxCallerDepth (as far as the project's
// LoadedOnEntry looks). Entry functions have no callers to look for. A name
// that functions of more than maxCallerFiles files call (a run or test
// helper) is followed up only through callers in its own file: the calls
// of the others most likely reach another function of that name, and
// following them pulls in most of a large project.
func (pr *projectRun) callerTargets(holders []callerNode) map[string]bool {
	callersOf := pr.callingFunctions()
	depth := map[callerNode]int{}
	queue := make([]callerNode, 0, len(holders))
	for _, h := range holders {
		if _, ok := depth[h]; !ok {
			depth[h] = 0
			queue = append(queue, h)
		}
	}
	// Breadth first: every node gets its least depth, whatever the order.
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		if depth[node] >= link.MaxCallerDepth {
			continue
		}
		refs := callersOf[node.name]
		generic := calledFromFiles(refs) > maxCallerFiles
		for _, caller := range refs {
			ref := callerNode{int(caller.file), pr.facts[caller.file].summary().FunctionName(int(caller.function))}
			if _, ok := depth[ref]; ok || generic && ref.file != node.file {
				continue
			}
			depth[ref] = depth[node] + 1
			queue = append(queue, ref)
		}
	}
	targets := map[string]bool{}
	for node := range depth {
		targets[node.name] = true
	}
	return targets
}

// callingFunctions returns, by called name, the functions of the
// summaries that call it (not entry functions, not calls of their own
// name), each once, in the order of their files and functions. Only the
// names the summaries define are kept: the search climbs from functions
// of the summaries to their callers, which are functions of the
// summaries too. Every call of every summary (a library's functions,
// the runtime's) was 14-20 MB of the most live heap of sixteen copies of
// the 38-project corpus checked as one project; those of names defined
// are half of them. (A pass over the summaries for each level of the
// search held none, but read every summary's steps again each level:
// 7% more CPU for the corpus once.)
func (pr *projectRun) callingFunctions() map[string][]callingFunction {
	defined := map[string]bool{}
	for i := range pr.facts {
		if sum := pr.facts[i].summary(); sum != nil {
			for k := range sum.FunctionCount() {
				defined[sum.FunctionName(k)] = true
			}
		}
	}
	callersOf := map[string][]callingFunction{}
	for i := range pr.facts {
		sum := pr.facts[i].summary()
		if sum == nil {
			continue
		}
		for k, fn := range sum.EachFunction() {
			if fn.Entry {
				continue
			}
			caller := callingFunction{int32(i), int32(k)}
			for _, st := range fn.AllSteps() {
				if st.Kind != cudaparse.StepCall || st.Callee == fn.Name || !defined[st.Callee] {
					continue
				}
				// A function calling the same name again adds nothing.
				if refs := callersOf[st.Callee]; len(refs) == 0 || refs[len(refs)-1] != caller {
					callersOf[st.Callee] = append(refs, caller)
				}
			}
		}
	}
	return callersOf
}

// calledFromFiles counts the files of the callers.
func calledFromFiles(refs []callingFunction) int {
	files := map[int32]bool{}
	for _, r := range refs {
		files[r.file] = true
	}
	return len(files)
}

func callsAny(fn *cudaparse.FunctionSummary, names map[string]bool) bool {
	for _, st := range fn.AllSteps() {
		if st.Kind == cudaparse.StepCall && names[st.Callee] {
			return true
		}
	}
	return false
}

// Bounds of the caller search. A function called from more files than
// maxCallerFiles is not searched for (a helper named run or init is called
// from everywhere, and a warm-up in every caller is then unlikely); its
// known callers alone decide. At most maxCallerParses files are parsed for
// callers in a run, and two more for each name looked for in any round of
// the search: a fixed budget made the result depend on the tree's size (a
// tree of 670 timed functions, each warmed up by its one caller, kept 270
// of their findings), and so did a budget of one round's names set against
// the parses of every round (a third round's callers went unsearched).
const (
	maxCallerFiles  = 16
	maxCallerParses = 64
	// maxCallerAdmits bounds the files whose name filters admit a name
	// looked for as a callee: the filters answer by three-byte
	// sequences, so in a tree of names alike but for their digits a name
	// few files call is admitted by many more (up to 116 files of the
	// generated 334-group monorepo's 3,677).
	maxCallerAdmits = 16 * maxCallerFiles
)

// callerFiles returns the files not yet summarized that call one of the
// names, by their name filters, then their text: a call of the name.
func (pr *projectRun) callerFiles(names []string) []int {
	callsOf := pr.filesNaming(names, false, 2*maxCallerFiles, nil)
	if pr.callerBudget == 0 {
		pr.callerBudget = maxCallerParses
	}
	pr.callerBudget += 2 * len(names)
	var out []int
	picked := map[int]bool{}
	for _, name := range names {
		if len(callsOf[name]) > maxCallerFiles {
			continue
		}
		for _, i := range callsOf[name] {
			if !picked[i] && pr.callerParses < pr.callerBudget {
				picked[i] = true
				pr.callerParses++
				out = append(out, i)
			}
		}
	}
	sort.Ints(out)
	return out
}

// fileQuestion asks file whether it names names[name] (filesNaming).
type fileQuestion struct{ file, name int32 }

// filesNaming returns, by name, the files not yet summarized whose text
// calls (def false) or defines (def true) each name, at most limit files
// a name (a name more files spell is not looked for): those the name
// filters admit (among the files of among[name] when among is set, all
// files otherwise), read and scanned on the workers, each file once a
// run. For callees the limit counts the files that spell the name, not
// those whose filter merely admits it: a filter answers by three-byte
// sequences, and in a large tree of names alike but for their digits
// (time_g0190, time_g0191, ...) it admitted a name few files call for more
// files than the limit, so that its callers were not searched and the
// findings depended on the tree's size; a callee is not looked for only
// when more than maxCallerAdmits files' filters admit it. Definers are
// still bounded by their admissions: more than limit, and not looked for.
func (pr *projectRun) filesNaming(names []string, def bool, limit int, among map[string]fileSet) map[string][]int {
	probes := make([]rule.NameProbe, len(names))
	for k, name := range names {
		probes[k] = rule.NewNameProbe(name)
	}
	// A name more files' filters admit than admitLimit is not looked
	// for: reading them all would read most of the tree for a common name
	// (unbounded, the 13-project tree's caller search read 10,491 files;
	// bounded so, 2,248). Its list stops one past the limit: a common
	// name's list of every file admitting it was the most live heap of
	// eight copies of the 38-project corpus for a moment.
	admitLimit := limit
	if !def {
		admitLimit = maxCallerAdmits
	}
	byName := map[string][]int{}
	// One pass over the files, in order (each filter read once, near
	// the one before it: fileFacts.scanFilter), asking each about the names
	// it is among the files of.
	var filterBuf []byte // the filters read from disk, one at a time
	ask := func(i int, ks []int32) {
		if ff := &pr.facts[i]; ff.summary() == nil {
			if nf := ff.scanFilter(pr.spill, &filterBuf); nf != nil {
				for _, k := range ks {
					if files := byName[names[k]]; len(files) <= admitLimit && nf.MayContainProbe(probes[k]) {
						byName[names[k]] = append(files, i)
					}
				}
			}
		}
	}
	if among == nil {
		every := make([]int32, len(names))
		for k := range every {
			every[k] = int32(k)
		}
		for i := range pr.facts {
			ask(i, every)
		}
	} else {
		// The questions as (file, name) pairs, sorted by file: a map of
		// each file's list was 12 MB of sixteen copies of the corpus
		// checked as one project, the most live heap's moment; pairs are
		// eight bytes a question (definersOf asks at most 2^18 at once).
		var asked []fileQuestion
		for k, name := range names {
			among[name].each(func(i int) { asked = append(asked, fileQuestion{int32(i), int32(k)}) })
		}
		slices.SortStableFunc(asked, func(a, b fileQuestion) int { return cmp.Compare(a.file, b.file) })
		var ks []int32
		for start := 0; start < len(asked); {
			end := start
			ks = ks[:0]
			for ; end < len(asked) && asked[end].file == asked[start].file; end++ {
				ks = append(ks, asked[end].name)
			}
			ask(int(asked[start].file), ks)
			start = end
		}
	}
	for _, name := range names {
		if len(byName[name]) > admitLimit {
			delete(byName, name)
		}
	}
	admitted := map[int]bool{}
	for _, files := range byName {
		for _, i := range files {
			admitted[i] = true
		}
	}
	pr.readNames(slices.Sorted(maps.Keys(admitted)))
	out := map[string][]int{}
	for _, name := range names {
		if len(byName[name]) == 0 {
			continue
		}
		var spelling []int
		h := nameHash([]byte(name))
		for _, i := range byName[name] {
			if pr.fileNames[i].has(pr.spill, h, def) {
				spelling = append(spelling, i)
			}
		}
		if len(spelling) > 0 && len(spelling) <= limit {
			out[name] = spelling
		}
	}
	return out
}

// fileNames are the names a file defines as functions and calls, as
// filesNaming read them: sorted 64-bit hashes of the names (FNV-1a), with
// no strings kept or interned. A collision could only make a file look
// like it spells a name, which the summaries read after it correct. The
// hashes are bytes (little-endian), the definitions' first, in the run's
// spill store (heap where there is none).
type fileNames struct {
	stored bool
	// defines is how many of the hashes are of definitions.
	defines uint32
	at      spill.Ref
	heap    []byte
}

// newFileNames returns the names of sorted hashes, kept in store.
func newFileNames(defines, calls []uint64, store *spill.Store) *fileNames {
	data := make([]byte, 0, 8*(len(defines)+len(calls)))
	for _, h := range slices.Concat(defines, calls) {
		data = binary.LittleEndian.AppendUint64(data, h)
	}
	fn := fileNames{defines: uint32(len(defines))}
	if ref, ok := store.Put(data); ok {
		fn.stored, fn.at = true, ref
	} else {
		fn.heap = data
	}
	return &fn
}

// has reports whether the file defines (def) or calls the name whose
// nameHash is h (nil: a file not read, which spells nothing).
func (fn *fileNames) has(store *spill.Store, h uint64, def bool) bool {
	if fn == nil {
		return false
	}
	data := fn.heap
	if fn.stored {
		data = store.Get(fn.at)
	}
	lo, hi := 0, min(int(fn.defines), len(data)/8)
	if !def {
		lo, hi = hi, len(data)/8
	}
	_, found := sort.Find(hi-lo, func(k int) int {
		return cmp.Compare(h, binary.LittleEndian.Uint64(data[8*(lo+k):]))
	})
	return found
}

// nameHash is FNV-1a over a name's bytes: the same in every run.
func nameHash(name []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range name {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// readNames reads and scans, on the workers, the files at the indices not
// read before.
func (pr *projectRun) readNames(indices []int) {
	if pr.fileNames == nil {
		pr.fileNames = make([]*fileNames, len(pr.facts)) // a fifth of eight copies of the corpus is read: a pointer each
	}
	var todo []int
	for _, i := range indices {
		if pr.fileNames[i] == nil {
			todo = append(todo, i)
		}
	}
	onPool(len(todo), pr.workers, func(_ *worker, k int) {
		i := todo[k]
		var defines, calls []uint64
		if src, err := ReadSource(pr.sources.abs(i)); err == nil {
			cudaparse.EachName(src, func(name []byte, def bool) {
				if def {
					defines = append(defines, nameHash(name))
				} else {
					calls = append(calls, nameHash(name))
				}
			})
			slices.Sort(defines)
			slices.Sort(calls)
		}
		pr.fileNames[i] = newFileNames(slices.Compact(defines), slices.Compact(calls), pr.spill) // each worker its own index
	})
}

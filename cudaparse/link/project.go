// Package link links the summaries of a project's files
// (cudaparse.FileSummary) into what a function does across files: the
// kernels it launches and preloads through the functions it calls, and
// those loaded whenever it is entered.
package link

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// Project links the summaries of a project's files: which kernels a
// function launches or preloads through the functions it calls, in any
// file, and which kernels are already loaded whenever a function is entered
// because every known caller loads them first.
//
// Functions are matched by plain name, then by arity and by the qualifier
// the call writes; a method call (obj.f()) by the class of obj's declared
// type and its bases (classes.go). When the candidates left disagree (two
// definitions of one name in different files with different facts), the
// call is ambiguous and resolves to nothing: no finding rests on a guess.
// An overload set whose members launch other instantiations of the same
// kernels resolves to those kernels, with the arguments they disagree on
// unknown. A function pointer, a call through a base class's virtual
// method, a method of an object whose type is not known, or a callee in a
// file that was not summarized resolves to nothing too.
type Project struct {
	byName map[string][]*ProjectFunction
	// entry is memoized results; a nil entry in it marks a computation
	// under way (recursion). A function's kernels are memoized in it
	// (ProjectFunction.kernels).
	entry map[*ProjectFunction]*KernelFacts
	// callers are the known call sites of each function, by its id: those
	// of function id are callerSites[callerStart[id-1]:callerStart[id]]
	// (link). A map from each callee to its list was 17 MB of sixteen
	// copies of the 38-project corpus checked as one project; these are
	// eight bytes a site and four a function. byID are the functions by
	// id-1. otherCallers are those of the merged definitions resolve makes
	// (overloads, overrides), which have no id.
	callerStart  []int32
	callerSites  []callerSite
	otherCallers map[*ProjectFunction][]callerSite
	byID         []ProjectFunction
	linked       bool
	files        int
	// visible, when set, says whether a definition in file def can be
	// what a call in file from reaches (see SetVisibility).
	visible func(from, def string) bool
	// near, when set, says whether a source def is in the folders of file
	// from (see SetNearness).
	near func(from, def string) bool
	// includes, when set, says whether file from includes file def
	// (see SetInclusion).
	includes func(from, def string) bool
	// includers, when set, returns the source files that include a header,
	// directly or not (see SetIncluders).
	includers func(header string) []string
	// preloadAll: the functions that preload every kernel (preloaders).
	preloadAll     []*ProjectFunction
	preloadersOnce sync.Once
	// resolved memoizes Resolve (under mu, as every resolution is made:
	// a map of its own, where a sync.Map boxed each key to look it up).
	resolved map[resolveKey]*ProjectFunction
	// mu guards the memoized answers (resolutions, kernels, entry, callers).
	mu sync.Mutex
	// timers are the timer classes the files define, by class
	// (timerclasses.go).
	timers map[string]*projectTimer
	// timerNames are the timers' names, sorted, and timerLits the same as
	// bytes (indexTimers, once the files are added).
	timerNames []string
	timerLits  [][]byte
	// timerMembers are the classes each member name is declared of
	// (knowledge.TimerClass.Members); memberNames its names, sorted;
	// nameLits the timers' names and their members', for one search.
	timerMembers map[string][]string
	memberNames  []string
	nameLits     [][]byte
	// bases are the base classes of the project's classes (SetClassBases);
	// derived the reverse, built when first needed (under mu).
	bases, derived map[string][]string
	// loaders memoizes loadersNamed (under mu).
	loaders map[string][]*ProjectFunction
}

// SetClassBases tells the project which classes derive from which, for
// method calls on an object of a derived class (classes.go). Set it before
// the first question.
func (p *Project) SetClassBases(bases map[string][]string) {
	if p != nil {
		p.bases = bases
	}
}

// Bases returns the base classes of class the project knows.
func (p *Project) Bases(class string) []string {
	if p == nil {
		return nil
	}
	return p.bases[class]
}

// resolveMethod resolves obj.name() on an object of class: to class's own
// name, else to that of the nearest base class that defines one (all the
// definitions at that distance agreeing, as Resolve asks of plain calls).
func (p *Project) resolveMethod(name, class string, arity int, fromFile string) *ProjectFunction {
	if p == nil {
		return nil
	}
	key := resolveKey{name, "." + class, arity, fromFile}
	if pf, ok := p.resolved[key]; ok {
		return pf
	}
	var pf *ProjectFunction
	cands := p.visibleDefinitions(name, fromFile)
	seen := classLevels(class, p.bases, cudaparse.MaxBaseDepth, func(_ int, level []string) bool {
		var found []*ProjectFunction
		for _, c := range cands {
			if slices.Contains(level, c.Summary().Class) && arityFits(c, arity) {
				found = append(found, c)
			}
		}
		if len(found) > 0 {
			pf = p.agreeing(found)
			return true
		}
		return false
	})
	if pf == nil && !definedAlong(cands, seen) {
		pf = p.overrideOf(class, arity, cands)
	}
	p.remember(key, pf)
	return pf
}

// definedAlong reports whether a candidate belongs to one of the classes
// (a class and its bases, as resolveMethod walked them).
func definedAlong(cands []*ProjectFunction, classes map[string]bool) bool {
	for _, c := range cands {
		if classes[c.Summary().Class] {
			return true
		}
	}
	return false
}

// overrideOf resolves a call of a method that neither the object's
// declared class nor its bases define with a body: an interface's pure
// virtual (`Layer *l = new CudaLayer; l->forward()`) runs an override of a
// derived class. The overrides of the visible derived classes resolve it:
// to one of them when they agree (agreeing: one override, or several
// loading the same kernels); to the union of their launches when each
// launches kernels of its own (whichever runs loads one of them); to
// nothing when one launches none (a host implementation beside the GPU's).
func (p *Project) overrideOf(class string, arity int, cands []*ProjectFunction) *ProjectFunction {
	p.indexDerived()
	var found []*ProjectFunction
	classLevels(class, p.derived, cudaparse.MaxBaseDepth+1, func(depth int, level []string) bool {
		for _, c := range cands {
			if depth > 0 && slices.Contains(level, c.Summary().Class) && arityFits(c, arity) {
				found = append(found, c)
			}
		}
		return false
	})
	if len(found) == 0 {
		return nil
	}
	if pf := p.agreeing(found); pf != nil {
		return pf
	}
	// Overrides that launch different kernels: whichever runs launches
	// one of them, when each launches some. The call then loads kernels
	// of the union (as a timed call, it loads one not loaded before when
	// none of them was); it preloads nothing for sure.
	merged := &KernelFacts{}
	for _, c := range found {
		k := p.kernelsOf(c)
		// A launch for a parameter's type counts as one of the
		// template, any instantiation (the merge keeps no parameters).
		launched := append(slices.Clone(k.Launched), k.Instantiated(nil)...)
		if len(launched) == 0 || k.All || len(k.LaunchedParams) > 0 {
			return nil
		}
		for _, key := range launched {
			if !slices.Contains(merged.Launched, key) {
				merged.Launched = append(merged.Launched, key)
			}
		}
	}
	return &ProjectFunction{sum: found[0].sum, k: found[0].k, stands: &overrides{count: len(found), base: class}, kernels: merged}
}

// agreeing returns the first of several definitions when they all load
// the same kernels. Overloads that load other instantiations of the same
// kernels (`cuda_max(float *)` launching _max<float>, `cuda_max(double *)`
// _max<double>) resolve to one function loading those kernels with the
// arguments they disagree on unknown (_max<?>); any other disagreement
// resolves to nil.
func (p *Project) agreeing(cands []*ProjectFunction) *ProjectFunction {
	first := p.kernelsOf(cands[0])
	facts := []*KernelFacts{first}
	same := true
	for _, c := range cands[1:] {
		k := p.kernelsOf(c)
		facts = append(facts, k)
		same = same && sameFacts(first, k)
	}
	if same {
		return cands[0]
	}
	merged, ok := mergeOverloadFacts(facts)
	if !ok {
		return nil
	}
	return &ProjectFunction{sum: cands[0].sum, k: cands[0].k, kernels: merged}
}

// mergeOverloadFacts merges the facts of overloads that launch and preload
// the same kernels, instantiated differently: each kernel with the
// template arguments they agree on and UnknownArg elsewhere.
func mergeOverloadFacts(facts []*KernelFacts) (*KernelFacts, bool) {
	out := &KernelFacts{All: facts[0].All, LaunchedParams: facts[0].LaunchedParams, PreloadedParams: facts[0].PreloadedParams}
	for _, k := range facts[1:] {
		if k.All != out.All || !slices.Equal(k.LaunchedParams, out.LaunchedParams) || !slices.Equal(k.PreloadedParams, out.PreloadedParams) {
			return nil, false
		}
	}
	var ok bool
	if out.Launched, ok = mergeKeys(facts, func(k *KernelFacts) []string { return k.Launched }); !ok {
		return nil, false
	}
	if out.Preloaded, ok = mergeKeys(facts, func(k *KernelFacts) []string { return k.Preloaded }); !ok {
		return nil, false
	}
	return out, true
}

// mergeKeys merges one list of keys of each overload, kernel by kernel.
func mergeKeys(facts []*KernelFacts, keys func(*KernelFacts) []string) ([]string, bool) {
	lists := make([][]string, len(facts))
	for i, k := range facts {
		lists[i] = keys(k)
	}
	return cudaparse.MergeKernelKeys(lists)
}

// SetVisibility restricts what a call can resolve to: a function of file
// def is a candidate for a call in file from only when visible says so (a
// header the caller includes, a source file of the same program). Set it
// before the first question.
func (p *Project) SetVisibility(visible func(from, def string) bool) {
	if p != nil {
		p.visible = visible
	}
}

// SetInclusion tells the project which files a file includes, directly or
// not: among visible definitions of a name, those the calling file
// includes are its translation unit's and come first (a test that
// includes train.cu calls train.cu's function, not the one of the same
// name in train.c beside it).
func (p *Project) SetInclusion(includes func(from, def string) bool) {
	if p != nil {
		p.includes = includes
	}
}

// SetIncluders tells the project which source files include a header
// (directly or not): a header's code runs in the programs of the files that
// include it, so what those programs do first (a preload of every kernel)
// holds for it too. Set it before the first question.
func (p *Project) SetIncluders(includers func(header string) []string) {
	if p != nil {
		p.includers = includers
	}
}

// Files is the number of file summaries linked.
func (p *Project) Files() int {
	if p == nil {
		return 0
	}
	return p.files
}

// ProjectFunction is one function definition of the project.
type ProjectFunction struct {
	// sum holds the function, its k-th (Summary): a summary the project
	// keeps packs its functions (cudaparse.FileSummary.MoveSteps). The
	// file's path is the summary's (File).
	sum *cudaparse.FileSummary
	// stands, when set, says how many overrides of a base's virtual
	// method this one stands for (Project.overrideOf), File and Summary
	// being the first's: a pointer, as few functions are that and a
	// project holds one of these for each function of every summary.
	stands *overrides
	// kernels memoizes Project.kernelsOf (under the project's mu; nil:
	// not asked yet, kernelsUnderWay: being computed). A map from every
	// function asked about was 5 MB of eight copies of the 38-project
	// corpus; a field is 8 bytes a function.
	kernels *KernelFacts
	k       int32
	// id numbers the project's definitions from 1 (0: a merged
	// definition resolve made), for the callers' index.
	id int32
}

// A project holds one ProjectFunction for each function of every
// summary: 32 bytes, where a path and a pointer to an unpacked function
// made 48 (and the function 120 more).
var _ [32 - unsafe.Sizeof(ProjectFunction{})]struct{}

// Summary returns what the function does (a copy where its summary's
// functions are packed).
func (pf *ProjectFunction) Summary() cudaparse.FunctionSummary { return pf.sum.FunctionAt(int(pf.k)) }

// allSteps yields the function's steps (cudaparse.FunctionSummary.AllSteps).
func (pf *ProjectFunction) allSteps() iter.Seq2[int, *cudaparse.SummaryStep] {
	fn := pf.Summary()
	return fn.AllSteps()
}

// Kinds are the kinds of the function's steps.
func (pf *ProjectFunction) Kinds() cudaparse.StepKinds { return pf.sum.FunctionKinds(int(pf.k)) }

// File is the path of the file that defines the function.
func (pf *ProjectFunction) File() string { return pf.sum.Path }

// Name is the function's plain name.
func (pf *ProjectFunction) Name() string { return pf.sum.FunctionName(int(pf.k)) }

// overrides are the overrides of base's virtual method a ProjectFunction
// stands for.
type overrides struct {
	count int
	base  string
}

func (pf *ProjectFunction) String() string {
	if pf.stands != nil && pf.stands.count > 1 {
		return fmt.Sprintf("%s::%s (%d overrides, the first at %s:%d)", pf.stands.base, pf.Name(), pf.stands.count, pf.File(), pf.Summary().Line)
	}
	return fmt.Sprintf("%s (%s:%d)", pf.Name(), pf.File(), pf.Summary().Line)
}

// KernelFacts are kernels loaded by something: launched or preloaded, by
// key, or all of them (a preload loop over a kernel table).
type KernelFacts struct {
	Launched  []string
	Preloaded []string
	All       bool
	// LaunchedParams are the parameters of the function whose kernels it
	// launches itself (the caller's arguments name them); they are not
	// passed on to callers' facts.
	LaunchedParams []int
	// PreloadedParams are the parameters whose kernels it preloads, itself
	// or through the functions it passes them to (an occupancy helper's
	// cudaFuncGetAttributes on its parameter): the caller's arguments name
	// the kernels.
	PreloadedParams []int
	// Typed are the kernel templates the function launches for the type
	// of one of its parameters (cudaparse.StepLaunchTyped), itself or
	// through the functions it passes the parameter to: a caller's
	// argument says which instantiation (Instantiated).
	Typed []TypedLaunch
}

// TypedLaunch is a launch of kernel template Template for the type of
// parameter Param.
type TypedLaunch struct {
	Template string
	Param    int
}

// Instantiated returns the keys of the Typed launches for the argument
// types argType gives (by parameter; "" or a nil argType: not known, and
// the key names the template alone, which any instantiation matches).
func (k *KernelFacts) Instantiated(argType func(param int) string) []string {
	if k == nil {
		return nil
	}
	var out []string
	for _, t := range k.Typed {
		typ := ""
		if argType != nil {
			typ = argType(t.Param)
		}
		out = appendNew(out, cudaparse.TypedKernelKey(t.Template, typ))
	}
	return out
}

// Empty reports whether the facts name no kernel.
func (k *KernelFacts) Empty() bool {
	return k == nil || len(k.Launched) == 0 && len(k.Preloaded) == 0 && !k.All && len(k.LaunchedParams) == 0 && len(k.PreloadedParams) == 0 && len(k.Typed) == 0
}

// Loads reports whether the facts load kernel key (by launch or preload).
func (k *KernelFacts) Loads(key string) bool {
	if k == nil {
		return false
	}
	if k.All {
		return true
	}
	for _, list := range [][]string{k.Launched, k.Preloaded, k.Instantiated(nil)} {
		for _, x := range list {
			if cudaparse.SameKernel(x, key) {
				return true
			}
		}
	}
	return false
}

func (k *KernelFacts) add(o *KernelFacts) {
	if o == nil {
		return
	}
	k.Launched = appendNew(k.Launched, o.Launched...)
	k.Preloaded = appendNew(k.Preloaded, o.Preloaded...)
	k.All = k.All || o.All
}

func appendNew(list []string, keys ...string) []string {
	for _, key := range keys {
		found := false
		for _, x := range list {
			if x == key {
				found = true
				break
			}
		}
		if !found {
			list = append(list, key)
		}
	}
	return list
}

// callerSite is a call: step step of the function of id caller.
type callerSite struct {
	caller, step int32
}

// MaxCallerDepth bounds how far up the call graph LoadedOnEntry looks.
const MaxCallerDepth = 8

// NewProject links file summaries. Files are taken in path order, so the
// result does not depend on the order they were summarized in.
func NewProject(files []*cudaparse.FileSummary) *Project {
	sorted := append([]*cudaparse.FileSummary(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	p := &Project{byName: map[string][]*ProjectFunction{}}
	seen := map[string]bool{}
	var kept []*cudaparse.FileSummary
	total := 0
	for _, fsum := range sorted {
		if fsum == nil || seen[fsum.Path] {
			continue
		}
		seen[fsum.Path] = true
		kept = append(kept, fsum)
		total += fsum.FunctionCount()
	}
	// The functions in one array, by id: an array a file had the
	// allocator's rounding and scattered what lives to the end of the
	// run among what does not (sixteen copies of the 38-project corpus
	// checked as one project link about 575,000 functions).
	p.byID = make([]ProjectFunction, 0, total)
	for _, fsum := range kept {
		p.files++
		p.addTimers(fsum)
		for i := range fsum.FunctionCount() {
			p.byID = append(p.byID, ProjectFunction{sum: fsum, k: int32(i), id: int32(len(p.byID) + 1)})
		}
	}
	for k := range p.byID {
		pf := &p.byID[k]
		name := pf.Name()
		p.byName[name] = append(p.byName[name], pf)
	}
	p.indexTimers()
	return p
}

// Len is the number of function definitions linked.
func (p *Project) Len() int {
	if p == nil {
		return 0
	}
	n := 0
	for _, fs := range p.byName {
		n += len(fs)
	}
	return n
}

// Defines reports whether some file of the project defines a function of
// the plain name.
func (p *Project) Defines(name string) bool { return p != nil && len(p.byName[name]) > 0 }

// Resolve returns the one definition a call of name (written with
// qualifier, with arity arguments) from file fromFile can reach, or nil
// when there is none or more than one that disagree. A definition in the
// calling file wins over the others.
func (p *Project) resolveMemo(name, qualifier string, arity int, fromFile string) *ProjectFunction {
	if p == nil || len(p.byName[name]) == 0 {
		// Most calls are of names no file defines (the runtime, the
		// standard library): nothing to resolve, nothing worth a memo.
		return nil
	}
	key := resolveKey{name, qualifier, arity, fromFile}
	if pf, ok := p.resolved[key]; ok {
		return pf
	}
	pf := p.resolve(name, qualifier, arity, fromFile)
	p.remember(key, pf)
	return pf
}

// maxResolved bounds the resolutions remembered: a tree's questions grow
// with its files times the names they call (four copies of the 38-project
// corpus as one project held 26 MB of them at the peak, a tenth of the
// live heap; 65,536 entries hold about 9 MB).
// Past it the memo starts again: a resolution depends only on the linked
// project, so forgetting one costs its recomputation, never its answer.
const maxResolved = 1 << 16

// remember keeps a resolution (under mu).
func (p *Project) remember(key resolveKey, pf *ProjectFunction) {
	if p.resolved == nil || len(p.resolved) >= maxResolved {
		p.resolved = map[resolveKey]*ProjectFunction{}
	}
	p.resolved[key] = pf
}

// resolveKey is a question Resolve answered (kept in Project.resolved).
type resolveKey struct {
	name, qualifier string
	arity           int
	from            string
}

func (p *Project) resolve(name, qualifier string, arity int, fromFile string) *ProjectFunction {
	cands := p.reachable(name, fromFile)
	if len(cands) == 0 {
		return nil
	}
	filter := func(keep func(*ProjectFunction) bool) {
		var out []*ProjectFunction
		for _, c := range cands {
			if keep(c) {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			cands = out
		}
	}
	if arity >= 0 {
		filter(func(c *ProjectFunction) bool {
			fn := c.Summary()
			return int(fn.Arity) == arity || fn.Arity < 0 && int(fn.Params) == arity
		})
	}
	if qualifier != "" {
		filter(func(c *ProjectFunction) bool {
			q := c.Summary().QualifiedName
			return q == qualifier+"::"+name || strings.HasSuffix(q, "::"+qualifier+"::"+name)
		})
	}
	if len(cands) == 1 {
		return cands[0]
	}
	// Several definitions (declarations in headers, copies under #ifdef):
	// one answer only when they all do the same.
	return p.agreeing(cands)
}

// reachable returns the definitions of name a call from fromFile may
// reach, whatever its qualifier and arity: the visible ones (a file-local
// function only from its own file), those of fromFile itself when it has
// any, else those it includes when it includes any.
func (p *Project) reachable(name, fromFile string) []*ProjectFunction {
	var own, included []*ProjectFunction
	for _, c := range p.byName[name] {
		if c.File() == fromFile {
			own = append(own, c)
		}
	}
	if len(own) > 0 {
		return own // the others need not be looked at
	}
	// None of fromFile's own: what it sees of the others.
	visible := p.visibleDefinitions(name, fromFile)
	for _, c := range visible {
		if p.includes != nil && p.includes(fromFile, c.File()) {
			included = append(included, c)
		}
	}
	if len(included) > 0 {
		return included
	}
	// Sources of the caller's own folders come before those beside a
	// header it includes (SetNearness): a test's helper of the same name
	// beside it, not the library's.
	if p.near != nil {
		var near []*ProjectFunction
		for _, c := range visible {
			if p.near(fromFile, c.File()) {
				near = append(near, c)
			}
		}
		if len(near) > 0 {
			return near
		}
	}
	return visible
}

// SetNearness tells the project which visible sources are of the caller's
// own folders (its folder, parent or children), to be preferred to those
// visible only beside a header it includes. Set it before the first
// question.
func (p *Project) SetNearness(near func(from, def string) bool) {
	if p != nil {
		p.near = near
	}
}

// visibleDefinitions returns every definition of name a call from
// fromFile may see (its own, included headers, sources of its program), not
// only the nearest kind as reachable does: a method is chosen among them
// by its class, and an included header's Max of one class does not hide
// the Max of the object's class in a source beside the caller.
func (p *Project) visibleDefinitions(name, fromFile string) []*ProjectFunction {
	var out []*ProjectFunction
	for _, c := range p.byName[name] {
		if p.isVisible(c, fromFile) {
			out = append(out, c)
		}
	}
	return out
}

// isVisible reports whether a call from fromFile may see definition c.
func (p *Project) isVisible(c *ProjectFunction, fromFile string) bool {
	return c.File() == fromFile || !p.hiddenFrom(c, fromFile) && (p.visible == nil || p.visible(fromFile, c.File()))
}

// hiddenFrom reports whether c is visible only in its own file (static,
// or in an unnamed namespace) and that file is not part of path's: a
// `static inline` helper of a header path includes is path's own copy.
func (p *Project) hiddenFrom(c *ProjectFunction, path string) bool {
	return c.sum.FunctionLocal(int(c.k)) && (p.includes == nil || !p.includes(path, c.File()))
}

// Reachable returns the definitions of name a call from fromFile may
// reach (Resolve picks among them by the call's qualifier and arity): what
// a file's results can depend on, of all the definitions of the name.
func (p *Project) Reachable(name, fromFile string) []*ProjectFunction {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reachable(name, fromFile)
}

func sameFacts(a, b *KernelFacts) bool {
	key := func(k *KernelFacts) string {
		l := append([]string(nil), k.Launched...)
		pr := append([]string(nil), k.Preloaded...)
		sort.Strings(l)
		sort.Strings(pr)
		return fmt.Sprint(l, pr, k.All, k.Typed, k.PreloadedParams)
	}
	return key(a) == key(b)
}

// ResolveStep resolves a call step of fn.
func (p *Project) resolveStep(fn *ProjectFunction, st *cudaparse.SummaryStep) *ProjectFunction {
	if st.Kind != cudaparse.StepCall {
		return nil
	}
	class := ""
	if s := fn.Summary(); s.Member {
		class = s.Class
	}
	return p.resolveCallIn(class, st.Callee, st.Qualifier, st.Arity, st.Method, fn.File())
}

// resolveCallIn is resolveCall for a call made in a method of callerClass
// ("" for a free function): there f(), written without object or
// qualifier, is this->f() when the class (or a base) has an f, as C++
// looks in the class's scope first (a class split between a .cpp and a
// .cu file calls its launchers so).
func (p *Project) resolveCallIn(callerClass, name, qualifier string, arity int, method bool, fromFile string) *ProjectFunction {
	if callerClass != "" && !method && qualifier == "" {
		if pf := p.resolveMethod(name, callerClass, arity, fromFile); pf != nil {
			return pf
		}
	}
	return p.resolveCall(name, qualifier, arity, method, fromFile)
}

// ResolveCall is Resolve for a call written as a method call (obj.f(),
// p->f()) or not: a method call resolves to the method of its object's
// class (qualifier, for a method call) or of the nearest base class
// defining it; a plain call to a plain function (or a method of its own
// file: a call from another method of the class).
func (p *Project) resolveCall(name, qualifier string, arity int, method bool, fromFile string) *ProjectFunction {
	// obj.f() reaches the f of obj's class: a method of the same name in
	// another class launches other kernels (gemm.run() is not the
	// example's own run()). Without the object's class, no guess.
	if method {
		if qualifier == "" {
			return nil
		}
		return p.resolveMethod(name, qualifier, arity, fromFile)
	}
	pf := p.resolveMemo(name, qualifier, arity, fromFile)
	if pf == nil || pf.Summary().Member && pf.File() != fromFile {
		return nil
	}
	return pf
}

// Kernels returns what fn launches and preloads, itself or through the
// functions it calls, transitively and across files.
func (p *Project) kernelsOf(fn *ProjectFunction) *KernelFacts {
	if p == nil || fn == nil {
		return &KernelFacts{}
	}
	switch fn.kernels {
	case nil:
	case kernelsUnderWay:
		return &KernelFacts{} // recursion: what is found so far
	default:
		return fn.kernels
	}
	fn.kernels = kernelsUnderWay
	out := &KernelFacts{}
	for _, st := range fn.allSteps() {
		p.addLoads(out, fn, st)
	}
	if out.Empty() {
		out = noKernels // most functions load nothing: one value for all
	}
	fn.kernels = out
	return out
}

// kernelsUnderWay marks a function whose kernels are being computed.
var kernelsUnderWay = &KernelFacts{}

// noKernels is what a function that loads nothing loads. Facts the
// project returns are read, never written: this one is shared.
var noKernels = &KernelFacts{}

// loadedBefore returns the kernels that fn loads on every path to its
// step i, for the device current at step i: loads before the last device
// switch on the way do not count. entryHolds says whether what was loaded
// when fn was entered still holds (no device switch on the way).
func (p *Project) loadedBefore(fn *ProjectFunction, i int) (k *KernelFacts, entryHolds bool) {
	fnSum := fn.Summary()
	steps := fnSum.StepList()
	st := &steps[i]
	from := 0
	entryHolds = true
	before := st.BeforeSteps(i)
	for _, j := range before {
		if steps[j].Kind == cudaparse.StepDeviceSwitch {
			from = j + 1
			entryHolds = false
		}
	}
	k = &KernelFacts{}
	for _, j := range before {
		if j < from {
			continue
		}
		p.addLoads(k, fn, &steps[j])
	}
	return k, entryHolds
}

func (p *Project) link() {
	if p.linked {
		return
	}
	p.linked = true
	// The calls in the order they are found (by name, definition and
	// step), then each callee's in that order (a counting sort).
	type call struct {
		callee int32
		site   callerSite
	}
	var calls []call
	count := make([]int32, len(p.byID)+1)
	for _, name := range p.sortedNames() {
		for _, fn := range p.byName[name] {
			for i, st := range fn.allSteps() {
				callee := p.resolveStep(fn, st)
				switch {
				case callee == nil || callee == fn:
				case callee.id == 0:
					if p.otherCallers == nil {
						p.otherCallers = map[*ProjectFunction][]callerSite{}
					}
					p.otherCallers[callee] = append(p.otherCallers[callee], callerSite{fn.id, int32(i)})
				default:
					calls = append(calls, call{callee.id, callerSite{fn.id, int32(i)}})
					count[callee.id]++
				}
			}
		}
	}
	p.callerStart = make([]int32, len(p.byID)+1)
	for id := 1; id < len(count); id++ {
		p.callerStart[id] = p.callerStart[id-1] + count[id]
	}
	p.callerSites = make([]callerSite, len(calls))
	next := count // reused: where each callee's next site goes
	copy(next[1:], p.callerStart[:len(p.byID)])
	for _, c := range calls {
		p.callerSites[next[c.callee]] = c.site
		next[c.callee]++
	}
}

// callSites returns the known call sites of fn (once linked). A function
// of another project (numbered there) has none here.
func (p *Project) callSites(fn *ProjectFunction) []callerSite {
	if fn.id == 0 || int(fn.id) > len(p.byID) || &p.byID[fn.id-1] != fn {
		return p.otherCallers[fn]
	}
	return p.callerSites[p.callerStart[fn.id-1]:p.callerStart[fn.id]]
}

// Callers returns the number of known call sites of fn.
func (p *Project) callersOf(fn *ProjectFunction) int {
	if p == nil || fn == nil {
		return 0
	}
	p.link()
	return len(p.callSites(fn))
}

// LoadedOnEntry returns the kernels loaded whenever fn is entered: those
// every known caller loads on the way to its call (for the same device),
// or that are loaded when the caller itself is entered. A function with no
// known caller has nothing loaded on entry; a program's entry point
// neither. Callers in files that were not summarized are not known, so a
// warm-up in a known caller counts even if an unknown one skips it.
func (p *Project) loadedOnEntryOf(fn *ProjectFunction) *KernelFacts {
	if p == nil || fn == nil {
		return &KernelFacts{}
	}
	p.link()
	return p.loadedOnEntry(fn, 0)
}

func (p *Project) loadedOnEntry(fn *ProjectFunction, depth int) *KernelFacts {
	if p.entry == nil {
		p.entry = map[*ProjectFunction]*KernelFacts{}
	}
	if k, ok := p.entry[fn]; ok {
		if k == nil {
			return &KernelFacts{} // recursion: a cycle loads nothing by itself
		}
		return k
	}
	sites := p.callSites(fn)
	if len(sites) == 0 || fn.Summary().Entry || depth > MaxCallerDepth {
		return &KernelFacts{}
	}
	p.entry[fn] = nil
	var out *KernelFacts
	for _, s := range sites {
		caller := &p.byID[s.caller-1]
		here, entryHolds := p.loadedBefore(caller, int(s.step))
		if entryHolds {
			here.add(p.loadedOnEntry(caller, depth+1))
		}
		if out == nil {
			out = here
		} else {
			out = intersect(out, here)
		}
		if out.Empty() {
			break
		}
	}
	if out == nil {
		out = &KernelFacts{}
	}
	p.entry[fn] = out
	return out
}

// intersect keeps what both facts load.
func intersect(a, b *KernelFacts) *KernelFacts {
	out := &KernelFacts{All: a.All && b.All}
	keep := func(keys []string, other *KernelFacts) []string {
		var kept []string
		for _, k := range keys {
			if other.Loads(k) {
				kept = appendNew(kept, k)
			}
		}
		return kept
	}
	if !out.All {
		out.Launched = append(keep(a.Launched, b), keep(b.Launched, a)...)
		out.Preloaded = append(keep(a.Preloaded, b), keep(b.Preloaded, a)...)
		out.Launched = appendNew(nil, out.Launched...)
		out.Preloaded = appendNew(nil, out.Preloaded...)
	}
	return out
}

// Function returns the definition of fn's file and line, for a rule that
// asks about a function of its own file.
func (p *Project) Function(file, name string, line int) *ProjectFunction {
	if p == nil {
		return nil
	}
	for _, c := range p.byName[name] {
		if c.File() == file && int(c.Summary().Line) == line {
			return c
		}
	}
	return nil
}

// FileDigest hashes what the project knows that a check of the file at
// path can consult: what is loaded on entry to its functions, and the
// facts of every function of the project (a file being edited may call
// any of them). The language server keys cached results on it.
func (p *Project) FileDigest(path string) [32]byte {
	var out [32]byte
	if p == nil {
		return out
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	h := sha256.New()
	enc := json.NewEncoder(h)
	for _, name := range p.sortedNames() {
		for _, fn := range p.byName[name] {
			fmt.Fprintf(h, "%s %s:%d\n", name, fn.File(), fn.Summary().Line)
			_ = enc.Encode(p.kernelsOf(fn))
			if fn.File() == path {
				_ = enc.Encode(p.loadedOnEntryOf(fn))
			}
		}
	}
	h.Sum(out[:0])
	return out
}

// Definitions returns every definition of the plain name.
func (p *Project) Definitions(name string) []*ProjectFunction {
	if p == nil {
		return nil
	}
	return p.byName[name]
}

// Freeze links the call graph. Answers are computed when first asked and
// kept; every exported method takes the project's lock, so a project can
// be asked from several goroutines at once.
func (p *Project) Freeze() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.link()
}

// Forget drops the project's memoized answers (resolutions, functions'
// kernels, what callers load on entry, loaders by name), which a later
// question computes again: they depend on the linked project alone. A
// caller linking a new project keeps the old one only in case nothing
// changed (engine's projectStep); its memos were 20 MB or more of the
// most live heap of sixteen copies of the 38-project corpus checked as
// one project, held while the next project was built.
func (p *Project) Forget() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.resolved, p.entry, p.loaders = nil, nil, nil
	for k := range p.byID {
		p.byID[k].kernels = nil
	}
}

// HasEntryFacts reports whether a function defined in the file at path has
// kernels loaded on entry by its callers.
func (p *Project) HasEntryFacts(path string) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, fns := range p.byName {
		for _, fn := range fns {
			if fn.File() == path && !p.loadedOnEntryOf(fn).Empty() {
				return true
			}
		}
	}
	return false
}

// ReadsClock reports whether a call of name from the file at path reaches
// a function of another file that reads a host clock: every definition of
// the name there does.
func (p *Project) ReadsClock(name, path string) bool {
	if p == nil {
		return false
	}
	defs := p.byName[name]
	if len(defs) == 0 {
		return false
	}
	// Methods of timer classes are known by their object's name
	// (ClockOf); only free functions count here. Definitions that are
	// variants of one (FunctionSummary.Variant: a clock read with
	// gethrtime, times or MPI_Wtime by the platform) need one of them
	// reading a clock.
	type variants struct{ file, class string }
	reads := map[variants]bool{}
	seen := 0
	for _, d := range defs {
		if p.hiddenFrom(d, path) {
			continue // another file's own (static): not what path calls
		}
		seen++
		fn := d.Summary()
		if d.File() == path || fn.Member {
			return false
		}
		if !fn.Variant {
			if !fn.ReadsClock {
				return false
			}
			continue
		}
		key := variants{d.File(), fn.Class}
		reads[key] = reads[key] || fn.ReadsClock
	}
	for _, yes := range reads {
		if !yes {
			return false
		}
	}
	return seen > 0
}

// TimingHelpers returns, of the names a file (at path) calls, those whose
// every definition, all in other files, times the same parameter with the
// same clock (FunctionSummary.TimesParam): a lambda the file hands one
// runs inside its measurement. Free functions only, as for ReadsClock.
func (p *Project) TimingHelpers(names []string, path string) map[string]cudaparse.TimingHelper {
	if p == nil {
		return nil
	}
	var out map[string]cudaparse.TimingHelper
	for _, name := range names {
		defs := p.byName[name]
		// Every definition the file may call (not another file's own,
		// static one) times the first one's parameter with its clock.
		seen := false
		h := cudaparse.TimingHelper{Param: -1}
		for _, d := range defs {
			if p.hiddenFrom(d, path) {
				continue
			}
			fn := d.Summary()
			if !seen {
				seen = true
				h = cudaparse.TimingHelper{Param: int(fn.TimesParam) - 1, Clock: fn.TimesClock, Kernel: fn.TimesKernel}
			}
			if d.File() == path || fn.Member || int(fn.TimesParam)-1 != h.Param || fn.TimesClock != h.Clock || fn.TimesKernel != h.Kernel {
				h.Param = -1
				break
			}
		}
		if h.Param < 0 {
			continue
		}
		if out == nil {
			out = map[string]cudaparse.TimingHelper{}
		}
		out[name] = h
	}
	return out
}

// ClockFunctions returns, of the names, those ReadsClock says yes to and
// that the clock vocabulary does not know already (seconds(), wtime()).
func (p *Project) ClockFunctions(names []string, path string) map[string]bool {
	var out map[string]bool
	for _, name := range names {
		if !knowledge.IsClockName(name) && p.ReadsClock(name, path) {
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = true
		}
	}
	return out
}

// Names returns the names of the functions linked, sorted.
func (p *Project) Names() []string {
	if p == nil {
		return nil
	}
	return p.sortedNames()
}

// sortedNames returns the names of the functions defined, sorted: the
// order every walk over all of them takes, so that its answers do not
// depend on the map's.
func (p *Project) sortedNames() []string { return slices.Sorted(maps.Keys(p.byName)) }

// Kernels returns what fn launches and preloads, itself or through the
// functions it calls, transitively and across files.
// PreloadsEveryKernel reports whether a function of the project that file
// from can see (a header it includes, a source of its program) runs a
// preload loop over a kernel table, as a library's start-up does (NCCL's
// cudaFuncGetAttributes over its kernel list): lazylint takes that as
// loading every kernel of the program.
func (p *Project) PreloadsEveryKernel(from string) bool {
	if p == nil {
		return false
	}
	if p.preloadsAllVisibleFrom(from) {
		return true
	}
	// A header's device code runs in the CUDA sources that include it: it
	// is covered when every .cu file that includes it sees such a preload
	// (NCCL's device headers, included by its kernels' files, whose library
	// preloads its kernel table at init). Host files that include the
	// header compile no device code.
	if !cudaparse.IsHeader(from) || p.includers == nil {
		return false
	}
	n := 0
	for _, src := range p.includers(from) {
		if !strings.EqualFold(filepath.Ext(src), ".cu") {
			continue
		}
		n++
		if !p.preloadsAllVisibleFrom(src) {
			return false
		}
	}
	return n > 0
}

// preloadsAllVisibleFrom reports whether a function that file from can
// reach preloads every kernel (a loop over a kernel table).
func (p *Project) preloadsAllVisibleFrom(from string) bool {
	for _, fn := range p.preloaders() {
		if p.visible == nil || fn.File() == from || p.visible(from, fn.File()) {
			return true
		}
	}
	return false
}

// preloaders returns the functions that preload every kernel (found once:
// few projects have any, and every file's check asks).
func (p *Project) preloaders() []*ProjectFunction {
	p.preloadersOnce.Do(func() {
		for _, fns := range p.byName {
			for _, fn := range fns {
				if fn.Kinds().Has(cudaparse.StepPreloadAll) {
					p.preloadAll = append(p.preloadAll, fn)
				}
			}
		}
		sort.Slice(p.preloadAll, func(i, j int) bool {
			a, b := p.preloadAll[i], p.preloadAll[j]
			return a.File() < b.File() || a.File() == b.File() && a.Summary().Line < b.Summary().Line
		})
	})
	return p.preloadAll
}

func (p *Project) Kernels(fn *ProjectFunction) *KernelFacts {
	if p == nil || fn == nil {
		return &KernelFacts{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.kernelsOf(fn)
}

// LoadedOnEntry returns the kernels loaded whenever fn is entered (see
// loadedOnEntryOf).
func (p *Project) LoadedOnEntry(fn *ProjectFunction) *KernelFacts {
	if p == nil || fn == nil {
		return &KernelFacts{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.loadedOnEntryOf(fn)
}

// Resolve returns the one definition a call of name (written with
// qualifier, with arity arguments, -1 when not known) from file fromFile
// can reach, or nil when there is none or more than one that disagree. A
// definition in the calling file wins over the others.
func (p *Project) Resolve(name, qualifier string, arity int, fromFile string) *ProjectFunction {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resolveMemo(name, qualifier, arity, fromFile)
}

// DefinesLoader reports whether some definition of name, in any file,
// launches or preloads kernels. Whatever a call of name resolves to is one
// of them (or their merge), so a name without one needs no resolving: most
// names a file calls are of this kind, and resolving them asks for the
// visibility of every definition of the name.
func (p *Project) DefinesLoader(name string) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.loadersNamed(name)) > 0
}

// SeesLoader reports whether a call of name from fromFile may see a
// definition of it (fromFile's own included) that launches or preloads
// kernels: what a call must see to load through the name, whatever it
// resolves to. Only the loading definitions are asked for visibility.
func (p *Project) SeesLoader(name, fromFile string) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.loadersNamed(name) {
		if p.isVisible(c, fromFile) {
			return true
		}
	}
	return false
}

// loadersNamed returns the definitions of name that launch or preload
// kernels (memoized; under mu).
func (p *Project) loadersNamed(name string) []*ProjectFunction {
	if got, ok := p.loaders[name]; ok {
		return got
	}
	var out []*ProjectFunction
	for _, c := range p.byName[name] {
		if !p.kernelsOf(c).Empty() {
			out = append(out, c)
		}
	}
	if p.loaders == nil {
		p.loaders = map[string][]*ProjectFunction{}
	}
	p.loaders[name] = out
	return out
}

// MethodLoads reports whether some method named name that a call from
// fromFile may reach (of any class) launches or preloads kernels: a file
// whose text calls obj.name() may then time a launch once its objects'
// classes are known (from a parse).
// spelled says whether the calling file may spell a class's name: the
// method's class, or a class derived from it, must be, for an object of
// it to be declared there.
func (p *Project) MethodLoads(name, fromFile string, spelled func(class string) bool) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Only methods count, and visibility is the costly test: free
	// functions of a common name (size, run) are left out first.
	for _, c := range p.byName[name] {
		class := c.Summary().Class
		if class == "" || !p.isVisible(c, fromFile) {
			continue
		}
		if p.classSpelled(class, spelled) && !p.kernelsOf(c).Empty() {
			return true
		}
	}
	return false
}

// indexDerived builds derived, the reverse of bases, once (under mu).
func (p *Project) indexDerived() {
	if p.derived != nil {
		return
	}
	p.derived = map[string][]string{}
	for d, bs := range p.bases {
		for _, b := range bs {
			p.derived[b] = append(p.derived[b], d)
		}
	}
	for _, ds := range p.derived {
		sort.Strings(ds)
	}
}

// classSpelled reports whether spelled holds for class or a class derived
// from it (under mu).
func (p *Project) classSpelled(class string, spelled func(string) bool) bool {
	p.indexDerived()
	found := false
	classLevels(class, p.derived, cudaparse.MaxBaseDepth+1, func(_ int, level []string) bool {
		found = slices.ContainsFunc(level, spelled)
		return found
	})
	return found
}

// classLevels calls visit with class (depth 0), then with the classes one
// edge of edges away (its bases, or the classes derived from it), then two,
// each class once, for at most levels depths, until visit returns true. It
// returns the classes reached, visited or next to be.
func classLevels(class string, edges map[string][]string, levels int, visit func(depth int, level []string) bool) map[string]bool {
	level, seen := []string{class}, map[string]bool{class: true}
	for depth := 0; depth < levels && len(level) > 0; depth++ {
		if visit(depth, level) {
			break
		}
		var next []string
		for _, c := range level {
			for _, e := range edges[c] {
				if !seen[e] {
					seen[e] = true
					next = append(next, e)
				}
			}
		}
		level = next
	}
	return seen
}

// arityFits reports whether c may take arity arguments (-1: not known).
func arityFits(c *ProjectFunction, arity int) bool {
	if arity < 0 {
		return true
	}
	fn := c.Summary()
	return fn.Arity < 0 || int(fn.Arity) == arity
}

// ResolveStep resolves a call step of fn.
func (p *Project) ResolveStep(fn *ProjectFunction, st *cudaparse.SummaryStep) *ProjectFunction {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resolveStep(fn, st)
}

// ResolveCall is Resolve for a call written as a method call (obj.f(),
// p->f()) or not, made in a method of callerClass ("" for a free
// function; see resolveCallIn and resolveCall).
func (p *Project) ResolveCall(callerClass, name, qualifier string, arity int, method bool, fromFile string) *ProjectFunction {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resolveCallIn(callerClass, name, qualifier, arity, method, fromFile)
}

// Callers returns the number of known call sites of fn.
func (p *Project) Callers(fn *ProjectFunction) int {
	if p == nil || fn == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.callersOf(fn)
}

// addLoads adds to k what step st of fn loads: its launches and preloads,
// or what the function it calls loads.
func (p *Project) addLoads(k *KernelFacts, fn *ProjectFunction, st *cudaparse.SummaryStep) {
	switch st.Kind {
	case cudaparse.StepLaunch:
		k.Launched = appendNew(k.Launched, st.Keys...)
	case cudaparse.StepPreload:
		k.Preloaded = appendNew(k.Preloaded, st.Keys...)
	case cudaparse.StepPreloadAll:
		k.All = true
	case cudaparse.StepLaunchParam:
		if !slices.Contains(k.LaunchedParams, st.Param) {
			k.LaunchedParams = append(k.LaunchedParams, st.Param)
		}
	case cudaparse.StepPreloadParam:
		if !slices.Contains(k.PreloadedParams, st.Param) {
			k.PreloadedParams = append(k.PreloadedParams, st.Param)
		}
	case cudaparse.StepLaunchTyped:
		if t := (TypedLaunch{st.Keys[0], st.Param}); !slices.Contains(k.Typed, t) {
			k.Typed = append(k.Typed, t)
		}
	case cudaparse.StepCall:
		if callee := p.resolveStep(fn, st); callee != nil && callee != fn {
			ck := p.kernelsOf(callee)
			k.add(ck)
			// The callee's launches for the type of a parameter: of the
			// type this call's argument shows, or of fn's own parameter
			// it passes on.
			for _, t := range ck.Typed {
				if i := st.ArgParam(t.Param); i >= 0 {
					if u := (TypedLaunch{t.Template, i}); !slices.Contains(k.Typed, u) {
						k.Typed = append(k.Typed, u)
					}
					continue
				}
				k.Launched = appendNew(k.Launched, cudaparse.TypedKernelKey(t.Template, st.ArgType(t.Param)))
			}
			// A kernel the callee preloads for one of its parameters that
			// this call passes one of fn's on to: fn's caller's kernel.
			for _, param := range ck.PreloadedParams {
				if i := st.ArgParam(param); i >= 0 && !slices.Contains(k.PreloadedParams, i) {
					k.PreloadedParams = append(k.PreloadedParams, i)
				}
			}
		}
	}
}

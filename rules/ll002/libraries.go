package ll002

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// CUB and thrust algorithms are templates: their kernels are instantiated
// in the file that calls them and load at their first launch like the
// file's own kernels. Measured on an H100 (driver 580, CUDA 13.0;
// testdata/measure/libraries.cu, three runs per mode): a first
// cub::DeviceReduce::Sum over 1M floats took 0.048-0.059 ms under LAZY and
// 0.018-0.023 ms under EAGER (later calls 0.015); a first thrust::sort of
// 1M ints 0.42-0.47 ms under LAZY and 0.32-0.45 ms under EAGER (later
// 0.24-0.34). cuBLAS and cuFFT kernels live in the libraries' own modules:
// a first cufftExecC2C was as fast under LAZY as under EAGER (the plan loads
// them), and a first 256x256 cublasSgemm took 79-191 ms in both modes (the
// library's own first-call work). Later first calls of other cuBLAS
// routines do pay a LAZY-only load (+0.15 ms to +3.5 ms), but which call is
// a routine's first cannot be told from the source: neither library is
// reported.

// libraryLaunch returns the kernel key a call of a library algorithm
// launches: a CUB device algorithm ("cub::DeviceReduce::ReduceByKey", with
// the functor types it is given: each is another instantiation), a thrust
// algorithm on the device ("thrust::sort"), a portability layer's parallel
// pattern with the lambda or functor it is given (knowledge.LibraryLaunchers:
// every lambda is a kernel of its own). CUB's sizing call (null temporary
// storage) launches nothing.
func (a *analysis) libraryLaunch(c *cudaparse.Call) (string, bool) {
	q, targs := qualifierAndTemplateArgs(c)
	switch {
	case strings.HasPrefix(q, "cub::Device") || strings.HasPrefix(q, "Device") && strings.Contains(c.Callee.Text(), "cub::"):
		if len(c.Args) == 0 || isNull(c.Args[0]) {
			return "", false
		}
		return "cub::" + strings.TrimPrefix(q, "cub::") + "::" + c.Name + a.functorTypes(c.Args), true
	case q == "thrust" && knowledge.ThrustAlgorithms[c.Name] && len(c.Args) > 0 && a.onDevice(c):
		return "thrust::" + c.Name, true
	}
	if key := knowledge.KokkosKernelsRoutine(q, c.Name, a.spellsNamespace); key != "" && len(c.Args) > 0 && !inLaunchedLambda(c) {
		return key, true
	}
	if key, ok := a.ginkgoOperation(c); ok {
		return key, true
	}
	if key, ok := a.cutlassOperator(c); ok {
		return key, true
	}
	last := q[strings.LastIndex(q, ":")+1:]
	l := knowledge.LibraryLauncherOf(last, c.Name, func(ns string) bool { return a.spellsNamespace(ns) })
	if l == nil || len(c.Args) == 0 {
		return "", false
	}
	policy := targs
	for _, arg := range c.Args {
		if !isLambdaArg(arg) {
			policy += " " + arg.Text()
		}
	}
	if l.RunsOnHost(policy) || l.Nested(policy) || inLaunchedLambda(c) || !l.NamesDevice(a.resolveAliases(targs)) {
		return "", false
	}
	name := l.Library + "::" + c.Name
	key, ok := a.libraryKey(l, c, name)
	if ok && a.siteKeys != nil {
		// What the project's facts call this launch (knowledge.
		// LibraryLaunchKey): a caller in another file that runs it first
		// loads it under that name.
		a.siteKeys[key] = knowledge.LibraryLaunchKey(l, c.Name, a.file.Path, a.file.Position(c.Node.Start()).Line)
	}
	return key, ok
}

// cutlassOperator returns the key of a call that runs a CUTLASS
// device-level operator (knowledge.IsCUTLASSDeviceOperator): `gemm.run()`,
// `gemm_op(args, workspace, stream)` on an object declared of the
// operator's type, or of an alias of it (`using Gemm =
// cutlass::gemm::device::GemmUniversalAdapter<Kernel>;`). The key is the
// type as the object is declared with: objects of one type run one kernel.
func (a *analysis) cutlassOperator(c *cudaparse.Call) (string, bool) {
	var obj cudaparse.Node
	switch callee := c.Callee.Unparen(); {
	case callee.Is("field_expression") && knowledge.CUTLASSOperatorRuns[c.Name]:
		obj = callee.ChildByField("argument")
	case callee.Is("identifier"):
		obj = callee // gemm_op(...): the call operator
	default:
		return "", false
	}
	if !obj.Is("identifier") || !a.cutlassObjects()[obj.Text()] {
		return "", false // cheap: most calls name no such object
	}
	typ, indirect := a.file.DeclaredType(obj)
	if typ == "" || indirect || !a.isCUTLASSOperatorType(typ) {
		return "", false
	}
	return typ + "::run", true
}

// cutlassObjects returns the names the file declares objects of a CUTLASS
// device-level operator type with (found once a file).
func (a *analysis) cutlassObjects() map[string]bool {
	if a.cutlassNames != nil {
		return a.cutlassNames
	}
	a.cutlassNames = map[string]bool{}
	if !bytes.Contains(a.file.Src, []byte("cutlass::")) {
		return a.cutlassNames // most files
	}
	a.file.Root().Descendants(func(n cudaparse.Node) bool {
		if !n.Is("declaration") {
			return true
		}
		if typ := strings.Join(strings.Fields(n.ChildByField("type").Text()), ""); typ != "" && a.isCUTLASSOperatorType(typ) {
			for _, d := range n.ChildrenByField("declarator") {
				if name := d.Name(); name != "" {
					a.cutlassNames[name] = true
				}
			}
		}
		return true
	})
	return a.cutlassNames
}

// isCUTLASSOperatorType reports whether a declared type, as written or
// as the file's alias of it, is a CUTLASS device-level operator
// (memoized by type: a file declares few).
func (a *analysis) isCUTLASSOperatorType(typ string) bool {
	if v, ok := a.cutlassTypes[typ]; ok {
		return v
	}
	v := knowledge.IsCUTLASSDeviceOperator(typ + " " + a.file.AliasText(typ[strings.LastIndex(typ, ":")+1:]))
	if a.cutlassTypes == nil {
		a.cutlassTypes = map[string]bool{}
	}
	a.cutlassTypes[typ] = v
	return v
}

// ginkgoOperation returns the key of a Ginkgo operation (an operator's
// apply, a factory's generate) called through a pointer in a file that
// uses Ginkgo and may create a CUDA executor (knowledge.GinkgoOperations).
func (a *analysis) ginkgoOperation(c *cudaparse.Call) (string, bool) {
	if !knowledge.GinkgoOperations[c.Name] || len(c.Args) == 0 || !c.Callee.Is("field_expression") ||
		c.Callee.ChildByField("operator").Text() != "->" || !a.spellsNamespace("gko") ||
		!bytes.Contains(a.file.Src, []byte(knowledge.GinkgoDeviceExecutor)) {
		return "", false
	}
	return knowledge.GinkgoOperationKey(elide(a.ginkgoObject(c.Callee.ChildByField("argument"))), c.Name), true
}

// maxObjectSpelling is the longest object spelling a key holds whole: a
// factory built in place spells its whole builder chain.
const maxObjectSpelling = 48

// elide shortens a spelling longer than maxObjectSpelling to its start
// and end.
func elide(s string) string {
	if len(s) <= maxObjectSpelling {
		return s
	}
	return s[:maxObjectSpelling/2] + "..." + s[len(s)-maxObjectSpelling/3:]
}

// ginkgoObject names the Ginkgo object recv spells by what made it: a
// solver is the product of its factory's generate, whether held in a
// variable (`auto solver = gen->generate(A); solver->apply(b, x)`) or
// used at once (`gen->generate(A)->apply(b, x)`, a warm-up's spelling),
// so that both name the same kernels. Other objects are named as written.
func (a *analysis) ginkgoObject(recv cudaparse.Node) string {
	recv = recv.Unparen()
	if recv.Is("identifier") {
		if defs := a.file.ReachingDefs(recv); len(defs) == 1 && defs[0].Value.Valid() {
			if made := generatedBy(defs[0].Value); made != "" {
				return made
			}
		}
	}
	if made := generatedBy(recv); made != "" {
		return made
	}
	return compact(recv.Text())
}

// generatedBy returns "F->generate(...)" for an expression that is, or
// wraps (`gko::as<T>(...)`, `gko::share(...)`), the call of a factory F's
// generate, and "" otherwise.
func generatedBy(n cudaparse.Node) string {
	var out string
	n.Descendants(func(d cudaparse.Node) bool {
		if out != "" || d.Is("lambda_expression") {
			return false
		}
		if d.Is("call_expression") {
			callee := d.ChildByField("function")
			if callee.Is("field_expression") && callee.ChildByField("field").Text() == "generate" {
				out = compact(callee.ChildByField("argument").Text()) + "->generate(...)"
				return false
			}
		}
		return true
	})
	return out
}

// libraryKey is the key of the kernel the launch c of library l runs, as
// this file's check names it: by its lambda's line, or its functor's type.
func (a *analysis) libraryKey(l *knowledge.LibraryLauncher, c *cudaparse.Call, name string) (string, bool) {
	functor := c.Args[len(c.Args)-1]
	if l.FunctorAfterPolicy {
		k := 1 // after the policy
		if a.isLabel(c, c.Args[0]) {
			k++
		}
		if k < len(c.Args) {
			functor = c.Args[k]
		}
	}
	for _, arg := range c.Args {
		if isLambdaArg(arg) {
			functor = arg.Unparen()
			break
		}
	}
	if isLambdaArg(functor) {
		pos := a.file.Position(functor.Start())
		return fmt.Sprintf("%s (the lambda at line %d)", name, pos.Line), true
	}
	if t := a.functorTypes([]cudaparse.Node{functor}); t != "" {
		return name + t, true
	}
	return name + "<" + compact(functor.Text()) + ">", true
}

// inLaunchedLambda reports whether a call lies in a lambda handed to a
// parallel pattern (a kernel's body): code there runs on the device, where
// a pattern is a loop, not a launch. (A lambda handed to a host helper, a
// timing function, runs on the host.)
func inLaunchedLambda(c *cudaparse.Call) bool {
	for p := c.Node.Parent(); p.Valid(); p = p.Parent() {
		if p.Is("lambda_expression") && p.Parent().Is("argument_list") {
			outer := p.Parent().Parent().ChildByField("function")
			if outer.Is("template_function") {
				outer = outer.ChildByField("name")
			}
			name := outer.Text()
			if outer.Is("qualified_identifier") {
				name = outer.ChildByField("name").Text()
			}
			for _, l := range knowledge.LibraryLaunchers {
				if l.Names[name] || strings.HasPrefix(name, l.Qualifiers[0]) {
					return true
				}
			}
		}
		if p.Is("function_definition") {
			return false
		}
	}
	return false
}

// hostOnlyBranch reports whether n lies in the branch of an if that a
// compile-time device test sends the host down: the else of `if (exec_gpu)`
// (or the then of `if (!exec_gpu)`) where exec_gpu is a constant
// (`constexpr bool exec_gpu = is_gpu_exec_space_v<Space>;`, or an `if
// constexpr`) named for the GPU. Portability layers choose their GPU and host
// algorithms so; on a CUDA build the host branch never runs. The same holds
// for code the preprocessor keeps only for a build without a GPU
// (cudaparse.InHostOnlyBuild).
func (a *analysis) hostOnlyBranch(n cudaparse.Node) bool {
	if cudaparse.InHostOnlyBuild(n) {
		return true
	}
	from := n
	for p := n.Parent(); p.Valid() && !p.Is("function_definition"); from, p = p, p.Parent() {
		if !p.Is("if_statement") || from.Field() != "consequence" && from.Field() != "alternative" {
			continue
		}
		cond := p.ChildByField("condition")
		text := strings.Trim(compact(cond.Text()), "()")
		negated := strings.HasPrefix(text, "!")
		text = strings.Trim(strings.TrimPrefix(text, "!"), "()")
		if !deviceTest.MatchString(outerTemplateLevels(text)) || !a.compileTimeConstant(p, cond, text) {
			continue
		}
		if from.Field() == "alternative" && !negated || from.Field() == "consequence" && negated {
			return true
		}
	}
	return false
}

// outerTemplateLevels returns text without what nests two template
// argument lists deep: `is_same_v<Space, Kokkos::Cuda>` keeps its Cuda,
// `is_base_of<IterFunctor<CUDA>, F>` (a dispatch on functor types, which
// every branch of runs on the device) loses its CUDA.
func outerTemplateLevels(text string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '<':
			depth++
		case '>':
			depth--
		}
		if depth < 2 && !(text[i] == '>' && depth == 1) {
			b.WriteByte(text[i])
		}
	}
	return b.String()
}

// deviceTest matches a condition named for the GPU.
var deviceTest = regexp.MustCompile(`(?i)gpu|cuda|device`)

// compileTimeConstant reports whether an if's condition is known at
// compile time: `if constexpr`, or a variable declared constexpr.
func (a *analysis) compileTimeConstant(ifStmt, cond cudaparse.Node, text string) bool {
	if strings.HasPrefix(compact(ifStmt.Text()), "ifconstexpr") {
		return true
	}
	if !identRE.MatchString(text) || identRE.FindString(text) != text {
		return false
	}
	var id cudaparse.Node
	cond.Descendants(func(x cudaparse.Node) bool {
		if x.Is("identifier") && x.Text() == text {
			id = x
			return false
		}
		return !id.Valid()
	})
	if !id.Valid() {
		return false
	}
	for _, d := range a.file.ReachingDefs(id) {
		for q := d.Node; q.Valid(); q = q.Parent() {
			if q.Is("declaration") {
				return strings.Contains(q.Text(), "constexpr")
			}
		}
	}
	return false
}

// isLambdaArg reports whether an argument is a lambda: written as one, or
// through a library's lambda macro (KOKKOS_LAMBDA(int i) { ... }, which
// the parser sees as a call of the macro, or as the macro and a body).
func isLambdaArg(arg cudaparse.Node) bool {
	x := arg.Unparen()
	if x.Is("lambda_expression", "compound_statement") {
		return true // a lambda, or the body a lambda macro left (not {0, 0}: an initializer list)
	}
	return x.Is("call_expression") && strings.Contains(x.ChildByField("function").Text(), "LAMBDA")
}

// isLabel reports whether a parallel pattern's first argument is its label
// (Kokkos::parallel_for("name", policy, f)): a string, a variable declared
// as one, or the first of parallel_for's three arguments.
func (a *analysis) isLabel(c *cudaparse.Call, arg cudaparse.Node) bool {
	if _, ok := cudaparse.StringValue(arg); ok {
		return true
	}
	if x := arg.Unparen(); x.Is("identifier") && strings.Contains(a.objectType(x), "string") {
		return true
	}
	return c.Name == "parallel_for" && len(c.Args) == 3
}

// qualifierAndTemplateArgs returns a call's namespace or class qualifier
// ("RAJA", "cub::DeviceReduce") and its explicit template arguments as
// written ("RAJA::cuda_exec<256>"), "" for either it lacks.
func qualifierAndTemplateArgs(c *cudaparse.Call) (q, targs string) {
	t := strings.TrimPrefix(compact(c.Callee.Text()), "::")
	if open := strings.IndexByte(t, '<'); open >= 0 {
		if end := strings.LastIndexByte(t, '>'); end > open {
			targs = t[open+1 : end]
		}
		t = t[:open]
	}
	if i := strings.LastIndex(t, "::"); i >= 0 {
		q = t[:i]
	}
	return q, targs
}

// spellsNamespace reports whether the file writes the namespace ns (an
// unqualified parallel_for counts in a file that uses Kokkos).
func (a *analysis) spellsNamespace(ns string) bool {
	return strings.Contains(string(a.file.Src), ns+"::")
}

// resolveAliases returns policy text with the aliases the file defines for
// its names appended (`using EXEC_POL = RAJA::cuda_exec<256>;`), so that a
// device policy named through an alias is seen. An alias the file does not
// define is unknown: a file that is CUDA by its name counts as naming the
// device (RAJAPerf's *-Cuda.cpp), any other does not (fewer false alarms).
func (a *analysis) resolveAliases(policy string) string {
	out := policy
	unknown := false
	for _, name := range identifiers(policy) {
		re := regexp.MustCompile(`(?:using\s+` + name + `\s*=\s*([^;]+);|typedef\s+([^;]+?)\s+` + name + `\s*;)`)
		if m := re.FindSubmatch(a.file.Src); m != nil {
			out += " " + string(m[1]) + string(m[2])
		} else if !strings.Contains(name, "::") {
			unknown = true
		}
	}
	if unknown && strings.Contains(strings.ToLower(a.file.Path), "cuda") || strings.HasSuffix(a.file.Path, ".cu") {
		out += " cuda"
	}
	return out
}

// identifiers returns the plain names in text (not after ::).
func identifiers(text string) []string {
	var out []string
	for _, m := range identRE.FindAllStringIndex(text, -1) {
		if m[0] >= 2 && text[m[0]-2:m[0]] == "::" {
			continue
		}
		out = append(out, text[m[0]:m[1]])
	}
	return out
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// functorTypes returns, as "<T1,T2>", the types of the arguments that are
// function objects: constructed in place (CustomMax(), cub::Sum{}) or
// variables declared with a class type that is not a pointer. Another
// functor type makes another kernel instantiation; "" when there is none.
func (a *analysis) functorTypes(args []cudaparse.Node) string {
	var types []string
	for _, arg := range args {
		x := arg.Unparen()
		switch {
		case x.Is("call_expression"), x.Is("compound_literal_expression"):
			callee := x.ChildByField("function")
			if !callee.Valid() {
				callee = x.ChildByField("type")
			}
			types = append(types, compact(callee.Text()))
		case x.Is("identifier"):
			if t := a.objectType(x); t != "" {
				types = append(types, t)
			}
		}
	}
	if len(types) == 0 {
		return ""
	}
	return "<" + strings.Join(types, ",") + ">"
}

// objectType returns the declared class type of a variable, "" for
// pointers, references, fundamental types and auto.
func (a *analysis) objectType(id cudaparse.Node) string {
	t, indirect := a.file.DeclaredType(id)
	if t == "auto" && !indirect {
		// auto f = Functor(args): the type is the constructor's.
		for _, d := range a.file.ReachingDefs(id) {
			if v := d.Value.Unparen(); d.Op == cudaparse.DefInit && v.Is("call_expression", "compound_literal_expression") {
				callee := v.ChildByField("function")
				if !callee.Valid() {
					callee = v.ChildByField("type")
				}
				return compact(callee.Text())
			}
		}
	}
	if indirect || fundamentalType.MatchString(t) {
		return ""
	}
	return t
}

var fundamentalType = regexp.MustCompile(`^(const)?(auto|void|bool|char|short|int|long|unsigned|signed|float|double|size_t|u?int\d+_t|std::size_t|cudaStream_t|cudaEvent_t)\b`)

func compact(s string) string { return strings.Join(strings.Fields(s), "") }

// onDevice reports whether a thrust call runs on the device: a device
// execution policy first (thrust::device, thrust::cuda::par.on(s)), or an
// argument on a thrust::device_vector of the function.
func (a *analysis) onDevice(c *cudaparse.Call) bool {
	policy := strings.ReplaceAll(c.Args[0].Text(), " ", "")
	if strings.HasPrefix(policy, "thrust::device") || strings.HasPrefix(policy, "thrust::cuda::par") || strings.HasPrefix(policy, "thrust::cuda_cub::par") {
		return true
	}
	for _, arg := range c.Args {
		base := arg.Unparen()
		for base.Is("call_expression") {
			base = base.ChildByField("function") // v.begin()
		}
		if base.Is("field_expression") {
			base = base.ChildByField("argument")
		}
		if !base.Is("identifier") {
			continue
		}
		// The variable's type, not what was last stored in it: `v = h;`
		// (a host vector copied in) reaches the call, not v's declaration,
		// and v is still a device vector.
		if t, _ := a.file.DeclaredType(base); deviceContainer(t) {
			return true
		}
		for _, d := range a.file.ReachingDefs(base) {
			for p := d.Node; p.Valid(); p = p.Parent() {
				if p.Is("declaration", "parameter_declaration", "field_declaration") {
					if deviceContainer(p.ChildByField("type").Text()) {
						return true
					}
					break
				}
			}
		}
	}
	return false
}

// deviceContainer reports whether a declared type holds device memory for
// thrust: a device_vector or a device_ptr.
func deviceContainer(typ string) bool {
	return strings.Contains(typ, "device_vector") || strings.Contains(typ, "device_ptr")
}

func isNull(n cudaparse.Node) bool {
	switch strings.TrimSpace(n.Unparen().Text()) {
	case "nullptr", "NULL", "0":
		return true
	}
	if n.Unparen().Is("identifier") {
		defs := n.File().ReachingDefs(n.Unparen())
		if len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if !d.Value.Valid() || !isNull(d.Value) {
				return false
			}
		}
		return true
	}
	return false
}

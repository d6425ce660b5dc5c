package ll002

import (
	"slices"
	"strings"

	"github.com/lazylint/lazylint/cudaparse"
	"github.com/lazylint/lazylint/knowledge"
)

// warmedByRunner reports whether the timed region lies in a lambda handed
// to a benchmark library's method that runs it once or more, unmeasured,
// before the runs it reports (knowledge.WarmupRunners: nvbench's
// state.exec): the first launch falls in the warm-up.
func warmedByRunner(f *cudaparse.File, fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	lambda := r.Start.Ancestor("lambda_expression")
	if !lambda.Valid() {
		return false
	}
	for _, c := range f.Calls {
		if c.Func == fn && c.Callee.Is("field_expression") && handsLambda(f, fn, c, lambda) && runsWarmup(f, c) {
			return true
		}
	}
	return false
}

// handsLambda reports whether the lambda is an argument of c, written
// there or through the variable it is bound to (`auto body = [&](...)
// {...}; state.exec(body);`).
func handsLambda(f *cudaparse.File, fn *cudaparse.Function, c *cudaparse.Call, lambda cudaparse.Node) bool {
	for _, arg := range c.Args {
		a := arg.Unparen()
		if a.Is("identifier") {
			a = f.LambdaVariable(fn, a)
		}
		if a == lambda {
			return true
		}
	}
	return false
}

// runsWarmup reports whether c calls a warm-up runner: a method
// knowledge.WarmupRunners lists for the type its receiver is declared with.
func runsWarmup(f *cudaparse.File, c *cudaparse.Call) bool {
	recv := c.Callee.ChildByField("argument").Unparen()
	if !recv.Is("identifier") {
		return false
	}
	typ, _ := f.DeclaredType(recv)
	typ = strings.TrimPrefix(strings.TrimPrefix(typ, "const"), "::")
	return knowledge.WarmupRunners[typ][c.Name]
}

// startsWithProgram reports whether r starts before the program touches
// CUDA: in main, after statements that only declare plain variables or
// call the C library and functions of the file that touch no CUDA
// (reading arguments and input, building the problem on the host), or in
// a function of the file only main calls, first before main touches CUDA
// and with nothing touching it before the timer in the function. The
// measurement then holds the creation of the CUDA context, where eager
// loading loads every module: lazy loading adds nothing to such a total
// (Cholla's `start_total = Get_Time();` at the top of main, printed as the
// initialization time; Rodinia's gaussian, which reads its matrix and
// then times ForwardSub(), whose cudaMalloc is the program's first CUDA
// call; HeCBench's extend2, whose main loop calls a function timing its
// own first cudaMalloc). A call of a function the file does not define may
// touch CUDA.
func (a *analysis) startsWithProgram(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	if !fn.Body.Valid() {
		return false
	}
	if !isMain(fn) {
		return a.calledFirstByMain(fn, r)
	}
	// The statements before the timer's that do something: asked about
	// together, in one pass over main.
	var busy []cudaparse.Node
	for _, stmt := range fn.Body.NamedChildren() {
		if stmt.Contains(r.Start) {
			return stmt.Is("expression_statement", "declaration") &&
				!a.mayTouchCUDA(fn, func(n cudaparse.Node) bool {
					return slices.ContainsFunc(busy, func(b cudaparse.Node) bool { return b.Contains(n) })
				})
		}
		if !inert(stmt) {
			busy = append(busy, stmt)
		}
	}
	return false
}

// isMain reports whether fn is the program's entry point.
func isMain(fn *cudaparse.Function) bool { return fn.Name == "main" && fn.QualifiedName == "main" }

// calledFirstByMain reports whether fn, which holds r, is called only by
// the file's main, each call with nothing before it in main that may
// touch CUDA, and nothing before r's start in fn that may.
func (a *analysis) calledFirstByMain(fn *cudaparse.Function, r cudaparse.TimedRegion) bool {
	main := a.file.FunctionNamed("main")
	if main == nil || !isMain(main) || !main.Body.Valid() || a.mayTouchCUDA(fn, before(r.Start)) {
		return false
	}
	sites := 0
	for _, c := range a.file.Calls {
		if c.Name != fn.Name || a.file.FunctionNamed(c.Name) != fn {
			continue
		}
		if c.Func != main || a.mayTouchCUDA(main, before(c.Node)) {
			return false // another caller, or CUDA may be up before the call
		}
		sites++
	}
	return sites > 0
}

// before returns a test of whether a node ends before at starts.
func before(at cudaparse.Node) func(cudaparse.Node) bool {
	return func(n cudaparse.Node) bool { return n.End() <= at.Start() }
}

// mayTouchCUDA reports whether the code of fn where (a test of a node)
// holds may touch CUDA: a launch, a CUDA call, a device container, a
// function of the file that does one of these (cudaparse.Activity), or a
// call of a function the file does not define, but the C library's
// (knowledge.HostLibraryCalls) and the C++ standard library's (`std::`,
// and its function objects).
func (a *analysis) mayTouchCUDA(fn *cudaparse.Function, where func(cudaparse.Node) bool) bool {
	if a.act == nil {
		a.act = cudaparse.NewActivity(a.file, func(name string) bool { return !a.file.Defines(name) && cudaparse.InitializesCUDA(name) })
	}
	for _, s := range a.act.Steps(fn) {
		if where(s.Node) {
			if _, ok := a.act.StepReaches(s, fn); ok {
				return true
			}
		}
	}
	touches := false
	fn.Body.Descendants(func(n cudaparse.Node) bool {
		if n.Is("declaration") && where(n) && a.constructsUnknown(n) {
			touches = true
		}
		return !touches
	})
	if touches {
		return true
	}
	for _, c := range a.file.CallsIn(fn) {
		if !where(c.Node) || a.file.Defines(c.Name) || !c.Callee.Is("field_expression") && knowledge.HostLibraryCalls[c.Name] {
			continue
		}
		if strings.HasPrefix(strings.TrimPrefix(c.Callee.Text(), "::"), "std::") {
			continue
		}
		if c.Callee.Is("identifier") {
			// A function object of the standard library
			// (`uniform_distr(g)` of a std::uniform_real_distribution).
			if typ, _ := a.file.DeclaredType(c.Callee); strings.HasPrefix(strings.TrimPrefix(typ, "::"), "std::") {
				continue
			}
		}
		return true
	}
	return false
}

// constructsUnknown reports whether a declaration constructs an object of
// a class the file does not define, with arguments or a template (`Dense<float>
// m(dim, dim)`, whose constructor, in another file, may allocate device
// memory): not of the standard library, nor of plain or CUDA value types.
// The file's own classes are the Activity's to judge.
func (a *analysis) constructsUnknown(decl cudaparse.Node) bool {
	typeNode := decl.ChildByField("type")
	// Builtin and sized types (int, unsigned long long, size_t), auto and
	// a struct spelled as one construct nothing on the device; nor does
	// CUDA's dim3.
	if !typeNode.Valid() || typeNode.Is("primitive_type", "sized_type_specifier", "placeholder_type_specifier", "struct_specifier") {
		return false
	}
	typ := strings.TrimSpace(strings.TrimPrefix(typeNode.Text(), "::"))
	if typ == "" || typ == "dim3" || strings.HasPrefix(typ, "std::") {
		return false
	}
	if a.file.Defines(typ[strings.LastIndex(typ, ":")+1:]) {
		return false
	}
	withArgs := false
	for _, d := range decl.ChildrenByField("declarator") {
		withArgs = withArgs || d.Is("init_declarator") && d.ChildByField("value").Is("argument_list", "initializer_list") || d.Is("function_declarator")
	}
	return withArgs || strings.Contains(typ, "<")
}

// inert reports whether a statement of main before any timer does nothing
// a CUDA context could come of: a declaration of plain variables (no
// constructor arguments, no call in an initializer), an assignment of
// constants, a comment or a preprocessor line.
func inert(stmt cudaparse.Node) bool {
	switch {
	case stmt.Is("comment"):
		return true
	case stmt.Is("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"):
		return allInert(stmt)
	case strings.HasPrefix(stmt.Kind(), "preproc"): // #define, #include, #pragma
		return true
	case stmt.Is("declaration", "expression_statement"):
		busy := false
		stmt.Descendants(func(n cudaparse.Node) bool {
			if n.Is("call_expression", "argument_list", "new_expression", "lambda_expression", "initializer_list") {
				busy = true
			}
			return !busy
		})
		return !busy
	}
	return false
}

// allInert reports whether every statement a preprocessor conditional
// holds is inert.
func allInert(cond cudaparse.Node) bool {
	for _, k := range cond.NamedChildren() {
		if k.Field() == "condition" || k.Field() == "name" {
			continue
		}
		if !inert(k) {
			return false
		}
	}
	return true
}
